/**
 * Session takeover: two replicas on one real Redis. A 2025 session opened on
 * node A keeps working when its requests start reaching node B — once A is
 * gone — under the same `Mcp-Session-Id`, with a real SDK client that never
 * sends a second `initialize`. Nobody else gets the session, and nobody takes
 * it from a node that is alive.
 */
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { createClient } from '@redis/client';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { startRedis, type TestRedis } from './helpers/redisServer.js';
import { openGetStream, openSession, post, startNode, type TestNode } from './helpers/nodes.js';
import { readSse, type SseEvent } from './helpers/sse.js';

let redis: TestRedis;
let inspector: ReturnType<typeof createClient>;
let nodes: TestNode[] = [];
let run = 0;

beforeAll(async () => {
  redis = await startRedis();
  inspector = createClient({ url: redis.url });
  inspector.on('error', () => undefined);
  await inspector.connect();
});
afterAll(async () => {
  await inspector?.close();
  await redis?.stop();
});
afterEach(async () => {
  await Promise.all(nodes.map((n) => n.close()));
  nodes = [];
});

/** Two replicas with a short heartbeat (a silent node is gone after 300 ms), bearer tokens optional. */
async function twoNodes(auth = false): Promise<{ a: TestNode; b: TestNode }> {
  const prefix = `takeover${++run}`;
  const a = await startNode('node-a', redis.url, prefix, { auth, heartbeatIntervalMs: 100 });
  const b = await startNode('node-b', redis.url, prefix, { auth, heartbeatIntervalMs: 100 });
  nodes.push(a, b);
  return { a, b };
}

/**
 * A real SDK client whose requests go to whichever node `route.to` names —
 * what a load balancer does when the node it used is gone. Records every
 * JSON-RPC method it sends and which node answered.
 */
async function routedClient(first: TestNode, token?: string) {
  const route = { to: first };
  const sent: string[] = [];
  const answeredBy: string[] = [];
  const routed = async (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
    const url = new URL(input instanceof Request ? input.url : input);
    const target = new URL(url.pathname + url.search, route.to.url);
    if (typeof init?.body === 'string') sent.push(...[JSON.parse(init.body) as unknown].flat().map((m) => (m as { method?: string }).method ?? 'response'));
    const response = await fetch(target, init);
    answeredBy.push(response.headers.get('x-reactor-node') ?? '?');
    return response;
  };
  const transport = new StreamableHTTPClientTransport(first.url, { fetch: routed, ...(token ? { requestInit: { headers: { authorization: `Bearer ${token}` } } } : {}) });
  const client = new Client({ name: 'takeover-test', version: '1.0.0' });
  await client.connect(transport);
  return { client, transport, route, sent, answeredBy };
}

const text = (result: unknown) => ((result as { content: Array<{ text: string }> }).content[0]?.text);

describe('a session whose node shut down', () => {
  it('is served by the other node under the same id, and the client never re-initialises', async () => {
    const { a, b } = await twoNodes();
    const { client, transport, route, sent, answeredBy } = await routedClient(a);
    const sessionId = transport.sessionId!;
    expect(text(await client.callTool({ name: 'ping', arguments: {} }))).toBe('pong');
    expect(answeredBy.at(-1)).toBe('node-a');

    await a.close(); // as on SIGTERM: its heartbeat is deleted first, so B need not wait
    nodes = [b];
    route.to = b;
    expect(text(await client.callTool({ name: 'ping', arguments: {} }))).toBe('pong');
    expect(answeredBy.at(-1)).toBe('node-b');
    expect(transport.sessionId).toBe(sessionId);
    expect(b.sessionCount).toBe(1);
    expect((await client.listTools()).tools.map((t) => t.name)).toContain('guarded');
    expect(sent.filter((m) => m === 'initialize')).toHaveLength(1);
    expect(await inspector.hGetAll(b.redis.sessions.keyOf(sessionId))).toMatchObject({ node: 'node-b', revision: '1' });
    await client.close();
  });
});

