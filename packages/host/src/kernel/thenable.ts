/**
 * Whether a value is a thenable: what `await` would wait on. The host's
 * seams that may answer at once (a synchronous handler, a synchronous
 * schema) test with it, so the common synchronous case costs no promise.
 */
export function isThenable<T>(value: T | PromiseLike<T>): value is PromiseLike<T> {
  return (typeof value === 'object' || typeof value === 'function') && value !== null && typeof (value as { then?: unknown }).then === 'function';
}

/** A value now, or a promise of one later: what a seam returns that answers at once when it can. */
export type MaybePromise<T> = T | Promise<T>;

/**
 * A promise rejected with what was thrown, whatever it is: what an `async`
 * function gives back for a throw, for a seam that answers at once when it
 * can but must never throw to its caller.
 */
export function rejectionOf(thrown: unknown): Promise<never> {
  // eslint-disable-next-line @typescript-eslint/prefer-promise-reject-errors -- passed on as thrown (not every throw is an Error), as an async function rejects
  return Promise.reject(thrown);
}
