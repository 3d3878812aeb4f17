import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { clientsRoot, textOf, type ClientUnderTest } from './types.js';

/** mcp-remote's arguments for an endpoint and the headers to send (each `--header Name:value`), after its package name. */
export function mcpRemoteArgs(url: string, headers: Record<string, string>): string[] {
  return [url, '--transport', 'http-only', ...Object.entries(headers).flatMap(([name, value]) => ['--header', `${name}:${value}`])];
}

/**
 * mcp-remote, the stdio bridge desktop clients (Claude Desktop, Cursor, …) run
 * for a remote server: spawned as they spawn it, headers given as `--header`,
 * and spoken to over stdio by an MCP client.
 */
export const mcpRemote: ClientUnderTest = {
  name: 'mcp-remote',
  packageName: 'mcp-remote',
  async connect({ url, headers }) {
    const proxy = createRequire(join(clientsRoot(), 'package.json')).resolve('mcp-remote/dist/proxy.js');
    // Where mcp-remote keeps OAuth state: a fresh folder, never the user's ~/.mcp-auth.
    const configDir = mkdtempSync(join(tmpdir(), 'reactor-mcp-remote-'));
    const args = mcpRemoteArgs(url, headers);
    const client = new Client({ name: 'desktop-client', version: '1.0.0' });
    const transport = new StdioClientTransport({ command: process.execPath, args: [proxy, ...args], env: { PATH: process.env.PATH ?? '', MCP_REMOTE_CONFIG_DIR: configDir }, stderr: 'pipe' });
    let stderr = '';
    transport.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const close = async () => {
      await client.close();
      rmSync(configDir, { recursive: true, force: true });
    };
    try {
      await client.connect(transport);
    } catch (error) {
      await close();
      throw new Error(`mcp-remote did not connect: ${error instanceof Error ? error.message : String(error)}\n${stderr.slice(-2000)}`, { cause: error });
    }
    const { tools } = await client.listTools();
    return {
      toolNames: tools.map((t) => t.name),
      callTool: async (name, a) => textOf((await client.callTool({ name, arguments: a })).content),
      readResource: async (uri) => textOf((await client.readResource({ uri })).contents),
      getPrompt: async (name, a) => textOf((await client.getPrompt({ name, arguments: a })).messages.map((m) => m.content)),
      close,
    };
  },
};
