/**
 * Task records in Redis (`RedisTaskStore`), on a real `redis-server`, with two
 * stores on two connections standing for two replicas:
 *
 * - a task is read only by its owner, from any replica; another owner's
 *   get, answer and cancel answer as if it did not exist, and change nothing;
 * - the caps per owner and in total hold even when replicas create at once;
 * - a cancel or an answer made on one replica reaches the watchers of the
 *   replica running the task; a terminal task never changes again;
 * - after the TTL, nothing is left under the prefix (SCAN);
 * - a task whose node's heartbeat is gone becomes `failed`, naming the node;
 * - a replica restarted under the same node id (its heartbeat alive again)
 *   fails the unfinished tasks its former process ran, saying it restarted.
 */
import { randomUUID } from 'node:crypto';
import { createClient } from '@redis/client';
import { silentLogger, type TaskRecord } from '@reactor/host';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { RedisServerEventBus } from '../src/eventBus.js';
import type { RedisConnection } from '../src/eventStore.js';
import { nodeHeartbeatKey } from '../src/keys.js';
import { RedisTaskStore } from '../src/taskStore.js';
import { startRedis, type TestRedis } from './helpers/redisServer.js';

let redis: TestRedis;
const clients: RedisConnection[] = [];
const closers: Array<() => Promise<void>> = [];

beforeAll(async () => {
  redis = await startRedis();
});

afterAll(async () => {
  for (const close of closers.reverse()) await close();
  for (const client of clients) await client.close();
  await redis?.stop();
});

/** A replica's store on a connection of its own, hearing the others through a bus. */
async function replica(nodeId: string, prefix: string, options: { reapIntervalMs?: number } = {}): Promise<{ store: RedisTaskStore; client: RedisConnection }> {
  const client = createClient({ url: redis.url }) as RedisConnection;
  await client.connect();
  clients.push(client);
  const bus = await RedisServerEventBus.connect(client, { logger: silentLogger, keyPrefix: prefix });
  const store = new RedisTaskStore(client, { nodeId, keyPrefix: prefix, logger: silentLogger, ...options });
  await store.start((channel, onMessage, onReconnect) => bus.listen(channel, onMessage, onReconnect));
  closers.push(async () => {
    await store.close();
    await bus.close();
  });
  return { store, client };
}

function task(owner: string, fields: Partial<TaskRecord> = {}): TaskRecord {
  const now = Date.now();
  const ttlMs = fields.ttlMs ?? 60_000;
  return { taskId: randomUUID(), owner, status: 'working', createdAt: now, lastUpdatedAt: now, ttlMs, expiresAt: now + ttlMs, pollIntervalMs: 500, ...fields };
}

const LIMITS = { perOwner: 100, total: 10_000 };

/** Every key under `prefix` (SCAN, as an operator would look). */
async function keysUnder(client: RedisConnection, prefix: string): Promise<string[]> {
  const keys: string[] = [];
  for await (const batch of client.scanIterator({ MATCH: `${prefix}:*`, COUNT: 100 })) keys.push(...batch);
  return keys;
}

describe('RedisTaskStore: owners', () => {
  it('answers a task to its owner on any replica, and to no one else: another owner cannot get, answer or cancel it', async () => {
    const prefix = `owners-${randomUUID()}`;
    const [a, b] = [await replica('node-a', prefix), await replica('node-b', prefix)];
    const record = task('alice', { status: 'input_required', inputRequests: { q1: { method: 'elicitation/create' } } });
    expect(await a.store.create(record, LIMITS)).toEqual({ ok: true });

    expect(await b.store.get(record.taskId, 'alice')).toMatchObject({ taskId: record.taskId, status: 'input_required', node: 'node-a' });
    expect(await b.store.get(record.taskId, 'mallory')).toBeUndefined();
    expect(await b.store.answer(record.taskId, 'mallory', { q1: { action: 'accept' } })).toBeUndefined();
    expect(await b.store.cancel(record.taskId, 'mallory')).toBeUndefined();
    // Untouched by any of it.
    expect(await a.store.get(record.taskId, 'alice')).toMatchObject({ status: 'input_required', inputRequests: { q1: { method: 'elicitation/create' } } });
    expect(await a.store.get('not-a-task', 'alice')).toBeUndefined();
    expect(await a.store.get('../../etc/passwd\n', 'alice')).toBeUndefined();
  });
});

