/**
 * Proxy adoption of real processes: @modelcontextprotocol/server-memory over
 * stdio, and a fixture server that crashes mid-call, reports progress, asks
 * for sampling and waits to be cancelled.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildHost, silentLogger, type McpHost } from '@reactor/host';
import { connect, type TestConnection } from '@reactor/host/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { adoptProcess, AdoptErrorCodes } from '../src/index.js';

const require = createRequire(import.meta.url);
const memoryPackage = require.resolve('@modelcontextprotocol/server-memory/package.json');
const memoryVersion = (JSON.parse(readFileSync(memoryPackage, 'utf8')) as { version: string }).version;
const memoryMain = join(dirname(memoryPackage), 'dist', 'index.js');
const crashy = join(dirname(fileURLToPath(import.meta.url)), 'fixtures', 'crashy-server.mjs');
const text = (result: { content: unknown[] }) => (result.content as Array<{ text?: string }>).map((c) => c.text ?? '').join('\n');

let host: McpHost | undefined;
const open: TestConnection[] = [];
const temps: string[] = [];
afterEach(async () => {
  for (const c of open.splice(0)) await c.close();
  await host?.stop();
  host = undefined;
  for (const dir of temps.splice(0)) rmSync(dir, { recursive: true, force: true });
});
async function client(h: McpHost, selection?: string, clientCapabilities?: NonNullable<Parameters<typeof connect>[1]>['clientCapabilities']): Promise<TestConnection> {
  const c = await connect(h, { ...(selection !== undefined ? { selection } : {}), ...(clientCapabilities ? { clientCapabilities } : {}) });
  open.push(c);
  return c;
}

describe(`@modelcontextprotocol/server-memory@${memoryVersion} adopted by proxy over stdio`, () => {
  it('creates entities and reads the graph back', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'adopt-memory-'));
    temps.push(dir);
    const memory = await adoptProcess({
      name: 'memory',
      command: process.execPath,
      args: [memoryMain],
      env: { MEMORY_FILE_PATH: join(dir, 'memory.jsonl') },
      from: `@modelcontextprotocol/server-memory@${memoryVersion}`,
      toolset: { name: 'memory', default: false, description: 'A knowledge graph.' },
      logger: silentLogger,
    });
    expect(memory.adoption.tools.map((t) => t.name)).toEqual(expect.arrayContaining(['create_entities', 'read_graph', 'search_nodes']));
    host = await buildHost([memory], { logger: silentLogger, strict: true });
    expect(await (await client(host)).toolNames()).toEqual([]);
    const c = await client(host, 'memory');
    const created = await c.callTool('create_entities', { entities: [{ name: 'Ada', entityType: 'person', observations: ['wrote the first program'] }] });
    expect(created.isError).toBeFalsy();
    const graph = await c.callTool('read_graph', {});
    expect(text(graph)).toContain('wrote the first program');
    expect(readFileSync(join(dir, 'memory.jsonl'), 'utf8')).toContain('"Ada"');
    // Its resource is proxied too: the same graph, read as memory://knowledge-graph.
    expect(memory.adoption.resources).toEqual(['knowledge-graph']);
    const resource = await c.client.readResource({ uri: 'memory://knowledge-graph' });
    expect(JSON.stringify(resource.contents)).toContain('wrote the first program');
    await host.stop();
    host = undefined;
    expect(memory.connection.state).toBe('stopped');
  });
});

describe('a child process adopted by proxy', () => {
  async function adoptCrashy(restart: { initialDelayMs: number } | false = { initialDelayMs: 10 }) {
    return await adoptProcess({ name: 'crashy', command: process.execPath, args: [crashy], restart, logger: silentLogger });
  }

  it('fails the call it dies in clearly, restarts, and answers the next call', async () => {
    const crashyServer = await adoptCrashy();
    host = await buildHost([crashyServer], { logger: silentLogger, strict: true });
    const c = await client(host);
    const before = text(await c.callTool('pid'));
    const failed = await c.callTool('crash');
    expect(failed.isError).toBe(true);
    expect(text(failed)).toContain('adopted server "crashy"');
    expect(text(failed)).toContain('went away during the call');
    expect(text(failed)).toContain('crashy: exiting on purpose');
    await crashyServer.connection.whenReady();
    expect(crashyServer.connection.restarts).toBe(1);
    const after = text(await c.callTool('pid'));
    expect(after).toMatch(/^\d+$/);
    expect(after).not.toBe(before);
  });

  it('serves the tools it lists after saying its list changed: new connections get them, the report too', async () => {
    const crashyServer = await adoptCrashy();
    host = await buildHost([crashyServer], { logger: silentLogger, strict: true });
    const before = await client(host);
    expect(await before.toolNames()).not.toContain('grown');
    const changed = new Promise<void>((resolve) => {
      const stop = host!.onChange(() => {
        stop();
        resolve();
      });
    });
    expect(text(await before.callTool('grow'))).toBe('grew');
    await changed;
    expect(crashyServer.adoption.tools.map((t) => t.name)).toContain('grown');
    const after = await client(host);
    expect(await after.toolNames()).toContain('grown');
    expect(text(await after.callTool('grown'))).toBe('grown answers');
    // The connection that was open keeps the surface it started with (MCP 2025 sessions do).
    expect(await before.toolNames()).not.toContain('grown');
  });

  it('fails calls clearly while it is down and not restarting', async () => {
    const crashyServer = await adoptCrashy(false);
    host = await buildHost([crashyServer], { logger: silentLogger, strict: true });
    const c = await client(host);
    await c.callTool('crash');
    const next = await c.callTool('pid');
    expect(next.isError).toBe(true);
    expect(text(next)).toContain('the server is down');
  });

  it('relays progress and logging to the calling client', async () => {
    host = await buildHost([await adoptCrashy()], { logger: silentLogger, strict: true });
    const c = await client(host);
    const logs: unknown[] = [];
    c.client.setNotificationHandler('notifications/message', (n) => void logs.push(n.params.data));
    const progress: number[] = [];
    const result = await c.client.callTool({ name: 'progress', arguments: { steps: 3 } }, { onprogress: (p) => progress.push(p.progress) });
    expect(text(result)).toBe('3 steps');
    expect(progress).toEqual([1, 2, 3]);
    expect(logs).toEqual(['progress done']);
  });

  it('relays sampling to a client that supports it', async () => {
    host = await buildHost([await adoptCrashy()], { logger: silentLogger, strict: true });
    const c = await client(host, undefined, { sampling: {} });
    c.client.setRequestHandler('sampling/createMessage', () => ({ model: 'm', role: 'assistant', content: { type: 'text', text: 'yes' } }));
    expect(text(await c.callTool('ask', { q: 'ok?' }))).toBe('sampled: yes');
  });

  it('propagates cancellation to the child', async () => {
    host = await buildHost([await adoptCrashy()], { logger: silentLogger, strict: true });
    const c = await client(host);
    const controller = new AbortController();
    // The child reports progress once its handler runs: abort then, when the call is surely in flight.
    let started!: () => void;
    const running = new Promise<void>((resolve) => (started = resolve));
    const call = c.client.callTool({ name: 'slow', arguments: {} }, { signal: controller.signal, onprogress: () => started() });
    await running;
    controller.abort('enough');
    await expect(call).rejects.toThrow();
    // Messages reach the child in order: the cancellation is handled before the next call.
    expect(text(await c.callTool('cancellations'))).toBe('1');
  });

  it('serves its prompts', async () => {
    host = await buildHost([await adoptCrashy()], { logger: silentLogger, strict: true });
    const got = await (await client(host)).client.getPrompt({ name: 'hello', arguments: { who: 'Ada' } });
    expect(got.messages[0]?.content).toEqual({ type: 'text', text: 'hello Ada' });
  });

  it('gives each connection its own child with perConnection', async () => {
    const crashyServer = await adoptProcess({ name: 'crashy', command: process.execPath, args: [crashy], perConnection: true, logger: silentLogger });
    host = await buildHost([crashyServer], { logger: silentLogger, strict: true });
    const first = await client(host);
    const second = await client(host);
    const [a1, b1] = [text(await first.callTool('pid')), text(await second.callTool('pid'))];
    expect(text(await first.callTool('pid'))).toBe(a1);
    expect(b1).not.toBe(a1);
  });

  it('refuses to start a command that does not speak MCP, naming it', async () => {
    const attempt = adoptProcess({ name: 'broken', command: process.execPath, args: ['-e', 'process.stderr.write("no mcp here\\n"); process.exit(2)'], restart: false, logger: silentLogger });
    await expect(attempt).rejects.toMatchObject({ code: AdoptErrorCodes.UPSTREAM_DOWN, message: expect.stringContaining('adopted server "broken" (command') });
  });
});
