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

/** The registry record of session `sessionId` (a hash: `node`, `revision`, `record`). */
export function sessionRecordKey(prefix: string, sessionId: string): string {
  return `${prefix}:session:${sessionId}:record`;
}

/** Present while node `nodeId` is alive (refreshed by its heartbeat, deleted when it shuts down). */
export function nodeHeartbeatKey(prefix: string, nodeId: string): string {
  return `${prefix}:node:${nodeId}:alive`;
}

/** The set of extensions disabled on every replica. */
export function disabledSetKey(prefix: string): string {
  return `${prefix}:extensions:disabled`;
}

/** Counts enable/disable changes across the cluster. */
export function toggleRevisionKey(prefix: string): string {
  return `${prefix}:extensions:revision`;
}

/** The pub/sub channel carrying enable/disable between replicas. */
export function togglesChannel(prefix: string): string {
  return `${prefix}:toggles`;
}
