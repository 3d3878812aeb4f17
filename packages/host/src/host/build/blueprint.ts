/**
 * The blueprint: everything a selection's servers share, computed once per
 * (tenant, activation key) — served tools with their wrapped, time-limited
 * handlers and converted schemas, the `tools/list` result rendered once,
 * resources, prompts, instructions, and the extensions whose `onServer` hooks
 * participate. Minting a server from it copies none of this.
 */
import type { CallToolResult, InputRequiredResult, ServerContext, Tool } from '@modelcontextprotocol/server';
import { isInputRequiredResult } from '../../contract/inputRequired.js';
import { describeValue, ErrorCodes, errorMessage, isReactorError, ReactorError } from '../../kernel/errors.js';
import type { McpExtension } from '../../contract/extension.js';
import type { Logger } from '../../kernel/logger.js';
import type { MiddlewareChain } from '../../contract/middleware.js';
import type { ProblemLog } from '../../kernel/problems.js';
import type { PromptSpec, ResourceSpec } from '../../contract/resource.js';
import { EMPTY_OBJECT_SCHEMA, resolveSchema, type Checked, type JsonSchemaObject, type ResolvedSchema } from '../../contract/schema.js';
import type { Selection } from '../../selection/selection.js';
import type { HostStats } from '../../kernel/stats.js';
import type { ToolFilter } from '../../selection/toolFilter.js';
import { isThenable, rejectionOf, type MaybePromise } from '../../kernel/thenable.js';
import { boundedBy } from '../../kernel/timeLimit.js';
import { toCallToolResult, toolErrorResult, type ToolContext, type ToolSpec } from '../../contract/tool.js';
import { TASK_PRELUDE } from '../../contract/task.js';
import { CallSignal, copyWithCallSignal, withCallSignal } from './callSignal.js';
import { toolMetaWithView } from '../../contract/view.js';

/** The name of the host's toolset-listing tool (`listToolsets.ts`); defined here because a blueprint's own code keeps it through tool filters and collisions. */
export const LIST_SERVER_TOOLSETS = 'list_server_toolsets';

/** The dynamic-toolset tools (`dynamicToolsets.ts`), named as GitHub's MCP server names them. */
export const DYNAMIC_TOOLSET_TOOLS = Object.freeze(['list_available_toolsets', 'get_toolset_tools', 'enable_toolset'] as const);

/** How a session's server changes its surface (dynamic toolsets): given to the served tools of a session's server. */
export interface SurfaceSwitch {
  /** Serves `blueprint`, built for `selection`, on this server from now on: its tools, resources and prompts. Says whether the resource and prompt lists changed (the tool list did). */
  switchTo(blueprint: Blueprint, selection: Selection): { readonly resources: boolean; readonly prompts: boolean };
}

/** What a served tool's call needs to know of its connection. */
export interface ConnectionInfo {
  readonly selection: Selection;
  readonly toolsets: ReadonlySet<string>;
  readonly tenant: string | undefined;
  /** True when the operator imposed read-only (a selection cannot loosen it). */
  readonly readOnlyBound?: boolean;
  /** The toolsets this connection may not have (its token's missing scopes), when the server was minted knowing them. */
  readonly denied?: readonly string[];
  /** Present on a server whose blueprint is dynamic: how `enable_toolset` changes what it serves. */
  readonly surface?: SurfaceSwitch;
}

/** A tool ready to serve: resolved once, shared by every server of its blueprints. */
export interface ServedTool {
  readonly name: string;
  /** The offering extension (`host` for the built-in list tool). */
  readonly extension: string;
  /** The extensions whose `ToolExtension`s were applied to it, in application order (absent: none). */
  readonly extendedBy?: readonly string[];
  readonly spec: ToolSpec<Record<string, unknown>>;
  /** The entry `tools/list` shows, rendered once. */
  readonly listEntry: Tool;
  readonly input: ResolvedSchema | undefined;
  readonly outputJson: JsonSchemaObject | undefined;
  /** Validates, calls (bounded), converts. Never throws for a handler's failure. An input-required result passes through unconverted. */
  invoke(args: unknown, ctx: ServerContext, connection: ConnectionInfo): Promise<CallToolResult | InputRequiredResult>;
}

/** A served tool's call answered at once when it can be (see {@link invokeNowOf}). */
export type InvokeNow = (args: unknown, ctx: ServerContext, connection: ConnectionInfo) => MaybePromise<CallToolResult | InputRequiredResult>;

