/**
 * What a session's event stream costs in Redis: only what a client can still
 * ask to replay — the last `maxEventsPerSession` events (default 100), none
 * older than `maxEventAgeMs` (default five minutes) — trimmed on every write,
 * not a thousand responses per session. On a real `redis-server`.
 */
import type { JSONRPCMessage } from '@modelcontextprotocol/server';
import { createClient } from '@redis/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_EVENT_REPLAY_MAX, RedisEventStore, type RedisConnection } from '../src/eventStore.js';
import { startRedis, type TestRedis } from './helpers/redisServer.js';

let redis: TestRedis;
let client: RedisConnection;

beforeAll(async () => {
  redis = await startRedis();
  client = createClient({ url: redis.url });
  await client.connect();
});

afterAll(async () => {
  await client?.close();
  await redis?.stop();
});

const response = (id: number): JSONRPCMessage => ({ jsonrpc: '2.0', id, result: { content: [{ type: 'text', text: `answer ${id}` }] } });

describe('RedisEventStore: the replay window', () => {
  it(`keeps the last ${DEFAULT_EVENT_REPLAY_MAX} events of a busy session by default, exactly, and still replays after any of them`, async () => {
    const store = new RedisEventStore(client, { ttlMs: 60_000, keyPrefix: 'count-test' });
    const session = store.forSession('session-a');
    const ids: string[] = [];
    for (let i = 0; i < 250; i++) ids.push(await session.storeEvent('stream-1', response(i)));
    expect(await client.xLen(store.keyOf('session-a'))).toBe(DEFAULT_EVENT_REPLAY_MAX);

    // The oldest kept event still resumes: everything after it comes back, in order.
    const replayed: number[] = [];
    const oldestKept = ids[250 - DEFAULT_EVENT_REPLAY_MAX]!;
    await session.replayEventsAfter(oldestKept, { send: (_id, message) => Promise.resolve(void replayed.push((message as { id: number }).id)) });
    expect(replayed).toEqual(Array.from({ length: DEFAULT_EVENT_REPLAY_MAX - 1 }, (_, i) => 250 - DEFAULT_EVENT_REPLAY_MAX + 1 + i));
    // A trimmed one names nothing.
    expect(await session.getStreamIdForEventId!(ids[0]!)).toBeUndefined();
  });

  it('drops events older than maxEventAgeMs on the next write, and takes its count from maxEventsPerSession', async () => {
    const store = new RedisEventStore(client, { ttlMs: 60_000, keyPrefix: 'age-test', maxEventsPerSession: 10, maxEventAgeMs: 60_000 });
    const session = store.forSession('session-b');
    const key = store.keyOf('session-b');
    // Five events stored two minutes ago (Redis entry ids start with their time in ms).
    const twoMinutesAgo = Date.now() - 120_000;
    for (let i = 0; i < 5; i++) await client.xAdd(key, `${twoMinutesAgo}-${i}`, { stream: 'stream-1', message: JSON.stringify(response(i)) });
    await session.storeEvent('stream-1', response(5));
    const left = (await client.xRange(key, '-', '+')) ?? [];
    expect(left.map((e) => (JSON.parse(String(e.message['message'])) as { id: number }).id)).toEqual([5]);
    for (let i = 0; i < 30; i++) await session.storeEvent('stream-1', response(10 + i));
    expect(await client.xLen(store.keyOf('session-b'))).toBe(10);
  });

  it('refuses a window that keeps nothing', () => {
    expect(() => new RedisEventStore(client, { ttlMs: 1, maxEventsPerSession: 0 })).toThrow(/maxEventsPerSession/);
    expect(() => new RedisEventStore(client, { ttlMs: 1, maxEventAgeMs: 0 })).toThrow(/maxEventAgeMs/);
  });
});
