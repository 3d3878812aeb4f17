/**
 * Tasks (the `io.modelcontextprotocol/tasks` extension of 2026-07-28, SEP-2663):
 * what a tool author writes. A tool says whether it may run as a task with
 * `task` beside its other spec fields, and keeps its one handler:
 *
 * - `'none'` (the default): always answered in the call.
 * - `'optional'`: a task when the client opted in on the request (its `_meta`
 *   declares the extension), else answered in the call.
 * - `'required'`: only as a task; a call without the opt-in is refused with
 *   `-32021` (Missing Required Client Capability).
 *
 * Running as a task, the handler's context has `ctx.task` (absent otherwise):
 * its id and `status(message)` to report progress as the task's
 * `statusMessage`. Cancellation (`tasks/cancel`, TTL) aborts `ctx.signal`, as a
 * cancelled call does. Input during a task is the multi-round-trip pattern:
 * return `inputRequired(...)`, and the answers come back (through
 * `tasks/update`) as `ctx.mcpReq.inputResponses` on the next round. Input
 * needed *before* the work starts is asked by `beforeTask` (optional), in the
 * call itself: it returns `inputRequired(...)` until it has what it needs, then
 * nothing; the task's handler then sees those answers as
 * `ctx.mcpReq.inputResponses` (SEP-2663: multi-round-trip exchanges resolved
 * synchronously before the `CreateTaskResult`).
 */

/** Whether a tool may run as a task: never, when the client opts in, or only as one. */
export type TaskSupport = 'none' | 'optional' | 'required';

/** The values of {@link TaskSupport}, for validation. */
export const TASK_SUPPORT: readonly TaskSupport[] = ['none', 'optional', 'required'];

/** The extension's identifier, as advertised and as clients opt in. */
export const TASKS_EXTENSION = 'io.modelcontextprotocol/tasks';

/**
 * @internal Marks the context of a tool's `beforeTask` round (set by the host
 * when a call is about to become a task; read by the served tool to call
 * `beforeTask` rather than the handler). Not exported from the package.
 */
export const TASK_PRELUDE: unique symbol = Symbol('reactor.task.prelude');

/** `ctx.task`: present when the call runs as a task. */
export interface TaskReporter {
  /** The task's id, as the client sees it. */
  readonly taskId: string;
  /** Sets the task's `statusMessage` (what `tasks/get` shows while it works); the latest wins. */
  status(message: string): void;
}