/**
 * The form of each `invoke` {@link serveTool} made that answers at once when
 * the call does, found by that `invoke`: a copy of a served tool with an
 * `invoke` of its own (an alias's, which marks the result) has none here, so
 * its own `invoke` is what runs.
 */
const invokeNowForms = new WeakMap<ServedTool['invoke'], InvokeNow>();

/**
 * `tool.invoke`, answering at once when the call does — a synchronous
 * handler's answer as a value, else a promise; it never throws — or
 * `undefined` when `tool.invoke` is not one {@link serveTool} made.
 */
export function invokeNowOf(tool: ServedTool): InvokeNow | undefined {
  return invokeNowForms.get(tool.invoke);
}

/** A call answered at once kept no time limit: it cannot have timed out. */
const NO_TIME_OUT = (): undefined => undefined;

/** A resource or prompt with its offering extension. */
export interface Offered<T> {
  readonly extension: string;
  readonly spec: T;
  /** A view's resource (MCP Apps): the tools that show it; it is served only while one of them is. */
  readonly forTools?: readonly string[];
}

/** Everything the servers of one (tenant, selection) share. */
export interface Blueprint {
  readonly key: string;
  readonly tenant: string | undefined;
  readonly revision: number;
  readonly toolsets: ReadonlySet<string>;
  readonly instructions: string;
  readonly tools: readonly ServedTool[];
  readonly toolIndex: ReadonlyMap<string, ServedTool>;
  /** `tools/list`'s result, rendered once for the blueprint. */
  readonly listResult: { tools: Tool[] };
  readonly resources: ReadonlyArray<Offered<ResourceSpec>>;
  readonly prompts: ReadonlyArray<Offered<PromptSpec>>;
  /** Extensions whose `onServer` runs on each server, in registration order. */
  readonly participants: ReadonlyArray<{ readonly name: string; readonly extension: McpExtension; readonly logger: Logger }>;
  /** Deprecated names (`ToolSpec.aliases`) served here: alias → the tool's name. Callable through `toolIndex`, never listed. */
  readonly aliases: ReadonlyMap<string, string>;
  /** The participating extensions' middleware, composed once per method (absent: none wraps it). */
  readonly middleware: BlueprintMiddleware;
  /** For a view narrowed by `tools=`, `exclude_tools=` or read-only: the filter it applies. */
  readonly filter?: ToolFilter;
  /** True when it serves the dynamic-toolset tools (`?dynamic`). */
  readonly dynamic?: boolean;
}

/** The composed middleware chains of a blueprint, by request. */
export interface BlueprintMiddleware {
  readonly 'tools/call'?: MiddlewareChain;
  readonly 'tools/list'?: MiddlewareChain;
  readonly 'resources/read'?: MiddlewareChain;
  readonly 'prompts/get'?: MiddlewareChain;
}

/** Options of the call pipeline. */
export interface ServeToolOptions {
  readonly logger: Logger;
  readonly problems: ProblemLog;
  readonly toolTimeoutMs: number | undefined;
  /** The serving host's counters. */
  readonly stats: HostStats;
}

/** Renders the `tools/list` entry of a spec (schemas converted once per schema object). */
export function renderListEntry(spec: ToolSpec<Record<string, unknown>>, input: ResolvedSchema | undefined, outputJson: JsonSchemaObject | undefined): Tool {
  const entry: Tool = {
    name: spec.name,
    description: spec.description,
    inputSchema: (input?.json ?? EMPTY_OBJECT_SCHEMA) as Tool['inputSchema'],
  };
  if (spec.title !== undefined) entry.title = spec.title;
  if (outputJson !== undefined) entry.outputSchema = outputJson;
  if (spec.annotations !== undefined) entry.annotations = spec.annotations;
  if (spec.icons !== undefined) entry.icons = spec.icons.map((icon) => ({ ...icon }));
  if (spec.view !== undefined) entry._meta = toolMetaWithView(spec.meta, spec.view);
  else if (spec.meta !== undefined) entry._meta = { ...spec.meta };
  return entry;
}

/**
 * Makes a served tool from a resolved spec (extensions already applied): the
 * outermost handler's result is converted after it returns, thrown errors
 * become `isError` results (logged with tool and extension), and the call is
 * bounded by `timeoutMs` or the host default, aborting `ctx.signal`.
 */
