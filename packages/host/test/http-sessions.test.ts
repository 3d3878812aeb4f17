/**
 * 2025-protocol sessions: a session keeps the server (and blueprint) it was
 * opened with through rebuilds; sessions belong to their tenant; they are
 * capped and idled out; `sessions: false` serves everything statelessly.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { EventStore } from '@modelcontextprotocol/server';
import { createMcpApp, defineExtension, defineTool, silentLogger, type Logger, type McpAppOptions, type McpHost } from '../src/index.js';
import { fixtureHost, type WhoAmI } from './helpers/fixtures.js';
import { CLIENT_KINDS, connectClient, initializeBody, jsonOf, listen, messagesOf, post, type Listening } from './helpers/http.js';

const cleanup: Array<() => Promise<void>> = [];
afterEach(async () => {
  while (cleanup.length > 0) await cleanup.pop()!();
});

async function start(options: McpAppOptions = {}): Promise<{ host: McpHost; served: Listening; app: ReturnType<typeof createMcpApp> }> {
  const host = await fixtureHost();
  const app = createMcpApp(host, options);
  const served = await listen(app);
  cleanup.push(async () => {
    await served.close();
    await host.stop();
  });
  return { host, served, app };
}

/** Opens a session with a raw initialize; answers its id. */
async function openSession(url: URL, headers: Record<string, string> = {}): Promise<string> {
  const response = await post(url, initializeBody(), headers);
  expect(response.status).toBe(200);
  const id = response.headers.get('mcp-session-id');
  await messagesOf(response);
  expect(id).toBeTruthy();
  return id!;
}

function inSession(id: string, headers: Record<string, string> = {}): Record<string, string> {
  return { 'mcp-session-id': id, 'mcp-protocol-version': '2025-11-25', ...headers };
}

const toolsList = { jsonrpc: '2.0', id: 2, method: 'tools/list' };

describe('a session keeps its blueprint', () => {
  it.each(CLIENT_KINDS.filter((k) => !k.includes('2026')))('through forgetBuilt, add and a wake; new connections get the new one (%s)', async (kind) => {
    const { host, served } = await start();
    const old = await connectClient(kind, served.url('/mcp?library'));
    cleanup.push(() => old.close());
    const before = await old.toolNames();
    const who = jsonOf<WhoAmI>(await old.callTool('whoami'));
    expect(who.sessionId).toBe(old.sessionId());

    await host.add(
      defineExtension({
        manifest: { name: 'extra', version: '1.0.0' },
        toolsets: () => [{ name: 'library', default: false }],
        tools: () => [defineTool({ name: 'lend_book', description: 'Lend a book.', handler: () => 'lent' })],
      }),
    );
    host.forgetBuilt();
    const waking = await connectClient(kind, served.url('/mcp?benchmarks')); // wakes the held extension: another rebuild
    await waking.close();

    expect(await old.toolNames()).toEqual(before);
    expect((jsonOf<WhoAmI>(await old.callTool('whoami'))).sessionId).toBe(who.sessionId);
    await expect(old.callTool('lend_book')).rejects.toThrow(/not found/);

    const fresh = await connectClient(kind, served.url('/mcp?library'));
    expect((await fresh.toolNames()).sort()).toEqual([...before, 'lend_book'].sort());
    await fresh.close();
  });
});

describe('a 2026-07-28 client has no session', () => {
  it('so each of its requests uses the current blueprint', async () => {
    const { host, served } = await start();
    const client = await connectClient('v2 client, 2026-07-28 protocol', served.url('/mcp?library'));
    cleanup.push(() => client.close());
    expect(await client.toolNames()).not.toContain('lend_book');
    await host.add(
      defineExtension({
        manifest: { name: 'extra', version: '1.0.0' },
        toolsets: () => [{ name: 'library', default: false }],
        tools: () => [defineTool({ name: 'lend_book', description: 'Lend a book.', handler: () => 'lent' })],
      }),
    );
    expect(await client.toolNames()).toContain('lend_book');
  });
});

describe('resumable streams', () => {
  it("passes eventStore and retryInterval to each session's transport", async () => {
    const stored: unknown[] = [];
    const eventStore: EventStore = {
      storeEvent: (_stream, message) => {
        stored.push(message);
        return Promise.resolve(String(stored.length));
      },
      replayEventsAfter: () => Promise.resolve('stream'),
    };
    const { served } = await start({ eventStore, retryInterval: 1234 });
    const response = await post(served.url('/mcp'), initializeBody());
    const text = await response.text();
    expect(text).toContain('retry: 1234');
    expect(stored.length).toBeGreaterThanOrEqual(1);
  });
});