describe('RedisTaskStore: caps', () => {
  it('refuses past the per-owner cap and the total cap, exactly, while two replicas create at once', async () => {
    const prefix = `caps-${randomUUID()}`;
    const [a, b] = [await replica('node-a', prefix), await replica('node-b', prefix)];
    const perOwner = { perOwner: 5, total: 12 };
    const outcomes = await Promise.all(Array.from({ length: 20 }, (_, i) => (i % 2 ? a : b).store.create(task('alice'), perOwner)));
    expect(outcomes.filter((o) => o.ok)).toHaveLength(5);
    expect(outcomes.filter((o) => !o.ok)[0]).toEqual({ ok: false, limit: 'owner', count: 5 });

    // Others' tasks fill the total: 5 + 7 = 12, then nobody gets one.
    const more = await Promise.all(Array.from({ length: 10 }, (_, i) => (i % 2 ? a : b).store.create(task(`user-${i}`), perOwner)));
    expect(more.filter((o) => o.ok)).toHaveLength(7);
    expect(more.filter((o) => !o.ok)[0]).toEqual({ ok: false, limit: 'total', count: 12 });
    expect(await a.store.counts()).toEqual({ total: 12, active: 12 });
  });
});

describe('RedisTaskStore: changes reach the replica running the task', () => {
  it('tells the running replica of a cancel made on another; a cancelled task then stays cancelled', async () => {
    const prefix = `cancel-${randomUUID()}`;
    const [a, b] = [await replica('node-a', prefix), await replica('node-b', prefix)];
    const record = task('alice');
    await a.store.create(record, LIMITS);
    const seen = new Promise<TaskRecord>((resolve) => a.store.watch(record.taskId, (r) => r.status === 'cancelled' && resolve(r)));

    expect(await b.store.cancel(record.taskId, 'alice')).toMatchObject({ status: 'cancelled' });
    expect(await seen).toMatchObject({ taskId: record.taskId, status: 'cancelled', statusMessage: expect.stringContaining('tasks/cancel') });
    // The work finishing afterwards does not undo it.
    expect(await a.store.update(record.taskId, { status: 'completed', result: { content: [] } })).toMatchObject({ status: 'cancelled' });
    expect(await b.store.get(record.taskId, 'alice')).toMatchObject({ status: 'cancelled' });
    expect((await b.store.get(record.taskId, 'alice'))?.result).toBeUndefined();
    expect(await a.store.counts()).toEqual({ total: 1, active: 0 });
  });

  it('takes answers for outstanding input requests only, tells the running replica, and refuses a task not waiting for input', async () => {
    const prefix = `answer-${randomUUID()}`;
    const [a, b] = [await replica('node-a', prefix), await replica('node-b', prefix)];
    const record = task('alice');
    await a.store.create(record, LIMITS);
    expect(await b.store.answer(record.taskId, 'alice', { q1: 'early' })).toMatchObject({ outcome: 'not-waiting', record: { status: 'working' } });

    await a.store.update(record.taskId, { status: 'input_required', inputRequests: { q1: { method: 'elicitation/create' }, q2: { method: 'elicitation/create' } } });
    const answered = new Promise<TaskRecord>((resolve) => a.store.watch(record.taskId, (r) => r.inputResponses !== undefined && resolve(r)));
    const answer = await b.store.answer(record.taskId, 'alice', { q1: { action: 'accept' }, never: 'issued' });
    expect(answer).toMatchObject({ outcome: 'accepted', record: { inputRequests: { q2: {} }, inputResponses: { q1: { action: 'accept' } } } });
    const heard = await answered;
    expect(heard.inputResponses).toEqual({ q1: { action: 'accept' } });
    expect(Object.keys(heard.inputRequests ?? {})).toEqual(['q2']);

    // Completed: input fields are dropped, the result kept, for any replica to read.
    const done = await a.store.update(record.taskId, { status: 'completed', result: { content: [{ type: 'text', text: 'done' }] } });
    expect(done).toMatchObject({ status: 'completed', result: { content: [{ type: 'text', text: 'done' }] } });
    expect(done?.inputRequests).toBeUndefined();
    expect(await b.store.get(record.taskId, 'alice')).toEqual(done);
  });
});

