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

/** The record of task `taskId` (a hash: `record`, `owner`, `node`, `status`, and `call` while it may be re-run). */
export function taskKey(prefix: string, taskId: string): string {
  return `${prefix}:task:${taskId}`;
}

/** The live tasks of one owner (a sorted set scored by expiry time, ms), `owner` being a digest of tenant and principal. */
export function ownerTasksKey(prefix: string, owner: string): string {
  return `${prefix}:tasks:owner:${owner}`;
}

/** Every live task (a sorted set scored by expiry time, ms): the total cap counts it. */
export function allTasksKey(prefix: string): string {
  return `${prefix}:tasks:all`;
}

/** The unfinished tasks node `nodeId` runs (a sorted set scored by expiry time, ms). */
export function nodeTasksKey(prefix: string, nodeId: string): string {
  return `${prefix}:tasks:node:${nodeId}`;
}

/** The nodes with unfinished tasks (a sorted set scored by their last task's expiry, ms): what the reaper looks at. */
export function taskNodesKey(prefix: string): string {
  return `${prefix}:tasks:nodes`;
}

/** The pub/sub channel carrying cancellations and input responses to the node running a task. */
export function taskSignalsChannel(prefix: string): string {
  return `${prefix}:tasks:signals`;
}