describe('a session whose node died (killed: its heartbeat just stops)', () => {
  it('is refused with 503 and Retry-After while the node is alive, and served by the other node once its heartbeat expired', async () => {
    const { a, b } = await twoNodes();
    const { client, transport, route, sent } = await routedClient(a);
    expect(text(await client.callTool({ name: 'ping', arguments: {} }))).toBe('pong');
    const session = { 'mcp-session-id': transport.sessionId!, 'mcp-protocol-version': transport.protocolVersion! };

    // A is alive: B will not take its session (the balancer moved the client, say).
    const refused = await post(b.url, { jsonrpc: '2.0', id: 90, method: 'tools/list' }, session);
    expect(refused.status).toBe(503);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(((await refused.json()) as { error: { message: string } }).error.message).toContain('node "node-a", which is alive');
    expect(b.sessionCount).toBe(0);

    await a.crash();
    await vi.waitFor(async () => expect(await inspector.exists(a.redis.sessions.heartbeatKey())).toBe(0), { timeout: 5_000, interval: 50 });
    route.to = b;
    expect(text(await client.callTool({ name: 'ping', arguments: {} }))).toBe('pong');
    expect(transport.sessionId).toBe(session['mcp-session-id']);
    expect(sent.filter((m) => m === 'initialize')).toHaveLength(1);
    await client.close();
  });
});

describe('a session taken over by a read-only replica (--read-only)', () => {
  it('serves it under this replica\'s bound: the write tool it called on the writable node is absent and refused, read-only tools still answer', async () => {
    const prefix = `takeover${++run}`;
    const a = await startNode('node-a', redis.url, prefix, { heartbeatIntervalMs: 100 });
    const b = await startNode('node-b', redis.url, prefix, { heartbeatIntervalMs: 100, readOnly: true });
    nodes.push(a, b);
    const { client, transport, route, answeredBy } = await routedClient(a);
    expect(text(await client.callTool({ name: 'ping', arguments: {} }))).toBe('pong');
    expect((await client.listTools()).tools.map((t) => t.name).sort()).toEqual(['guarded', 'peek', 'ping']);

    // A dies; the balancer sends the session to B, which the operator runs read-only.
    await a.crash();
    await vi.waitFor(async () => expect(await inspector.exists(a.redis.sessions.heartbeatKey())).toBe(0), { timeout: 5_000, interval: 50 });
    route.to = b;
    await expect(client.callTool({ name: 'ping', arguments: {} })).rejects.toThrow(/ping/);
    expect(answeredBy.at(-1)).toBe('node-b');
    expect(transport.sessionId).toBeDefined();
    expect(b.sessionCount).toBe(1);
    expect((await client.listTools()).tools.map((t) => t.name)).toEqual(['peek']);
    expect(text(await client.callTool({ name: 'peek', arguments: {} }))).toBe('peeked');
    await client.close();
  });
});

describe('takeover is for the session’s own principal', () => {
  it('answers another token 404 and leaves the session where it is; its owner gets it', async () => {
    const { a, b } = await twoNodes(true);
    const { client, transport, route } = await routedClient(a, 'alice-token');
    expect(text(await client.callTool({ name: 'ping', arguments: {} }))).toBe('pong');
    const sessionId = transport.sessionId!;
    await a.close();
    nodes = [b];

    const bob = await post(b.url, { jsonrpc: '2.0', id: 91, method: 'tools/call', params: { name: 'ping', arguments: {} } }, { 'mcp-session-id': sessionId, 'mcp-protocol-version': transport.protocolVersion!, authorization: 'Bearer bob-token' });
    expect(bob.status).toBe(404);
    await bob.text();
    expect(await inspector.hGet(b.redis.sessions.keyOf(sessionId), 'node')).toBe('node-a');
    expect(b.sessionCount).toBe(0);

    route.to = b;
    expect(text(await client.callTool({ name: 'ping', arguments: {} }))).toBe('pong');
    await client.close();
  });

  it('answers 404 for a session id that no node ever opened', async () => {
    const { b } = await twoNodes();
    const unknown = await post(b.url, { jsonrpc: '2.0', id: 92, method: 'tools/list' }, { 'mcp-session-id': '00000000-0000-4000-8000-000000000000', 'mcp-protocol-version': '2025-11-25' });
    expect(unknown.status).toBe(404);
    await unknown.text();
  });
});

