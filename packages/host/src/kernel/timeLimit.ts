/**
 * Time limits: one place for what counts as a limit and how work is bounded by
 * one — tool calls, `onServer`, `onStart` and `onStop` alike.
 */
import { isThenable } from './thenable.js';

/** The longest delay a Node timer can wait at once (2^31 − 1 ms); longer ones fire at once. */
export const MAX_TIMER_MS = 2_147_483_647;

/** A usable time limit: positive, finite, and within what a timer can wait. */
export function isTimeLimit(value: unknown): value is number {
  return typeof value === 'number' && Number.isFinite(value) && value > 0 && value <= MAX_TIMER_MS;
}

/**
 * Runs `work`, rejecting with `onTimeout()` past `ms`. Anything that is not a
 * usable limit (undefined, ≤ 0, not finite, beyond a timer's reach) means no limit.
 *
 * Work that answers synchronously gets no timer: a timer fires only once the
 * event loop turns, after such work has returned, so its answer always won
 * the race anyway — and a timer set and cleared is a cost every call of a
 * synchronous tool would pay.
 */
export async function withTimeout<T>(work: () => T | Promise<T>, ms: number | undefined, onTimeout: () => Error): Promise<T> {
  const started = work();
  return isThenable(started) ? await boundedBy(started, ms, onTimeout) : started;
}

/**
 * `started` (work already under way), rejecting with `onTimeout()` past `ms`
 * when `ms` is a usable limit; else `started` itself. The timer is set here,
 * so a caller that found its work answered at once sets none.
 */
export function boundedBy<T>(started: PromiseLike<T>, ms: number | undefined, onTimeout: () => Error): PromiseLike<T> {
  if (!isTimeLimit(ms)) return started;
  let timer: NodeJS.Timeout | undefined;
  return Promise.race([
    started,
    new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(onTimeout()), ms);
      timer.unref?.();
    }),
  ]).finally(() => {
    if (timer) clearTimeout(timer);
  });
}
