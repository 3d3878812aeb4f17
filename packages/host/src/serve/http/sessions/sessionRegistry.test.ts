/**
 * The session registry seam, without Redis: two apps in one process share a
 * registry kept in a Map (the contract `@reactor/redis` implements), and a
 * session opened on one is taken over by the other — same id, same
 * selection, no second `initialize`.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterEach, describe, expect, it } from 'vitest';
import { buildHost, defineExtension, defineTool } from '../../../index.js';
import { captureLogger } from '../../../testing/index.js';
import { silentLogger, type Logger } from '../../../kernel/logger.js';
import { createMcpApp } from '../app.js';
import { MemoryRegistry, SharedState } from '../../../../test/helpers/memoryRegistry.js';
import { isInitializeParams, withSubscriptionChange, type SessionRecord, type SessionRegistry } from './sessionRegistry.js';

const ext = defineExtension({
  manifest: { name: 'demo', version: '1.0.0' },
  toolsets: () => [{ name: 'core' }, { name: 'extra', default: false }],
  tools: () => [
    defineTool({ name: 'ping', toolset: 'core', description: 'Ping.', handler: () => 'pong' }),
    defineTool({ name: 'more', toolset: 'extra', description: 'Only with ?extra.', handler: () => 'more' }),
  ],
});

const cleanup: Array<() => Promise<void>> = [];
afterEach(async () => {
  while (cleanup.length > 0) await cleanup.pop()!();
});

/** One replica on 127.0.0.1 with `registry`. */
async function replica(registry: SessionRegistry | (() => SessionRegistry), logger: Logger = silentLogger) {
  const host = await buildHost([ext], { logger });
  const app = createMcpApp(host, { sessionRegistry: typeof registry === 'function' ? registry() : registry, nodeId: 'n', logger });
  const server = createServer(app);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const close = async () => {
    await app.close();
    server.closeAllConnections();
    if (server.listening) await new Promise<void>((resolve) => server.close(() => resolve()));
    await host.stop();
  };
  cleanup.push(close);
  return { app, close, url: new URL(`http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`) };
}

describe('createMcpApp({ sessionRegistry })', () => {
  it('records each session, and another replica takes it over under the same id with its selection', async () => {
    const shared = new SharedState();
    const a = await replica(new MemoryRegistry('a', shared));
    const b = await replica(new MemoryRegistry('b', shared));
    const route = { to: a.url };
    const sent: string[] = [];
    const transport = new StreamableHTTPClientTransport(new URL('?extra', a.url), {
      fetch: (input, init) => {
        if (typeof init?.body === 'string') sent.push(String((JSON.parse(init.body) as { method?: string }).method));
        const url = new URL(input instanceof Request ? input.url : input);
        return fetch(new URL(url.pathname + url.search, route.to), init);
      },
    });
    const client = new Client({ name: 'seam', version: '1.0.0' });
    await client.connect(transport);
    const id = transport.sessionId!;
    expect(shared.records.get(id)).toMatchObject({ node: 'a', selection: 'toolsets=extra', toolsets: ['core', 'extra'], readOnly: false, revision: 0, initialize: { clientInfo: { name: 'seam' } } });

    // A is alive: B refuses to take the session.
    route.to = b.url;
    await expect(client.listTools()).rejects.toThrow(/503|alive/);

    await a.close();
    expect((await client.listTools()).tools.map((t) => t.name).sort()).toEqual(['more', 'ping']);
    expect(transport.sessionId).toBe(id);
    expect(b.app.sessionCount).toBe(1);
    expect(shared.records.get(id)).toMatchObject({ node: 'b', revision: 1 });
    expect(sent.filter((m) => m === 'initialize')).toHaveLength(1);

    // DELETE ends it everywhere.
    await transport.terminateSession();
    expect(shared.records.has(id)).toBe(false);
    await client.close();
  });

  it('answers 404, and logs why, when the registry cannot be asked', async () => {
    const logger = captureLogger();
    const failing = new MemoryRegistry('b', new SharedState());
    failing.claim = () => Promise.reject(new Error('connection refused'));
    const b = await replica(failing, logger);
    const answer = await fetch(b.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-session-id': 'abc', 'mcp-protocol-version': '2025-11-25' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    });
    expect(answer.status).toBe(404);
    expect(logger.entries.some((e) => e.level === 'warn' && e.msg?.includes('connection refused') === true)).toBe(true);
  });

  it('is refused at start-up when it is not a registry, or sessions are off', async () => {
    const host = await buildHost([ext], { logger: silentLogger });
    expect(() => createMcpApp(host, { sessionRegistry: { nodeId: 'x' } as unknown as SessionRegistry })).toThrow(expect.objectContaining({ code: 'REACTOR_OPTION_INVALID', message: expect.stringContaining('sessionRegistry') }));
    expect(() => createMcpApp(host, { sessions: false, sessionRegistry: new MemoryRegistry('x', new SharedState()) })).toThrow(/needs sessions/);
  });
});

describe('keeping a record current', () => {
  const record: SessionRecord = { id: 's', node: 'a', tenant: undefined, principal: undefined, selection: '', toolsets: [], denied: [], readOnly: false, initialize: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'c' } }, revision: 0 };
  const subscribe = (uri: string) => ({ jsonrpc: '2.0', id: 1, method: 'resources/subscribe', params: { uri } });

  it('adds and removes subscriptions, and says when nothing changed', () => {
    const one = withSubscriptionChange(record, subscribe('test://a'))!;
    expect(one.subscriptions).toEqual(['test://a']);
    expect(withSubscriptionChange(one, subscribe('test://a'))).toBeUndefined();
    expect(withSubscriptionChange(one, { jsonrpc: '2.0', id: 2, method: 'resources/unsubscribe', params: { uri: 'test://a' } })!.subscriptions).toEqual([]);
    expect(withSubscriptionChange(one, { jsonrpc: '2.0', id: 3, method: 'tools/list' })).toBeUndefined();
    expect(withSubscriptionChange(one, [subscribe('test://b')])).toBeUndefined();
  });

  it('replays only initialize parameters it can send again', () => {
    expect(isInitializeParams(record.initialize)).toBe(true);
    expect(isInitializeParams({ protocolVersion: '2025-11-25', capabilities: {} })).toBe(false);
    expect(isInitializeParams(undefined)).toBe(false);
  });
});
