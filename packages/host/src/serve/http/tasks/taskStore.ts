/**
 * The task store's interface: where the tasks of the 2026-07-28 tasks
 * extension live. In memory by default (`createMemoryTaskStore`); a shared
 * store (Redis, `@reactor/redis`) lets any replica answer `tasks/get`,
 * `tasks/update` and `tasks/cancel`, and tells the node running a task of a
 * cancel or an answer made on another.
 *
 * The store keeps records, never runs work. Its rules, which every
 * implementation keeps (the host relies on them):
 * - `get`, `answer` and `cancel` take the caller's `owner` key and answer
 *   `undefined` when it differs (as if the task did not exist), and for a
 *   record past `expiresAt`.
 * - A terminal record (`completed`, `failed`, `cancelled`) is final: `update`
 *   leaves it as it is and answers it.
 * - `cancel` of a non-terminal record makes it `cancelled` at once (so a task
 *   whose node died still settles) and tells watchers; of a terminal one, it
 *   changes nothing.
 * - `answer` merges responses for keys in `inputRequests` only (others are
 *   ignored), moving them from `inputRequests` to `inputResponses`.
 * - Every change is told to `watch`ers of that task (on any node).
 * - Records are gone after `expiresAt`; `create` refuses past the limits.
 */

/** A task's status, as on the wire. */
export type TaskStatus = 'working' | 'input_required' | 'completed' | 'failed' | 'cancelled';

/** True for the statuses a task never leaves. */
export function isTerminalStatus(status: TaskStatus): boolean {
  return status === 'completed' || status === 'failed' || status === 'cancelled';
}

/** A JSON-RPC error, as a failed task carries it. */
export interface TaskError {
  readonly code: number;
  readonly message: string;
  readonly data?: unknown;
}

/** One task, as stored. Times are epoch milliseconds; the wire shape is made from it. */
export interface TaskRecord {
  /** The id the client holds (signed by the host; the store treats it as opaque). */
  readonly taskId: string;
  /** Whose task it is: a key of principal and tenant, compared as is. */
  readonly owner: string;
  readonly status: TaskStatus;
  readonly statusMessage?: string;
  readonly createdAt: number;
  readonly lastUpdatedAt: number;
  /** Time to live from `createdAt`, in milliseconds. */
  readonly ttlMs: number;
  /** `createdAt + ttlMs`: after it the record is gone. */
  readonly expiresAt: number;
  readonly pollIntervalMs: number;
  /** Outstanding input requests (`input_required`), keyed as on the wire. */
  readonly inputRequests?: Readonly<Record<string, unknown>>;
  /** Answers received through `tasks/update` and not yet taken by the node running the task. */
  readonly inputResponses?: Readonly<Record<string, unknown>>;
  /** `completed`: the `CallToolResult`. */
  readonly result?: Readonly<Record<string, unknown>>;
  /** `failed`: the JSON-RPC error. */
  readonly error?: TaskError;
  /** The node running the work (for a shared store: whom a dead heartbeat concerns). */
  readonly node?: string;
  /** What the host needs to run the work again (the call, its selection, tenant): opaque JSON to the store. */
  readonly origin?: Readonly<Record<string, unknown>>;
}

/** What `update` may change. `inputResponses: null` / `inputRequests: null` clear them. */
export interface TaskPatch {
  readonly status?: TaskStatus;
  readonly statusMessage?: string;
  readonly inputRequests?: Readonly<Record<string, unknown>> | null;
  readonly inputResponses?: Readonly<Record<string, unknown>> | null;
  readonly result?: Readonly<Record<string, unknown>>;
  readonly error?: TaskError;
}

/** The caps `create` enforces. */
export interface TaskLimits {
  /** Most non-expired tasks one owner may hold. */
  readonly perOwner: number;
  /** Most non-expired tasks in the store. */
  readonly total: number;
}

/** `create`'s answer: created, or which cap refused it. */
export type TaskCreation = { readonly ok: true } | { readonly ok: false; readonly limit: 'owner' | 'total'; readonly count: number };

/** `answer`'s answer: taken, or refused because the task is not waiting for input (with the record, to say why). */
export type TaskAnswer = { readonly outcome: 'accepted'; readonly record: TaskRecord } | { readonly outcome: 'not-waiting'; readonly record: TaskRecord };

/** Counts for limits and `/healthz`. */
export interface TaskCounts {
  /** Non-expired tasks held. */
  readonly total: number;
  /** Of which not terminal. */
  readonly active: number;
}

/** Where tasks live. See the module comment for the rules every implementation keeps. */
export interface TaskStore {
  /** Named in `/healthz` (`"memory"`, `"redis"`). */
  readonly name: string;
  /** Stores a new record, unless a cap is reached. Resolves once a `get` would find it. */
  create(record: TaskRecord, limits: TaskLimits): Promise<TaskCreation>;
  /** The record, when `owner` owns it and it has not expired. */
  get(taskId: string, owner: string): Promise<TaskRecord | undefined>;
  /** Applies `patch` (the node running the task calls it); a terminal record stays as it is. `undefined` when gone. */
  update(taskId: string, patch: TaskPatch): Promise<TaskRecord | undefined>;
  /** `tasks/update`: merges answers for outstanding keys; `undefined` when not `owner`'s or gone. */
  answer(taskId: string, owner: string, inputResponses: Readonly<Record<string, unknown>>): Promise<TaskAnswer | undefined>;
  /** `tasks/cancel`: a non-terminal record becomes `cancelled`; `undefined` when not `owner`'s or gone. */
  cancel(taskId: string, owner: string, statusMessage?: string): Promise<TaskRecord | undefined>;
  /** Calls `listener` with the record after each change to it, on any node, until the returned function is called. */
  watch(taskId: string, listener: (record: TaskRecord) => void): () => void;
  /** How many tasks are held. */
  counts(): Promise<TaskCounts>;
  /** Stops timers and connections the store owns. */
  close(): Promise<void>;
}

/**
 * `createMcpApp`'s `tasks` option: the 2026-07-28 tasks extension
 * (`io.modelcontextprotocol/tasks`). On by default, in memory.
 */
export interface McpAppTaskOptions {
  /** Where tasks live. Default: `createMemoryTaskStore()` (this process only). A shared store (Redis) lets any replica answer. */
  readonly store?: TaskStore;
  /**
   * The key task ids are signed with (HMAC-SHA256), at least 32 bytes. Replicas sharing a store must share it.
   * Default: `REACTOR_TASKS_SECRET` when set, else a random key per process.
   */
  readonly secret?: string;
  /** A task's time to live, in ms, from its creation. Default 1 hour. */
  readonly ttlMs?: number;
  /** The poll interval suggested to clients, in ms. Default 1000. */
  readonly pollIntervalMs?: number;
  /** Most live tasks per authenticated principal (and tenant). Default 100. Anonymous callers, being one principal, are bounded by `maxTotal` only. */
  readonly maxPerPrincipal?: number;
  /** Most live tasks in the store. Default 10 000. */
  readonly maxTotal?: number;
  /**
   * The largest result a task keeps, in bytes of its JSON. Default 1 MiB. A
   * larger result fails the task (`-32603`, `data.reason: "result_too_large"`)
   * with a message naming the tool and the limit.
   */
  readonly maxResultBytes?: number;
}
