/**
 * Two replicas ("nodes") in one process, sharing one real Redis: what one
 * node stores or publishes, the other can replay or hears.
 */
import { createClient } from '@redis/client';
import type { JSONRPCMessage } from '@modelcontextprotocol/server';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { startRedis, type TestRedis } from './helpers/redisServer.js';
import { openGetStream, openSession, post, post2026, startNode, type TestNode } from './helpers/nodes.js';
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

/** Two nodes on a key prefix of their own, so tests never see each other's keys. */
async function twoNodes(): Promise<{ a: TestNode; b: TestNode; prefix: string }> {
  const prefix = `test${++run}`;
  const a = await startNode('node-a', redis.url, prefix);
  const b = await startNode('node-b', redis.url, prefix);
  nodes.push(a, b);
  return { a, b, prefix };
}

/** Subscribes a 2025 session to `uri`, reading the answer whole. */
async function subscribe(node: TestNode, session: Record<string, string>, id: number, uri: string): Promise<void> {
  const response = await post(node.url, { jsonrpc: '2.0', id, method: 'resources/subscribe', params: { uri } }, session);
  const body = await response.text();
  expect(response.status, body).toBe(200);
  expect(body).toContain('"result"');
}

/** The URI a stored `notifications/resources/updated` names. */
const uriOf = (message: JSONRPCMessage) => ('params' in message ? (message.params as { uri: string }).uri : undefined);

const resourceUpdated = (event: SseEvent) => (event.message['params'] as { uri: string }).uri;

describe('a GET stream of a 2025 session', () => {
  it('resumes from Last-Event-ID with exactly the missed events, in order — read back through the other node’s store', async () => {
    const { a, b } = await twoNodes();
    const session = await openSession(a.url);
    const sessionId = session['mcp-session-id']!;
    for (const [id, uri] of [[2, 'test://a'], [3, 'test://b'], [4, 'test://c'], [5, 'test://d']] as const) await subscribe(a, session, id, uri);
    const get = await openGetStream(a, session, () => a.host.notifyResourceUpdated('test://a'));
    expect(get.status).toBe(200);
    expect(get.headers.get('x-reactor-node')).toBe('node-a');
    const stream = readSse(get);
    // Read up to a marker event: everything up to it reached the client.
    await a.host.notifyResourceUpdated('test://b');
    let seen: SseEvent;
    do seen = await stream.next();
    while (resourceUpdated(seen) !== 'test://b');
    expect(seen.id?.startsWith(`${sessionId}/`)).toBe(true);
    stream.close();

    // Missed while disconnected: stored all the same (notifyResourceUpdated waits for the store).
    await a.host.notifyResourceUpdated('test://c');
    await a.host.notifyResourceUpdated('test://d');

    const replayed: Array<[string, JSONRPCMessage]> = [];
    const onB = b.redis.eventStore.forSession(sessionId);
    const streamId = await onB.replayEventsAfter(seen.id!, { send: (id, message) => Promise.resolve(void replayed.push([id, message])) });
    expect(streamId).toBe(await onB.getStreamIdForEventId?.(seen.id!));
    expect(replayed.map(([, m]) => uriOf(m))).toEqual(['test://c', 'test://d']);
    expect(new Set(replayed.map(([id]) => id)).size).toBe(2);

    // The same replay over HTTP, on the node holding the session: same events, same ids.
    const resumed = await fetch(a.url, { headers: { ...session, accept: 'text/event-stream', 'last-event-id': seen.id! } });
    expect(resumed.status).toBe(200);
    const again = readSse(resumed);
    const overHttp = [await again.next(), await again.next()];
    again.close();
    expect(overHttp.map((e) => [e.id, resourceUpdated(e)])).toEqual(replayed.map(([id, m]) => [id, uriOf(m)]));
  });

  it('resolves an event id of another session to nothing, on either node', async () => {
    const { a, b } = await twoNodes();
    const first = await openSession(a.url);
    const second = await openSession(b.url);
    await subscribe(a, first, 2, 'test://a');
    const stream = readSse(await openGetStream(a, first, () => a.host.notifyResourceUpdated('test://a')));
    const { id } = await stream.next();
    stream.close();

    const foreign = b.redis.eventStore.forSession(second['mcp-session-id']!);
    expect(await foreign.getStreamIdForEventId?.(id!)).toBeUndefined();
    await expect(foreign.replayEventsAfter(id!, { send: () => Promise.resolve() })).rejects.toThrow(/names no stored event/);
    // Disguised as the other session's: the entry is not in its stream.
    const disguised = `${second['mcp-session-id']!}${id!.slice(first['mcp-session-id']!.length)}`;
    expect(await foreign.getStreamIdForEventId?.(disguised)).toBeUndefined();
    const refused = await fetch(b.url, { headers: { ...second, accept: 'text/event-stream', 'last-event-id': disguised } });
    expect(refused.status).toBe(400);
    await refused.body?.cancel();
  });
});