export function serveTool(
  spec: ToolSpec<Record<string, unknown>>,
  extension: string,
  options: ServeToolOptions,
  custom?: (args: Record<string, unknown>, ctx: ToolContext, connection: ConnectionInfo) => unknown,
): ServedTool {
  const input = spec.inputSchema ? resolveSchema(spec.inputSchema, 'input', options.stats) : undefined;
  const output = spec.outputSchema ? resolveSchema(spec.outputSchema, 'output', options.stats) : undefined;
  const outputJson = output?.json;
  // MCP requires object schemas; one tool of another type would break tools/list for all.
  for (const [key, resolved] of [['inputSchema', input], ['outputSchema', output]] as const) {
    if (resolved && resolved.json.type !== 'object') {
      throw new ReactorError(ErrorCodes.TOOL_INVALID, {
        subject: `tool "${spec.name}" of extension "${extension}"`,
        problem: `its ${key} is not an object schema, so the tool is left out`,
        expected: 'a schema of type "object" (z.object({ … }))',
        received: `type ${describeValue(resolved.json.type)}`,
        hint: 'MCP tool arguments and structured results are objects: wrap the value in a property',
        extension,
      });
    }
  }
  const limit = spec.timeoutMs ?? options.toolTimeoutMs;
  const log = options.logger.child({ extension, tool: spec.name });
  const listEntry = renderListEntry(spec, input, outputJson);

  type Answer = CallToolResult | InputRequiredResult;
  /** The handler's value as the call's answer: converted, and its structured content checked against the output schema. */
  const answerOf = (value: unknown): MaybePromise<Answer> => {
    const result = toCallToolResult(value, spec.outputSchema !== undefined);
    // Not the tool's answer yet: the client fulfils the input requests and calls again.
    if (isInputRequiredResult(result)) return result;
    if (output && result.structuredContent !== undefined && result.isError !== true) {
      const outputChecked = (checked: Checked): Answer =>
        checked.ok ? result : toolErrorResult(`Output validation error: tool "${spec.name}" returned structured content that does not match its output schema: ${checked.message}`);
      const checking = output.validate(result.structuredContent);
      return checking instanceof Promise ? checking.then(outputChecked) : outputChecked(checking);
    }
    return result;
  };
  /** What the call answers when its handler (or the output check) threw, or its time limit passed (`timedOut`). */
  const failed = (error: unknown, call: CallSignal, timedOut: Error | undefined): Answer => {
    if (timedOut !== undefined && error === timedOut) {
      call.abort(timedOut);
      options.problems.report(log, { code: ErrorCodes.TOOL_TIMEOUT, extension, subject: spec.name, message: timedOut.message, phase: 'call' }, { level: 'warn', fields: { tool: spec.name, timeoutMs: limit } });
      return toolErrorResult(timedOut.message);
    }
    const message = errorMessage(error);
    if (isModelMistake(error)) {
      // The tool's answer to a call it cannot serve (a missing path, an unknown id): the model
      // reads the message and hint; an operator need not be woken, and nothing is broken.
      log.warn({ code: error.code, extension, tool: spec.name }, `tool "${spec.name}" of extension "${extension}" refused a call: ${message}`);
      return toolErrorResult(message);
    }
    options.problems.report(log, { code: ErrorCodes.TOOL_FAILED, extension, subject: spec.name, message: `tool "${spec.name}" of extension "${extension}" threw: ${message}`, phase: 'call' }, { fields: { tool: spec.name }, cause: error });
    return toolErrorResult(message);
  };
  /** Calls the handler with checked arguments: the answer at once when the handler and the output check answered at once. */
  const callHandler = (args: Record<string, unknown>, sdkCtx: ServerContext, connection: ConnectionInfo): MaybePromise<Answer> => {
    const call = new CallSignal(sdkCtx.mcpReq.signal);
    const ctx = toolContext(sdkCtx, call, extension, connection);
    let value: unknown;
    try {
      // A call about to become a task runs the tool's `beforeTask` (its input asked in the call) instead of its handler.
      const prelude = spec.beforeTask !== undefined && (sdkCtx as { [TASK_PRELUDE]?: true })[TASK_PRELUDE] === true ? spec.beforeTask : undefined;
      value = prelude ? prelude(args, ctx) : custom ? custom(args, ctx, connection) : spec.handler(args, ctx);
      if (!isThenable(value)) {
        // Answered at once: no time limit to keep (a timer would fire only after this returned), nothing made for one.
        const answer = answerOf(value);
        if (!(answer instanceof Promise)) {
          call.settle();
          return answer;
        }
        return settledLater(answer, call, NO_TIME_OUT);
      }
    } catch (error) {
      const answer = failed(error, call, undefined);
      call.settle();
      return answer;
    }
    // Made only when the limit passes: an Error captures a stack, a cost every call would pay.
    let timedOut: Error | undefined;
    const bounded = boundedBy(value, limit, () => (timedOut = new Error(`Tool "${spec.name}" (extension "${extension}") timed out after ${limit} ms; the call was aborted.`)));
    return settledLater(Promise.resolve(bounded).then(answerOf), call, () => timedOut);
  };
  /** An answer still to come: a throw (or the time limit, `timedOut()`) answered as a failure, and the call settled as it ends, whichever way it ends. */
  const settledLater = (later: Promise<Answer>, call: CallSignal, timedOut: () => Error | undefined): Promise<Answer> =>
    later.then(undefined, (error: unknown) => failed(error, call, timedOut())).finally(() => call.settle());
  /**
   * Validates, calls (bounded), converts — at once when every step does (a
   * synchronous tool's call then takes no turn of the microtask queue). Never
   * throws: a failure of the host's own is a rejected promise, as from an
   * `async` function.
   */
  const invokeNow = (rawArgs: unknown, sdkCtx: ServerContext, connection: ConnectionInfo): MaybePromise<Answer> => {
    // Written out rather than through a helper taking a closure: this runs on every call, and a closure is an allocation.
    try {
      if (!input) return callHandler((rawArgs ?? {}) as Record<string, unknown>, sdkCtx, connection);
      const validating = input.validate(rawArgs ?? {});
      return validating instanceof Promise ? validating.then((checked) => validated(checked, sdkCtx, connection)) : validated(validating, sdkCtx, connection);
    } catch (error) {
      return rejectionOf(error);
    }
  };
  /** The call of checked arguments, or the answer to arguments the input schema refused. */
  const validated = (checked: Checked, sdkCtx: ServerContext, connection: ConnectionInfo): MaybePromise<Answer> =>
    checked.ok ? callHandler(checked.value as Record<string, unknown>, sdkCtx, connection) : toolErrorResult(`Input validation error: invalid arguments for tool "${spec.name}": ${checked.message}`);
  const invoke = async (rawArgs: unknown, sdkCtx: ServerContext, connection: ConnectionInfo): Promise<Answer> => await invokeNow(rawArgs, sdkCtx, connection);
  invokeNowForms.set(invoke, invokeNow);
  return { name: spec.name, extension, spec, listEntry, input, outputJson, invoke };
}

