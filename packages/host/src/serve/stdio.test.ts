/**
 * `serveStdio` in a real child process: stdout carries only the protocol
 * (logs go to stderr), the selection decides the tools, both eras open, and
 * the process ends cleanly when the client closes stdin.
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { transpileForChild, type Transpiled } from '../../test/helpers/transpile.js';

let build: Transpiled;
beforeAll(async () => {
  build = await transpileForChild();
});
afterAll(async () => {
  await build.remove();
});
const nodeArgs = (selection: string) => [build.path('test/helpers/stdio-child.js'), selection];

type Message = { jsonrpc?: unknown; id?: unknown; result?: Record<string, unknown>; error?: unknown };

/** A child serving over stdio, with its stdout split into lines and a wait for each response id. */
function startChild(selection: string) {
  const child: ChildProcessWithoutNullStreams = spawn(process.execPath, nodeArgs(selection), { stdio: ['pipe', 'pipe', 'pipe'] });
  const lines: string[] = [];
  let stderr = '';
  const waiting = new Map<unknown, (message: Message) => void>();
  let buffer = '';
  child.stdout.setEncoding('utf8');
  child.stdout.on('data', (chunk: string) => {
    buffer += chunk;
    let newline: number;
    while ((newline = buffer.indexOf('\n')) !== -1) {
      const line = buffer.slice(0, newline);
      buffer = buffer.slice(newline + 1);
      lines.push(line);
      try {
        const message = JSON.parse(line) as Message;
        waiting.get(message.id)?.(message);
      } catch {
        // Not JSON: the assertion on `lines` reports it.
      }
    }
  });
  child.stderr.setEncoding('utf8');
  child.stderr.on('data', (chunk: string) => (stderr += chunk));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return {
    lines,
    stderr: () => stderr,
    trailing: () => buffer,
    exited,
    send(message: unknown): void {
      child.stdin.write(`${JSON.stringify(message)}\n`);
    },
    request(message: { id: number } & Record<string, unknown>): Promise<Message> {
      const answered = new Promise<Message>((resolve) => waiting.set(message.id, resolve));
      this.send(message);
      return answered;
    },
    end: () => child.stdin.end(),
  };
}

describe('serveStdio', () => {
  it('serves the selection over stdio, stdout carrying only JSON-RPC, and exits when stdin closes', async () => {
    const child = startChild('only=library');
    const init = await child.request({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '1' } } });
    expect((init.result?.['instructions'] as string)).toContain('Library: search by title.');
    child.send({ jsonrpc: '2.0', method: 'notifications/initialized' });
    const list = await child.request({ jsonrpc: '2.0', id: 2, method: 'tools/list' });
    const names = (list.result?.['tools'] as Array<{ name: string }>).map((t) => t.name).sort();
    expect(names).toEqual(['find_book', 'list_server_toolsets', 'whoami']);
    const call = await child.request({ jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'find_book', arguments: { title: 'Dune' } } });
    expect(call.result?.['content']).toEqual([{ type: 'text', text: 'found Dune' }]);
    const refused = await child.request({ jsonrpc: '2.0', id: 4, method: 'tools/call', params: { name: 'list_spaces', arguments: {} } });
    expect(refused.error).toMatchObject({ message: expect.stringContaining('list_spaces') });
    child.end();
    expect(await child.exited).toBe(0);

    expect(child.trailing()).toBe('');
    expect(child.lines.length).toBeGreaterThanOrEqual(4);
    for (const line of child.lines) expect(JSON.parse(line)).toMatchObject({ jsonrpc: '2.0' });
    // The host did log (the start-up summary), to stderr.
    expect(child.stderr()).toContain('started with 4 extension(s)');
  });

  it('opens a 2026-07-28 connection from a real client', async () => {
    const transport = new StdioClientTransport({ command: process.execPath, args: nodeArgs('benchmarks'), stderr: 'pipe' });
    const client = new Client({ name: 'stdio-test', version: '1.0.0' }, { versionNegotiation: { mode: 'auto' } });
    await client.connect(transport);
    try {
      expect(client.getNegotiatedProtocolVersion()).toBe('2026-07-28');
      const tools = (await client.listTools()).tools.map((t) => t.name).sort();
      expect(tools).toEqual(['list_server_toolsets', 'list_spaces', 'run_benchmark', 'whoami']);
      const result = await client.callTool({ name: 'run_benchmark', arguments: {} });
      expect(result.content).toEqual([{ type: 'text', text: 'run 1: ok' }]);
    } finally {
      await client.close();
    }
  });
});
