/**
 * The in-memory task store keeps the rules every TaskStore keeps: records are
 * the owner's alone, terminal records are final, cancel settles at once,
 * answers only fill outstanding keys, watchers hear every change, caps refuse,
 * and a record is gone after its TTL.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { createMemoryTaskStore } from './memoryTaskStore.js';
import type { TaskRecord, TaskStore } from './taskStore.js';

const LIMITS = { perOwner: 2, total: 3 };
let clock = 1_000;
const stores: TaskStore[] = [];
afterEach(async () => {
  await Promise.all(stores.splice(0).map((s) => s.close()));
});

function newStore(): TaskStore {
  const store = createMemoryTaskStore({ now: () => clock });
  stores.push(store);
  return store;
}

function record(taskId: string, owner = 'alice', ttlMs = 60_000): TaskRecord {
  return { taskId, owner, status: 'working', createdAt: clock, lastUpdatedAt: clock, ttlMs, expiresAt: clock + ttlMs, pollIntervalMs: 1000 };
}

describe('createMemoryTaskStore', () => {
  it('answers a task to its owner only', async () => {
    const store = newStore();
    expect(await store.create(record('t1'), LIMITS)).toEqual({ ok: true });
    expect((await store.get('t1', 'alice'))?.status).toBe('working');
    expect(await store.get('t1', 'mallory')).toBeUndefined();
    expect(await store.cancel('t1', 'mallory')).toBeUndefined();
    expect(await store.answer('t1', 'mallory', { k: {} })).toBeUndefined();
    expect((await store.get('t1', 'alice'))?.status).toBe('working');
  });

  it('refuses past the per-owner and total caps, naming which', async () => {
    const store = newStore();
    await store.create(record('a1'), LIMITS);
    await store.create(record('a2'), LIMITS);
    expect(await store.create(record('a3'), LIMITS)).toEqual({ ok: false, limit: 'owner', count: 2 });
    await store.create(record('b1', 'bob'), LIMITS);
    expect(await store.create(record('c1', 'carol'), LIMITS)).toEqual({ ok: false, limit: 'total', count: 3 });
    expect(await store.counts()).toEqual({ total: 3, active: 3 });
  });

  it('forgets a task after its TTL', async () => {
    const store = newStore();
    await store.create(record('t1', 'alice', 5_000), LIMITS);
    clock += 4_999;
    expect(await store.get('t1', 'alice')).toBeDefined();
    clock += 1;
    expect(await store.get('t1', 'alice')).toBeUndefined();
    expect(await store.counts()).toEqual({ total: 0, active: 0 });
  });

  it('keeps a terminal record final, and cancel settles a running one at once', async () => {
    const store = newStore();
    await store.create(record('t1'), LIMITS);
    const seen: string[] = [];
    const stop = store.watch('t1', (r) => seen.push(r.status));
    expect((await store.cancel('t1', 'alice'))?.status).toBe('cancelled');
    expect((await store.update('t1', { status: 'completed', result: { content: [] } }))?.status).toBe('cancelled');
    expect((await store.cancel('t1', 'alice'))?.status).toBe('cancelled');
    stop();
    expect(seen).toEqual(['cancelled']);
  });

  it('takes answers for outstanding keys only, and refuses a task not waiting for input', async () => {
    const store = newStore();
    await store.create(record('t1'), LIMITS);
    expect((await store.answer('t1', 'alice', { a: { action: 'accept' } }))?.outcome).toBe('not-waiting');
    await store.update('t1', { status: 'input_required', inputRequests: { a: { method: 'elicitation/create' }, b: { method: 'elicitation/create' } } });
    const answered = await store.answer('t1', 'alice', { a: { action: 'accept' }, never: { action: 'accept' } });
    expect(answered?.outcome).toBe('accepted');
    expect(Object.keys(answered!.record.inputRequests!)).toEqual(['b']);
    expect(Object.keys(answered!.record.inputResponses!)).toEqual(['a']);
    const done = await store.update('t1', { status: 'completed', result: { content: [] }, inputResponses: null });
    expect(done).toMatchObject({ status: 'completed', result: { content: [] } });
    expect(done?.inputRequests).toBeUndefined();
  });
});