/**
 * A handler's context: the SDK's, its `signal` (and `mcpReq.signal`) the
 * call's, plus the serving extension, the active toolsets and the tenant
 * (when there is one) — the object the spread literal `{ ...sdkCtx, mcpReq:
 * { ...sdkCtx.mcpReq, get signal() … }, extension, toolsets, tenant?, get
 * signal() … }` makes, key for key and in the same
 * order, built with `Object.assign` instead. On Node 20 (V8 11.3) a literal
 * that begins with a spread and then adds a key of its own costs about a
 * microsecond, some forty times a plain copy, and keeps what the object
 * reaches alive through young-generation collections (`serve/http/fast/handlerContext.ts`).
 * Both `signal`s are the call's, through the getter every context shares
 * (`callSignal.ts` says why one getter, not one per call).
 */
function toolContext(sdkCtx: ServerContext, call: CallSignal, extension: string, connection: ConnectionInfo): ToolContext {
  const mcpReq = copyWithCallSignal(sdkCtx.mcpReq, call);
  const ctx = Object.assign({}, sdkCtx) as Record<string, unknown>;
  ctx.mcpReq = mcpReq;
  ctx.extension = extension;
  ctx.toolsets = connection.toolsets;
  if (connection.tenant !== undefined) ctx.tenant = connection.tenant;
  return withCallSignal(ctx, call) as ToolContext;
}

/** Renders a blueprint's `tools/list` result: the entries, in order, computed once. */
export function renderToolList(tools: readonly ServedTool[], stats: HostStats): { tools: Tool[] } {
  stats.listRenders++;
  return { tools: tools.map((t) => t.listEntry) };
}

/**
 * A model mistake: a `ReactorError` a handler threw on purpose with the code
 * `REACTOR_TOOL_FAILED` (a missing path, an unknown run id, a bad argument it
 * explains). Logged at `warn` and not kept as a problem; anything else a
 * handler throws is the extension's own fault: `error`, and `host.report()`.
 */
function isModelMistake(error: unknown): error is ReactorError {
  return isReactorError(error) && error.code === ErrorCodes.TOOL_FAILED;
}