describe('session routing', () => {
  it('routes a request with Mcp-Session-Id to its session; ends it on DELETE', async () => {
    const { served, app } = await start();
    const url = served.url('/mcp?only=library');
    const id = await openSession(url);
    expect(app.sessionCount).toBe(1);
    // Another URL does not matter: the session serves what it was opened with.
    const listed = await messagesOf(await post(served.url('/mcp'), toolsList, inSession(id)));
    expect((listed[0]?.['result'] as { tools: Array<{ name: string }> }).tools.map((t) => t.name).sort()).toEqual(['find_book', 'whoami']);
    const deleted = await fetch(url, { method: 'DELETE', headers: inSession(id) });
    expect(deleted.status).toBe(200);
    expect(app.sessionCount).toBe(0);
    expect((await post(url, toolsList, inSession(id))).status).toBe(404);
  });

  it('answers 404 for an unknown session id, building nothing', async () => {
    const { served, host } = await start();
    const revision = host.revision;
    const response = await post(served.url('/mcp?benchmarks'), toolsList, inSession('no-such-session'));
    expect(response.status).toBe(404);
    expect(((await response.json()) as { error: { code: number } }).error.code).toBe(-32001);
    expect(host.report().extensions.find((e) => e.name === 'benchmarks')?.state).toBe('held');
    expect(host.revision).toBe(revision);
  });

  it('refuses a session id presented by another tenant', async () => {
    const { served } = await start({ tenant: (req) => (typeof req.headers['x-tenant'] === 'string' ? req.headers['x-tenant'] : undefined) });
    const id = await openSession(served.url('/mcp'), { 'x-tenant': 'acme' });
    expect((await post(served.url('/mcp'), toolsList, inSession(id, { 'x-tenant': 'acme' }))).status).toBe(200);
    expect((await post(served.url('/mcp'), toolsList, inSession(id, { 'x-tenant': 'globex' }))).status).toBe(404);
    expect((await post(served.url('/mcp'), toolsList, inSession(id))).status).toBe(404);
  });
});

describe('session limits', () => {
  it('answers 503 with a JSON-RPC error at the cap instead of growing, and admits again after a DELETE', async () => {
    const { served, app } = await start({ sessions: { max: 2 } });
    const url = served.url('/mcp');
    const first = await openSession(url);
    await openSession(url);
    const refused = await post(url, initializeBody(7));
    expect(refused.status).toBe(503);
    const body = (await refused.json()) as { id: number; error: { message: string } };
    expect(body.id).toBe(7);
    expect(body.error.message).toMatch(/maximum of 2 sessions/);
    expect(app.sessionCount).toBe(2);
    await fetch(url, { method: 'DELETE', headers: inSession(first) });
    await openSession(url);
    expect(app.sessionCount).toBe(2);
  });

  it('closes a session idle past idleTimeoutMs', async () => {
    let evicted!: () => void;
    const idled = new Promise<void>((resolve) => (evicted = resolve));
    const logger: Logger = {
      ...silentLogger,
      info: (_obj: object | string, msg?: string) => {
        if (typeof msg === 'string' && msg.includes('idle')) evicted();
      },
      child: () => logger,
    };
    const { served, app } = await start({ sessions: { idleTimeoutMs: 20 }, logger });
    const id = await openSession(served.url('/mcp'));
    await idled;
    expect(app.sessionCount).toBe(0);
    expect((await post(served.url('/mcp'), toolsList, inSession(id))).status).toBe(404);
  });

  it('closes every session on close(); later requests are refused with 503', async () => {
    const { served, app } = await start();
    const id = await openSession(served.url('/mcp'));
    await app.close();
    expect(app.sessionCount).toBe(0);
    expect((await post(served.url('/mcp'), toolsList, inSession(id))).status).toBe(503);
  });
});

describe('stateless mode (sessions: false)', () => {
  it.each(CLIENT_KINDS)('serves %s with a fresh server per request and no session', async (kind) => {
    const { served, app } = await start({ sessions: false });
    const client = await connectClient(kind, served.url('/mcp?library'));
    try {
      expect(client.sessionId()).toBeUndefined();
      expect((await client.toolNames()).sort()).toEqual(['find_book', 'list_spaces', 'whoami']);
      const who = jsonOf<WhoAmI>(await client.callTool('whoami'));
      expect(who.sessionId).toBeNull();
      expect(app.sessionCount).toBe(0);
    } finally {
      await client.close();
    }
  });

  it('answers a session id with 404 (there are none)', async () => {
    const { served } = await start({ sessions: false });
    expect((await post(served.url('/mcp'), toolsList, inSession('anything'))).status).toBe(404);
  });
});