describe('many requests for one moved session at once', () => {
  it('rebuild it once', async () => {
    const { a, b } = await twoNodes();
    const session = await openSession(a.url);
    await a.close();
    nodes = [b];
    const answers = await Promise.all([1, 2, 3, 4, 5].map((id) => post(b.url, { jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'ping', arguments: {} } }, session)));
    expect(answers.map((r) => r.status)).toEqual([200, 200, 200, 200, 200]);
    for (const answer of answers) expect(await answer.text()).toContain('pong');
    expect(b.sessionCount).toBe(1);
    expect(await inspector.hGet(b.redis.sessions.keyOf(session['mcp-session-id']!), 'revision')).toBe('1');
  });
});

describe('a GET stream of a moved session', () => {
  it('resumes on the new node from Last-Event-ID with exactly the events it missed, in order', async () => {
    const { a, b } = await twoNodes();
    const session = await openSession(a.url);
    for (const [id, uri] of [[2, 'test://a'], [3, 'test://b'], [4, 'test://c'], [5, 'test://d']] as const) {
      const subscribed = await post(a.url, { jsonrpc: '2.0', id, method: 'resources/subscribe', params: { uri } }, session);
      expect(await subscribed.text()).toContain('"result"');
    }
    const uriOf = (event: SseEvent) => (event.message['params'] as { uri: string }).uri;
    const stream = readSse(await openGetStream(a, session, () => a.host.notifyResourceUpdated('test://a')));
    // Read up to a marker: everything before it reached the client.
    await a.host.notifyResourceUpdated('test://d');
    let seen: SseEvent;
    do seen = await stream.next();
    while (uriOf(seen) !== 'test://d');
    stream.close();
    // Missed: stored in Redis while the client was away; then node A goes.
    await a.host.notifyResourceUpdated('test://b');
    await a.host.notifyResourceUpdated('test://c');
    await a.close();
    nodes = [b];

    const resumed = await fetch(b.url, { headers: { ...session, accept: 'text/event-stream', 'last-event-id': seen.id! } });
    expect(resumed.status).toBe(200);
    expect(resumed.headers.get('x-reactor-node')).toBe('node-b');
    const replay = readSse(resumed);
    const missed = [await replay.next(), await replay.next()];
    expect(missed.map(uriOf)).toEqual(['test://b', 'test://c']);
    expect(new Set(missed.map((e) => e.id)).size).toBe(2);
    expect(b.sessionCount).toBe(1);
    // Its subscriptions moved with it: node B's updates reach the resumed stream.
    await b.host.notifyResourceUpdated('test://c');
    expect(uriOf(await replay.next())).toBe('test://c');
    replay.close();
  });
});

describe('an idle session', () => {
  it('leaves no key behind once it idles out, on the node that took it over too', async () => {
    const prefix = `takeover${++run}`;
    const a = await startNode('node-a', redis.url, prefix, { heartbeatIntervalMs: 100, idleTimeoutMs: 1_500 });
    const b = await startNode('node-b', redis.url, prefix, { heartbeatIntervalMs: 100, idleTimeoutMs: 1_500 });
    nodes.push(a, b);
    const session = await openSession(a.url);
    await a.close();
    nodes = [b];
    const moved = await post(b.url, { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'ping', arguments: {} } }, session);
    expect(await moved.text()).toContain('pong');
    expect(await inspector.keys(`${prefix}:session:*`)).not.toEqual([]);
    // The idle timeout is 1.5 s, not less: a loaded machine may stall this process between the answer and the check above.
    // Its keys expire in Redis and the node's idle timer closes it, each on its own clock: either may come first.
    await vi.waitFor(async () => {
      expect(await inspector.keys(`${prefix}:session:*`)).toEqual([]);
      expect(b.sessionCount).toBe(0);
    }, { timeout: 10_000, interval: 50 });
  });
});
