import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ErrorCodes, ReactorError } from './errors.js';
import { boundedBy, withTimeout } from './timeLimit.js';

describe('withTimeout', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  /** A promise and the means to settle it from outside. */
  function deferred<T>() {
    let resolve!: (value: T) => void;
    const promise = new Promise<T>((r) => (resolve = r));
    return { promise, resolve };
  }

  it('passes a result through, and clears its timer', async () => {
    const onTimeout = vi.fn(() => new Error('late'));
    await expect(withTimeout(() => 42, 1000, onTimeout)).resolves.toBe(42);
    await expect(withTimeout(() => Promise.resolve('async'), 1000, onTimeout)).resolves.toBe('async');
    expect(onTimeout).not.toHaveBeenCalled();
    expect(vi.getTimerCount()).toBe(0);
  });

  it('passes a rejection through, thrown synchronously or not, and clears its timer', async () => {
    await expect(
      withTimeout(
        () => {
          throw new Error('sync');
        },
        1000,
        () => new Error('late'),
      ),
    ).rejects.toThrow('sync');
    await expect(withTimeout(() => Promise.reject(new Error('async')), 1000, () => new Error('late'))).rejects.toThrow('async');
    expect(vi.getTimerCount()).toBe(0);
  });

  it('sets a timer only for work still running when it returns: a synchronous answer has won before any timer could fire', async () => {
    const now = withTimeout(() => 'now', 1000, () => new Error('late'));
    expect(vi.getTimerCount()).toBe(0);
    await expect(now).resolves.toBe('now');
    const slow = deferred<string>();
    const later = withTimeout(() => slow.promise, 1000, () => new Error('late'));
    expect(vi.getTimerCount()).toBe(1);
    slow.resolve('later');
    await expect(later).resolves.toBe('later');
    expect(vi.getTimerCount()).toBe(0);
  });

  it('rejects with the given error once the limit passes', async () => {
    const late = new ReactorError(ErrorCodes.START_FAILED, { subject: 'extension "spaces"', problem: 'onStart timed out' });
    const never = deferred<string>();
    const running = withTimeout(() => never.promise, 500, () => late);
    const assertion = expect(running).rejects.toBe(late);
    await vi.advanceTimersByTimeAsync(500);
    await assertion;
  });

  it('does not reject before the limit', async () => {
    const slow = deferred<string>();
    const running = withTimeout(() => slow.promise, 500, () => new Error('late'));
    await vi.advanceTimersByTimeAsync(499);
    slow.resolve('just in time');
    await expect(running).resolves.toBe('just in time');
  });

  it('honours a limit longer than a timer can wait at once (2^31 ms and more), instead of firing at once', async () => {
    // Node (and its fake timers) fire a setTimeout of more than 2^31-1 ms after 1 ms.
    const slow = deferred<string>();
    const running = withTimeout(() => slow.promise, 2 ** 31, () => new Error('late'));
    let settled = false;
    running.then(
      () => (settled = true),
      () => (settled = true),
    );
    await vi.advanceTimersByTimeAsync(1000);
    expect(settled).toBe(false);
    slow.resolve('in time');
    await expect(running).resolves.toBe('in time');
  });

  it.each([
    ['undefined', undefined],
    ['0', 0],
    ['a negative number', -1],
    ['Infinity', Number.POSITIVE_INFINITY],
    ['NaN', Number.NaN],
  ])('sets no limit when the limit is %s', async (_label, ms) => {
    const slow = deferred<string>();
    const onTimeout = vi.fn(() => new Error('late'));
    const running = withTimeout(() => slow.promise, ms, onTimeout);
    expect(vi.getTimerCount()).toBe(0);
    await vi.advanceTimersByTimeAsync(24 * 60 * 60 * 1000);
    slow.resolve('eventually');
    await expect(running).resolves.toBe('eventually');
    expect(onTimeout).not.toHaveBeenCalled();
  });
});

describe('boundedBy', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('gives back work already under way as it is when there is no usable limit: no timer, no new promise', () => {
    const started = Promise.resolve('done');
    for (const ms of [undefined, 0, -1, Number.NaN, Number.POSITIVE_INFINITY, 2 ** 31]) expect(boundedBy(started, ms, () => new Error('late'))).toBe(started);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('rejects with the given error once the limit passes, and clears its timer when the work ends first', async () => {
    const late = new Error('late');
    const never = boundedBy(new Promise<string>(() => undefined), 100, () => late);
    const assertion = expect(never).rejects.toBe(late);
    await vi.advanceTimersByTimeAsync(100);
    await assertion;
    await expect(boundedBy(Promise.resolve('first'), 100, () => late)).resolves.toBe('first');
    expect(vi.getTimerCount()).toBe(0);
  });
});
