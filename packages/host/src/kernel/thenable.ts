/**
 * Whether a value is a thenable: what `await` would wait on. The host's
 * seams that may answer at once (a synchronous handler, a synchronous
 * schema) test with it, so the common synchronous case costs no promise.
 */
export function isThenable<T>(value: T | PromiseLike<T>): value is PromiseLike<T> {
  return (typeof value === 'object' || typeof value === 'function') && value !== null && typeof (value as { then?: unknown }).then === 'function';
}
