/**
 * Waiting inside a tool. Several scenarios ask for gaps between notifications
 * (~50 ms) so a client sees them arrive during the call, not batched with
 * its result; the wait ends early when the call is cancelled or times out.
 */
import { setTimeout as delay } from 'node:timers/promises';

/** Resolves after `ms` milliseconds; rejects with an `AbortError` once `signal` aborts. */
export function pause(ms: number, signal?: AbortSignal): Promise<void> {
  return delay(ms, undefined, signal === undefined ? undefined : { signal });
}

/** The gap the logging and progress scenarios ask for between notifications. */
export const NOTIFICATION_GAP_MS = 50;
