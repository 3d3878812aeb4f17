/**
 * Tasks on a minted server (2026-07-28, `io.modelcontextprotocol/tasks`,
 * SEP-2663): the extension advertised under `capabilities.extensions`, the
 * `tasks/get`, `tasks/update` and `tasks/cancel` handlers, and the decision a
 * `tools/call` meets first — answered in the call, refused with `-32021`
 * (a `required` tool, no opt-in), or made a task.
 *
 * What a task is (its records, ids, limits, runs) is the {@link TaskRuntime}
 * the HTTP app gives the host (`serve/http/tasks/taskEngine.ts`); this module
 * only wires it to the SDK server. The SDK has no tasks runtime; its parts used
 * here are custom-method request handlers (which get the SDK's header checks,
 * `Mcp-Name` = `taskId` included) and `MissingRequiredClientCapabilityError`.
 */
import { CLIENT_CAPABILITIES_META_KEY, isInputRequiredResult, MissingRequiredClientCapabilityError, ProtocolError, ProtocolErrorCode, type McpServer, type ServerContext } from '@modelcontextprotocol/server';
import { z } from 'zod';
import { TASK_PRELUDE, TASKS_EXTENSION, type TaskSupport } from '../../contract/task.js';
import type { ConnectionInfo, ServedTool } from '../build/blueprint.js';

/** A `tools/call` request as the host's handler reads it. */
export type TaskToolsCall = { params: { name: string; arguments?: Record<string, unknown> | undefined; _meta?: Record<string, unknown> | undefined } };

/** One `tools/call` that becomes a task. */
export interface TaskCall {
  readonly tool: ServedTool;
  readonly request: TaskToolsCall;
  /** The call's context (its principal at `http.authInfo`). */
  readonly ctx: ServerContext;
  readonly connection: ConnectionInfo;
  /**
   * Runs one round of the call as a `tools/call` runs — requestState opened,
   * middleware, tool extensions, handler, result projected (or an
   * input-required result sealed) — with the context given.
   */
  run(ctx: ServerContext): Promise<Record<string, unknown>>;
}

/** What the host asks of the tasks engine (set by the HTTP app). */
export interface TaskRuntime {
  /** Creates the task, starts its work and answers the `CreateTaskResult`. */
  start(call: TaskCall): Promise<Record<string, unknown>>;
  get(taskId: string, ctx: ServerContext, connection: ConnectionInfo): Promise<Record<string, unknown>>;
  update(taskId: string, inputResponses: Record<string, unknown>, ctx: ServerContext, connection: ConnectionInfo): Promise<Record<string, unknown>>;
  cancel(taskId: string, ctx: ServerContext, connection: ConnectionInfo): Promise<Record<string, unknown>>;
}

/** The error a non-declaring client gets (SEP-2575 / SEP-2663): `-32021` naming the extension. */
export function missingTasksCapability(what: string): MissingRequiredClientCapabilityError {
  return new MissingRequiredClientCapabilityError(
    { requiredCapabilities: { extensions: { [TASKS_EXTENSION]: {} } } },
    `Missing required client capability: ${what} needs the ${TASKS_EXTENSION} extension; declare it in the request's _meta["${CLIENT_CAPABILITIES_META_KEY}"].extensions`,
  );
}

/** True when the request declares the tasks extension in its per-request client capabilities. */
export function declaresTasks(request: { params?: { _meta?: Record<string, unknown> | undefined } | undefined }, ctx: ServerContext | undefined): boolean {
  const envelope = ctx?.mcpReq.envelope as Record<string, unknown> | undefined;
  const fromEnvelope = envelope?.[CLIENT_CAPABILITIES_META_KEY] ?? envelope?.['clientCapabilities'];
  const capabilities = fromEnvelope ?? request.params?._meta?.[CLIENT_CAPABILITIES_META_KEY] ?? ctx?.mcpReq._meta?.[CLIENT_CAPABILITIES_META_KEY];
  const extensions = (capabilities as { extensions?: unknown } | undefined)?.extensions;
  return typeof extensions === 'object' && extensions !== null && Object.hasOwn(extensions, TASKS_EXTENSION);
}

/** A tool's declared task support (`'none'` when it says nothing). */
export function taskSupportOf(tool: ServedTool): TaskSupport {
  return tool.spec.task ?? 'none';
}

