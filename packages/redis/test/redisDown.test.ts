/**
 * Redis going away and coming back, on one replica: 2026-07-28 requests are
 * served throughout, `/healthz` says `degraded` but stays 200, and after the
 * reconnect local listen streams are told every list changed (pub/sub lost
 * whatever was published meanwhile).
 */
import { afterAll, expect, it, vi } from 'vitest';
import { startRedis, type TestRedis } from './helpers/redisServer.js';
import { openSession, post, post2026, startNode, type TestNode } from './helpers/nodes.js';
import { readSse } from './helpers/sse.js';

let redis: TestRedis | undefined;
let node: TestNode | undefined;
afterAll(async () => {
  await node?.close();
  await redis?.stop();
});

async function healthz(): Promise<{ status: number; body: { degraded: boolean; checks?: Record<string, { ok: boolean }> } }> {
  const response = await fetch(new URL('/healthz', node!.url));
  return { status: response.status, body: (await response.json()) as { degraded: boolean; checks?: Record<string, { ok: boolean }> } };
}

it('serves 2026-07-28 requests while Redis is down, reports degraded with 200, and re-lists after the reconnect', async () => {
  redis = await startRedis();
  node = await startNode('node-a', redis.url, 'down');
  expect(await healthz()).toMatchObject({ status: 200, body: { degraded: false, checks: { redis: { ok: true } } } });
  const listen = await post2026(node.url, 1, 'subscriptions/listen', { notifications: { toolsListChanged: true } });
  const stream = readSse(listen);
  expect((await stream.next()).message['method']).toBe('notifications/subscriptions/acknowledged');

  const port = redis.port;
  await redis.stop();
  await vi.waitFor(async () => expect((await healthz()).body.degraded).toBe(true), { timeout: 10_000 });
  expect(await healthz()).toMatchObject({ status: 200, body: { degraded: true, checks: { redis: { ok: false } } } });
  const listed = await post2026(node.url, 2, 'tools/list', {});
  expect(listed.status).toBe(200);
  expect(await listed.text()).toContain('"ping"');
  // A 2025 session opened meanwhile is served by this replica alone (its record could not be written).
  const session = await openSession(node.url);
  const called = await post(node.url, { jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'ping', arguments: {} } }, session);
  expect(await called.text()).toContain('pong');
  // A session it does not hold cannot be looked up: 404, as without Redis.
  const unknown = await post(node.url, { jsonrpc: '2.0', id: 4, method: 'tools/list' }, { ...session, 'mcp-session-id': '00000000-0000-4000-8000-000000000000' });
  expect(unknown.status).toBe(404);
  await unknown.text();
  // A change while Redis is down still reaches this replica's own listen streams.
  await node.host.disable('guard');
  expect((await stream.next()).message['method']).toBe('notifications/tools/list_changed');

  redis = await startRedis(port);
  expect((await stream.next()).message['method']).toBe('notifications/tools/list_changed'); // told after the reconnect
  await vi.waitFor(async () => expect((await healthz()).body.degraded).toBe(false), { timeout: 10_000 });
  stream.close();
});
