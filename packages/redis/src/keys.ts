/**
 * Where things live in Redis. Every key and channel starts with one prefix, so
 * several services (or test runs) can share one Redis without meeting.
 */

/** Default prefix of every key and channel. */
export const DEFAULT_KEY_PREFIX = 'reactor:mcp';

/** The Redis stream holding every SSE event of session `sessionId` (all its SDK streams). */
export function sessionEventsKey(prefix: string, sessionId: string): string {
  return `${prefix}:session:${sessionId}:events`;
}

/** The pub/sub channel carrying change events between replicas. */
export function changesChannel(prefix: string): string {
  return `${prefix}:changes`;
}