describe('RedisTaskStore: TTL', () => {
  it('leaves nothing under the prefix once every task has expired: records, owner and node sets, counts', async () => {
    const prefix = `ttl-${randomUUID()}`;
    const [a, b] = [await replica('node-a', prefix), await replica('node-b', prefix)];
    await a.store.create(task('alice', { ttlMs: 400 }), LIMITS);
    await b.store.create(task('bob', { ttlMs: 600 }), LIMITS);
    const finished = task('alice', { ttlMs: 500 });
    await a.store.create(finished, LIMITS);
    await a.store.update(finished.taskId, { status: 'completed', result: { content: [] } });
    expect((await keysUnder(a.client, prefix)).length).toBeGreaterThan(5);

    await vi.waitFor(async () => expect(await keysUnder(a.client, prefix)).toEqual([]), { timeout: 5_000, interval: 100 });
    expect(await a.store.counts()).toEqual({ total: 0, active: 0 });
  });
});

describe('RedisTaskStore: a replica that stops', () => {
  it('fails the unfinished tasks of a node whose heartbeat is gone, naming it; leaves a live node\'s and finished ones alone', async () => {
    const prefix = `reap-${randomUUID()}`;
    // A long interval: the test runs the reaper itself.
    const [a, b] = [await replica('node-a', prefix, { reapIntervalMs: 60_000 }), await replica('node-b', prefix, { reapIntervalMs: 60_000 })];
    await a.client.set(nodeHeartbeatKey(prefix, 'node-a'), '{}', { expiration: { type: 'PX', value: 60_000 } });
    const running = task('alice');
    const waiting = task('alice');
    const finished = task('alice');
    for (const t of [running, waiting, finished]) await a.store.create(t, LIMITS);
    await a.store.update(waiting.taskId, { status: 'input_required', inputRequests: { q1: {} } });
    await a.store.update(finished.taskId, { status: 'completed', result: { content: [] } });

    // node-a is alive: nothing happens.
    await b.store.reap();
    expect(await b.store.get(running.taskId, 'alice')).toMatchObject({ status: 'working' });

    // node-a stops (its heartbeat expires, here deleted): node-b fails its unfinished tasks, and says why.
    const heard = new Promise<TaskRecord>((resolve) => b.store.watch(running.taskId, resolve));
    await a.client.del(nodeHeartbeatKey(prefix, 'node-a'));
    await b.store.reap();
    const failed = await b.store.get(running.taskId, 'alice');
    expect(failed).toMatchObject({ status: 'failed', statusMessage: 'the replica node-a running this task stopped (no heartbeat for 180 s); run it again', error: { code: -32603 } });
    expect(await heard).toMatchObject({ status: 'failed' });
    expect(await b.store.get(waiting.taskId, 'alice')).toMatchObject({ status: 'failed' });
    expect((await b.store.get(waiting.taskId, 'alice'))?.inputRequests).toBeUndefined();
    expect(await b.store.get(finished.taskId, 'alice')).toMatchObject({ status: 'completed' });
    expect(await b.store.counts()).toEqual({ total: 3, active: 0 });
    // node-a's late completion does not revive it.
    expect(await a.store.update(running.taskId, { status: 'completed', result: { content: [] } })).toMatchObject({ status: 'failed' });
  });

  it('runs a retry-safe task again on a live replica that reclaims it (working, recorded as its own); fails the others', async () => {
    const prefix = `reclaim-${randomUUID()}`;
    const [a, b] = [await replica('node-a', prefix, { reapIntervalMs: 60_000 }), await replica('node-b', prefix, { reapIntervalMs: 60_000 })];
    const safe = task('alice', { origin: { retrySafe: true, call: { name: 'index_space' } } });
    const unsafe = task('alice', { origin: { call: { name: 'send_mail' } } });
    for (const t of [safe, unsafe]) await a.store.create(t, LIMITS);
    const reclaimed: TaskRecord[] = [];
    b.store.onReclaim((record) => reclaimed.push(record));

    await b.store.reap(); // node-a never had a heartbeat: it is gone
    expect(reclaimed).toEqual([expect.objectContaining({ taskId: safe.taskId, status: 'working', node: 'node-b', origin: safe.origin })]);
    expect(await a.store.get(safe.taskId, 'alice')).toMatchObject({ status: 'working', node: 'node-b', statusMessage: 'the replica node-a running this task stopped; running it again on node-b' });
    expect(await a.store.get(unsafe.taskId, 'alice')).toMatchObject({ status: 'failed' });
    // node-b's run settles it; a second pass finds nothing to do.
    expect(await b.store.update(safe.taskId, { status: 'completed', result: { content: [] } })).toMatchObject({ status: 'completed', node: 'node-b' });
    await b.store.reap();
    expect(reclaimed).toHaveLength(1);
    expect(await b.store.counts()).toEqual({ total: 2, active: 0 });
  });

  it('a replica restarted under the same node id fails the unfinished tasks of its former process (its heartbeat is alive, its runs are not), and only those', async () => {
    const prefix = `restart-${randomUUID()}`;
    const before = await replica('node-a', prefix, { reapIntervalMs: 60_000 });
    const running = task('alice');
    const waiting = task('alice', { status: 'input_required', inputRequests: { '1.confirm': { method: 'elicitation/create' } } });
    const finished = task('alice');
    for (const t of [running, waiting, finished]) await before.store.create(t, LIMITS);
    await before.store.update(finished.taskId, { status: 'completed', result: { content: [] } });
    // node-a's heartbeat stays alive throughout (the restarted process renews it at once): only the boot tells.
    await before.client.set(nodeHeartbeatKey(prefix, 'node-a'), '1', { PX: 60_000 });

    // The restart: a new process (a new store, a new boot) under the same node id. Its start settles the former runs.
    const after = await replica('node-a', prefix, { reapIntervalMs: 60_000 });
    const message = 'the replica node-a running this task restarted, and the run ended with its former process; run it again';
    expect(await after.store.get(running.taskId, 'alice')).toMatchObject({ status: 'failed', statusMessage: message, error: { code: -32603, message } });
    const failedWaiting = await after.store.get(waiting.taskId, 'alice');
    expect(failedWaiting).toMatchObject({ status: 'failed', statusMessage: message });
    expect(failedWaiting?.inputRequests).toBeUndefined();
    expect(await after.store.get(finished.taskId, 'alice')).toMatchObject({ status: 'completed' });
    expect(after.store.bootId).not.toBe(before.store.bootId);

    // The new process's own task is alive: later passes (and another replica's reaper, the heartbeat being there) leave it be.
    const fresh = task('alice');
    await after.store.create(fresh, LIMITS);
    await after.store.reap();
    const other = await replica('node-b', prefix, { reapIntervalMs: 60_000 });
    await other.store.reap();
    expect(await after.store.get(fresh.taskId, 'alice')).toMatchObject({ status: 'working' });
    expect(await after.store.counts()).toEqual({ total: 4, active: 1 });
  });
});
