/**
 * The fast path's answers are written together at the end of the event
 * loop's turn: after every request the turn delivered, in the order they were
 * answered, never held for long, and one that fails to write costs only its
 * own connection.
 */
import type { ServerResponse } from 'node:http';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { MAX_WAIT_MS, TurnEndWrites } from './turnEndWrites.js';

/** The next check phase, by the real `setImmediate` (taken before any test fakes the timers). */
const realSetImmediate = setImmediate;
const nextCheckPhase = () => new Promise<void>((resolve) => realSetImmediate(resolve));

/** A response the queue can destroy; what it was destroyed with. */
function response(): ServerResponse & { destroyedWith: Error[] } {
  const destroyedWith: Error[] = [];
  return { destroyedWith, destroy: (error?: Error) => void (error && destroyedWith.push(error)) } as unknown as ServerResponse & { destroyedWith: Error[] };
}

afterEach(() => {
  vi.useRealTimers();
});

describe('TurnEndWrites', () => {
  it('writes nothing during the turn, then every answer in the order it was added, in the turn’s check phase', async () => {
    const writes = new TurnEndWrites();
    const written: string[] = [];
    writes.add(response(), () => written.push('first'));
    writes.add(response(), () => written.push('second'));
    // A timer due now runs in a later turn's timers phase: after the check phase that writes.
    setTimeout(() => written.push('a timer'), 0);
    writes.add(response(), () => written.push('third'));
    expect(written).toEqual([]);
    expect(writes.size).toBe(3);

    await nextCheckPhase();
    expect(written).toEqual(['first', 'second', 'third']);
    expect(writes.size).toBe(0);
  });

  it('keeps no answer long: once the first has waited MAX_WAIT_MS, the next writes them all at once', async () => {
    const writes = new TurnEndWrites();
    const written: string[] = [];
    writes.add(response(), () => written.push('early'));
    // A turn busy for longer than the wait allows (a slow request handled after the first answer).
    const busyUntil = performance.now() + MAX_WAIT_MS + 1;
    while (performance.now() < busyUntil);
    writes.add(response(), () => written.push('late'));
    expect(written).toEqual(['early']);
    expect(writes.size).toBe(1);

    await nextCheckPhase();
    expect(written).toEqual(['early', 'late']);
  });

  it('destroys a response whose write throws, with the error, and writes the others all the same', async () => {
    const writes = new TurnEndWrites();
    const [ok, broken, thrownText, after] = [response(), response(), response(), response()];
    const written: string[] = [];
    const failure = new Error('invalid header value');
    writes.add(ok, () => written.push('ok'));
    writes.add(broken, () => {
      throw failure;
    });
    writes.add(thrownText, () => {
      // A write may throw anything; what is not an Error is wrapped in one.
      // eslint-disable-next-line @typescript-eslint/only-throw-error
      throw 'not an Error';
    });
    writes.add(after, () => written.push('after'));

    await nextCheckPhase();
    expect(written).toEqual(['ok', 'after']);
    expect(broken.destroyedWith).toEqual([failure]);
    expect(thrownText.destroyedWith.map((e) => e.message)).toEqual(['not an Error']);
    expect(ok.destroyedWith).toEqual([]);
    expect(after.destroyedWith).toEqual([]);
  });

  it('answers real connections under a test’s fake timers: it keeps the real setImmediate', async () => {
    vi.useFakeTimers({ toFake: ['setImmediate', 'setTimeout', 'performance'] });
    const writes = new TurnEndWrites();
    const write = vi.fn();
    writes.add(response(), write);

    await nextCheckPhase();
    expect(write).toHaveBeenCalledTimes(1);
  });

  it('flushes at once when asked, and a flush with nothing waiting does nothing', async () => {
    const writes = new TurnEndWrites();
    const write = vi.fn();
    writes.flush();
    writes.add(response(), write);
    writes.flush();
    expect(write).toHaveBeenCalledTimes(1);

    await nextCheckPhase();
    expect(write).toHaveBeenCalledTimes(1);
  });
});