/**
 * What a `tools/call` of `tool` becomes: `undefined` to answer in the call,
 * else the task's `CreateTaskResult` — or, for a tool with `beforeTask`, what
 * that prelude answered in the call instead (an input-required result, or an
 * error result: `isError`). A `required` tool without the opt-in is refused
 * with `-32021`; an `optional` one without it runs in the call.
 *
 * Middleware wraps each round of work as a call: the prelude is a round (it
 * runs in the call, through requestState and middleware, so a policy layer
 * can refuse before a task exists), and so is each round of the task's work.
 * A task with `beforeTask` therefore passes its middleware once per prelude
 * round and once per task round; tool extensions wrap the handler, not
 * `beforeTask`.
 */
export async function taskOrCall(runtime: TaskRuntime | undefined, call: TaskCall): Promise<Record<string, unknown> | undefined> {
  const support = taskSupportOf(call.tool);
  if (support === 'none') return undefined;
  const optedIn = runtime !== undefined && declaresTasks(call.request, call.ctx);
  if (!optedIn) {
    if (support === 'required') throw missingTasksCapability(`tool "${call.tool.name}" runs only as a task, so it`);
    return undefined;
  }
  if (call.tool.spec.beforeTask !== undefined) {
    // Input asked before the task exists is answered in the call (a sealed input-required result) — and so is a
    // refusal: `beforeTask` throwing, or a middleware answering an error instead of going on, starts no task.
    const first = await call.run(Object.assign({}, call.ctx, { [TASK_PRELUDE]: true }));
    if (isInputRequiredResult(first) || (first as { isError?: unknown }).isError === true) return first;
  }
  return await runtime.start(call);
}

const TASK_ID = z.string().min(1).max(512);
const TASK_PARAMS = z.looseObject({ taskId: TASK_ID });
// The SDK lifts `inputResponses` out of the params (as for a multi-round-trip retry) into `ctx.mcpReq.inputResponses`.
const UPDATE_PARAMS = z.looseObject({ taskId: TASK_ID, inputResponses: z.record(z.string(), z.unknown()).optional() });

/** Advertises the extension and installs `tasks/get`, `tasks/update` and `tasks/cancel` on a minted server. */
export function installTaskMethods(server: McpServer, runtime: TaskRuntime, connection: ConnectionInfo): void {
  const low = server.server;
  low.registerCapabilities({ extensions: { [TASKS_EXTENSION]: {} } });
  const gate = (request: unknown, ctx: ServerContext, method: string) => {
    if (!declaresTasks(request as TaskToolsCall, ctx)) throw missingTasksCapability(method);
  };
  const register = low.setRequestHandler.bind(low) as unknown as (method: string, schemas: { params: z.ZodType }, handler: (params: Record<string, unknown>, ctx: ServerContext) => Promise<Record<string, unknown>>) => void;
  register('tasks/get', { params: TASK_PARAMS }, async (params, ctx) => {
    gate({ params }, ctx, 'tasks/get');
    return await runtime.get(params['taskId'] as string, ctx, connection);
  });
  register('tasks/update', { params: UPDATE_PARAMS }, async (params, ctx) => {
    gate({ params }, ctx, 'tasks/update');
    const inputResponses = (params['inputResponses'] as Record<string, unknown> | undefined) ?? ctx.mcpReq.inputResponses;
    if (inputResponses === undefined) throw new ProtocolError(ProtocolErrorCode.InvalidParams, 'tasks/update needs inputResponses: an object answering the task\'s inputRequests by key');
    return await runtime.update(params['taskId'] as string, inputResponses, ctx, connection);
  });
  register('tasks/cancel', { params: TASK_PARAMS }, async (params, ctx) => {
    gate({ params }, ctx, 'tasks/cancel');
    return await runtime.cancel(params['taskId'] as string, ctx, connection);
  });
}

/** The JSON-RPC error a failed task carries, from what its run threw. */
export function taskErrorOf(error: unknown): { code: number; message: string; data?: unknown } {
  if (error instanceof ProtocolError) return { code: error.code, message: error.message, ...(error.data === undefined ? {} : { data: error.data }) };
  const message = error instanceof Error ? error.message : String(error);
  return { code: ProtocolErrorCode.InternalError, message };
}