describe('change events', () => {
  it('host.disable() on node A reaches a 2026-07-28 listen stream on node B', async () => {
    const { a, b } = await twoNodes();
    const listen = await post2026(b.url, 7, 'subscriptions/listen', { notifications: { toolsListChanged: true } });
    expect(listen.status).toBe(200);
    const stream = readSse(listen);
    expect((await stream.next()).message['method']).toBe('notifications/subscriptions/acknowledged');
    await a.host.disable('guard');
    expect((await stream.next()).message['method']).toBe('notifications/tools/list_changed');
    stream.close();
  });
  it('host.notifyResourceUpdated() on node A reaches a 2025 session on node B subscribed to that resource, once, in order', async () => {
    const { a, b } = await twoNodes();
    const onB = await openSession(b.url);
    for (const [id, uri] of [[2, 'test://a'], [3, 'test://b'], [4, 'test://c']] as const) await subscribe(b, onB, id, uri);
    const getB = await openGetStream(b, onB, () => b.host.notifyResourceUpdated('test://c'));
    expect(getB.status).toBe(200);
    const stream = readSse(getB);
    // Node A holds no session subscribed to it: it tells none itself; node B's hears it through Redis.
    expect(await a.host.notifyResourceUpdated('test://a')).toBe(0);
    await a.host.notifyResourceUpdated('test://b');
    const heard: string[] = [];
    while (heard.at(-1) !== 'test://b') {
      const event = await stream.next();
      expect(event.message['method']).toBe('notifications/resources/updated');
      if (resourceUpdated(event) !== 'test://c') heard.push(resourceUpdated(event));
    }
    expect(heard).toEqual(['test://a', 'test://b']);
    stream.close();
  });
});

describe('enable and disable', () => {
  /** The tools node `node` serves a 2026-07-28 client now. */
  async function toolsOn(node: TestNode): Promise<string[]> {
    const listed = (await (await post2026(node.url, 20, 'tools/list', {})).json()) as { result: { tools: Array<{ name: string }> } };
    return listed.result.tools.map((t) => t.name);
  }

  it('host.disable() on node A disables the extension on node B, on a node started later, and enable on B re-enables it on A', async () => {
    const { a, b, prefix } = await twoNodes();
    expect(await toolsOn(b)).toContain('guarded');
    await a.host.disable('guard');
    await vi.waitFor(async () => expect(await toolsOn(b)).not.toContain('guarded'), { timeout: 10_000, interval: 50 });
    expect(b.host.report().extensions.find((e) => e.name === 'guard')?.state).toBe('disabled');
    const health = (await (await fetch(new URL('/healthz', b.url))).json()) as { checks: { redis: { ok: boolean; detail?: string } } };
    expect(health.checks.redis).toEqual({ ok: true, detail: 'cluster revision 1' });

    // A replica that starts now reads the cluster's state at boot.
    const c = await startNode('node-c', redis.url, prefix);
    nodes.push(c);
    expect(await toolsOn(c)).not.toContain('guarded');

    await b.host.enable('guard');
    await vi.waitFor(async () => expect(await toolsOn(a)).toContain('guarded'), { timeout: 10_000, interval: 50 });
    await vi.waitFor(async () => expect(await toolsOn(c)).toContain('guarded'), { timeout: 10_000, interval: 50 });
    expect(await inspector.sMembers(`${prefix}:extensions:disabled`)).toEqual([]);
    expect(await inspector.get(`${prefix}:extensions:revision`)).toBe('2');
  });
});

describe('keys', () => {
  it('are set to expire with the session idle timeout, and none is left after DELETE', async () => {
    const { a, prefix } = await twoNodes();
    const session = await openSession(a.url);
    await subscribe(a, session, 2, 'test://a');
    await a.host.notifyResourceUpdated('test://a'); // stored though no GET stream is open
    const keys = [a.redis.eventStore.keyOf(session['mcp-session-id']!), a.redis.sessions.keyOf(session['mcp-session-id']!)];
    // The session's events and its registry record; besides them only the nodes' heartbeats.
    expect((await inspector.keys(`${prefix}:session:*`)).sort()).toEqual(keys.sort());
    for (const key of keys) {
      const ttl = await inspector.pTTL(key);
      expect(ttl).toBeGreaterThan(0);
      expect(ttl).toBeLessThanOrEqual(60_000);
    }

    const deleted = await fetch(a.url, { method: 'DELETE', headers: session });
    expect(deleted.status).toBe(200);
    await vi.waitFor(async () => expect(await inspector.keys(`${prefix}:session:*`)).toEqual([]), { timeout: 10_000, interval: 50 });
    // And once the nodes shut down, nothing at all (no extension was toggled, so no cluster state either).
    await Promise.all(nodes.map((n) => n.close()));
    nodes = [];
    expect(await inspector.keys(`${prefix}:*`)).toEqual([]);
  });
});
