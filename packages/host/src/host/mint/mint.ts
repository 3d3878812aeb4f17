/**
 * Minting SDK servers from a blueprint.
 *
 * The SDK boundary: this folder (`src/sdk/`) is the only code that installs
 * request handlers on, or shadows methods of, an SDK server object — minting
 * (here), the tool table's handlers, resources, prompts, completions,
 * subscriptions, and the methods an `onServer` hook's registrations go through
 * (`hookRegistration.ts`). Outside it, the host uses the SDK only through its
 * transports (`serve/http/protocol.ts`, `serve/http/sessions/sessions.ts`, `stdio.ts`) and its
 * listen-stream event bus (`serve/http/app.ts`, `serve/http/listChanged.ts`), `fromJsonSchema`
 * (`schema.ts`), `UriTemplate` (`resource.ts`) and its types. An SDK upgrade
 * that changes how servers are built touches this folder.
 *
 * Tools, resources and prompts are served through low-level request handlers
 * (`server.server.setRequestHandler`, the SDK's documented path for servers
 * that own their tables) reading the blueprint's shared tables, so minting
 * costs the same at 10 tools or 10,000: no per-tool registration, no schema
 * conversion, and `tools/list` returns the result rendered once per blueprint.
 * A per-server overlay, made only when an `onServer` hook changes a tool,
 * keeps hooks' changes to their own server.
 */
import { UI_EXTENSION_ID } from '../../contract/view.js';
import { HookViews } from './hookViews.js';
import { isInputRequiredResult, McpServer, ProtocolError, ProtocolErrorCode, type CallToolResult, type InputRequiredResult, type ServerContext } from '@modelcontextprotocol/server';
import { ErrorCodes, errorMessage } from '../../kernel/errors.js';
import type { OnServerContext } from '../../contract/extension.js';
import type { Logger } from '../../kernel/logger.js';
import type { ProblemLog } from '../../kernel/problems.js';
import type { Selection } from '../../selection/selection.js';
import type { HostStats } from '../../kernel/stats.js';
import { withTimeout } from '../../kernel/timeLimit.js';
import { rejectionOf, type MaybePromise } from '../../kernel/thenable.js';
import { invokeNowOf, type Blueprint, type ConnectionInfo, type ServedTool } from '../build/blueprint.js';
import { serverMiddleware } from './middlewareCalls.js';
import { routeHookTools } from './hookRegistration.js';
import { protocolErrorOnFailure } from './middlewareErrors.js';
import type { RequestStateSeal } from './requestState.js';
import { installContent } from './serverContent.js';
import type { Subscriptions } from './subscriptions.js';
import { ServerToolTable } from './toolTable.js';
import { AnswerInstead, answerThrownResults, rememberToolsCall, wrapHandlerOf } from './sdkInternals.js';
import { installTaskMethods, taskOrCall, type TaskRuntime, type TaskToolsCall } from './tasks.js';
import type { KnownOffering, RequestTelemetry } from '../../telemetry/requestTelemetry.js';
import { networkTransportOf } from '../../telemetry/requestRecord.js';

/** A `tools/call` request as the host's handler reads it. */
type ToolsCall = TaskToolsCall;

/** What one round of a tool call answers: its projected result, or its sealed input-required result. */
type RoundAnswer = CallToolResult | InputRequiredResult;

/** The target a call's requestState is bound to. */
const targetOf = (tool: ServedTool): string => `tools/call:${tool.name}`;

/** An answer passed on, unless it is a task's {@link AnswerInstead}: thrown then, to be answered at the handler's edge. */
function unlessAnswerInstead(answer: RoundAnswer): RoundAnswer {
  // eslint-disable-next-line @typescript-eslint/only-throw-error -- a result, not an error: caught by `answerThrownResults` (or the lean path) and answered
  if ((answer as unknown) instanceof AnswerInstead) throw answer;
  return answer;
}

/** Makes the SDK server a deployment serves (a subclass carrying auth, say). */
export type ServerFactory = (name: string, instructions: string) => McpServer;

/** What minting needs besides the blueprint. */
export interface MintOptions {
  readonly serverName: string;
  readonly serverVersion: string;
  readonly serverFactory: ServerFactory | undefined;
  readonly onServerTimeoutMs: number;
  readonly logger: Logger;
  readonly problems: ProblemLog;
  readonly subscriptions: Subscriptions;
  readonly stats: HostStats;
  /** Seals the `requestState` of input-required results and verifies it on the retry. */
  readonly requestState: RequestStateSeal;
  /** Spans for tools/call, prompts/get and resources/read; `undefined` (the default) wraps nothing. */
  readonly telemetry?: RequestTelemetry | undefined;
  /** The tasks engine (2026-07-28 tasks extension) the HTTP app set, read when a server is minted; none: no tasks. */
  readonly tasks?: (() => TaskRuntime | undefined) | undefined;
}

/** What a minted server knows of its connection beyond the selection. */
export interface MintBounds {
  /** The toolsets its token may not have (dynamic toolsets never turn them on). */
  readonly denied?: readonly string[] | undefined;
  /** It serves one long-lived session: dynamic toolsets may change its surface in place. */
  readonly session?: boolean | undefined;
  /** Told after dynamic toolsets changed its surface. */
  readonly onSurfaceChange?: ((selection: Selection, toolsets: ReadonlySet<string>) => void) | undefined;
}

/** The default factory: a plain SDK server advertising logging. */
export function defaultServerFactory(name: string, version: string): ServerFactory {
  return (serverName, instructions) =>
    new McpServer(
      { name: serverName || name, version },
      { capabilities: { logging: {} }, ...(instructions === '' ? {} : { instructions }) },
    );
}

/**
 * Mints an SDK server for one connection: capabilities, the blueprint's
 * tables behind low-level handlers, then each participating `onServer` hook
 * (bounded; a throw or time-out costs that hook only), before it is connected.
 */
export async function mintServer(blueprint: Blueprint, selection: Selection, options: MintOptions, bounds?: MintBounds): Promise<McpServer> {
  const { server, hooksDone } = mintServerNow(blueprint, selection, options, bounds);
  await hooksDone;
  return server;
}

/**
 * Mints a server at once and starts its `onServer` hooks (the first runs
 * before this returns); `hooksDone` settles when the last has. The server's
 * `connect` waits for `hooksDone`, so a caller that could not wait (the lazy
 * `built.server`) still never connects a server its hooks have not finished.
 */
export function mintServerNow(blueprint: Blueprint, selection: Selection, options: MintOptions, bounds: MintBounds = {}): { server: McpServer; hooksDone: Promise<void> } {
  options.stats.mints++;
  const factory = options.serverFactory ?? defaultServerFactory(options.serverName, options.serverVersion);
  const server = factory(options.serverName, blueprint.instructions);
  const connection: Mutable<ConnectionInfo> = { selection, toolsets: blueprint.toolsets, tenant: blueprint.tenant, readOnlyBound: blueprint.filter?.readOnlyBy === 'operator' };
  if (bounds.denied !== undefined && bounds.denied.length > 0) connection.denied = bounds.denied;
  const middleware = serverMiddleware(blueprint, connection, options);
  const table = new ServerToolTable(blueprint);
  const changing = blueprint.dynamic === true && bounds.session === true;
  // Every requestState this server seals is bound to its selection, and one from another is refused.
  const requestState = options.requestState.forSelection(blueprint);
  // Reachable from the server (not only from its handlers' closures), so structural tests see all it holds.
  Object.defineProperty(server, TOOL_TABLE, { value: table });
  const low = server.server;

  // Every server advertises tools (so every client can list an empty set) and logging;
  // resources, prompts and completions are advertised where they are installed.
  low.registerCapabilities({ tools: blueprint.dynamic === true ? { listChanged: true } : {}, logging: {} });
  // MCP Apps: a server that serves a view says so (capabilities.extensions, 2026-07-28 and the 2025 line alike).
  // A dynamic session's server says so from the start: capabilities are stated once, at initialize, and a toolset
  // `enable_toolset` turns on later may bring a view (a held extension's tools, views and all, are not known before it wakes).
  if (changing || blueprint.resources.some((r) => r.forTools !== undefined)) low.registerCapabilities({ extensions: { [UI_EXTENSION_ID]: {} } });

  low.setRequestHandler('tools/list', middleware ? (_request, ctx) => protocolErrorOnFailure(middleware.around('tools/list', { arguments: undefined }, ctx, () => Promise.resolve(table.listResult()))) : () => table.listResult());
  const tasks = options.tasks?.();
  if (tasks) installTaskMethods(server, tasks, connection);
  /** Answers a call of `tool`, the table's entry for the requested name (found by the caller, so a span can start knowing its offering). */
  const callTool = (request: ToolsCall, ctx: ServerContext, tool: ServedTool | undefined): MaybePromise<RoundAnswer> =>
    // A plain tool's call goes straight to its round, answered at once when the round is.
    tool && (tool.spec.task === undefined || tool.spec.task === 'none') ? runTool(request, ctx, tool) : callUnplainTool(request, ctx, tool);
  /** {@link callTool} for a name with no tool, and for a tool that may run as a task. */
  const callUnplainTool = async (request: ToolsCall, ctx: ServerContext, tool: ServedTool | undefined): Promise<RoundAnswer> => {
    if (!tool) throw new ProtocolError(ProtocolErrorCode.InvalidParams, `Tool ${request.params.name} not found`);
    // A tool that may run as a task: refused (required, no opt-in), made a task, or answered here.
    if (tool.spec.task !== undefined && tool.spec.task !== 'none') {
      const task = await taskOrCall(tasks, { tool, request, ctx, connection, run: (roundCtx) => taskRound(request, roundCtx, tool) });
      // A CreateTaskResult (`resultType: "task"`) in lieu of the CallToolResult, answered as it is (not parsed as one).
      if (task !== undefined) {
        // `beforeTask` asking for input (the call's own, sealed, input-required answer) or refusing (an error result).
        if (isInputRequiredResult(task)) return task;
        if (task['isError'] === true) return task as CallToolResult;
        // Returned, not thrown, through the span (a task started is no failed call); thrown at the handler's edge below.
        return new AnswerInstead(task) as never;
      }
    }
    return await runTool(request, ctx, tool);
  };
  /** One round of a task: the call's round, its result then checked and completed by the SDK's own `tools/call` wrapper, as the call's would be (a result it refuses fails the task with its error). */
  const taskRound = async (request: ToolsCall, ctx: ServerContext, tool: ServedTool): Promise<Record<string, unknown>> => {
    const answer = await runTool(request, ctx, tool);
    if (!sdkWrap || isInputRequiredResult(answer)) return answer;
    return (await sdkWrap('tools/call', () => Promise.resolve(answer))({ method: 'tools/call', params: request.params }, ctx)) as Record<string, unknown>;
  };
  const sdkWrap = tasks ? wrapHandlerOf(server) : undefined;
  /**
   * One round of a call of `tool`: requestState, middleware, the served tool, the result projected (a task's rounds too).
   * At once when nothing in it waits — no requestState echoed, no middleware, a tool that answers at once — so a
   * synchronous tool's call takes no turn of the microtask queue here; never throws (a failure is a rejection).
   */
  const runTool = (request: ToolsCall, ctx: ServerContext, tool: ServedTool): MaybePromise<RoundAnswer> => {
    const invokeNow = invokeNowOf(tool);
    // With nothing echoed, opening the requestState gives back `ctx` as it is (requestState.ts).
    if (middleware || invokeNow === undefined || typeof ctx.mcpReq.requestState !== 'function' || ctx.mcpReq.requestState() !== undefined) return runToolLater(request, ctx, tool);
    try {
      const result = invokeNow(request.params.arguments, ctx, connection);
      return result instanceof Promise ? result.then((answer) => roundAnswer(answer, ctx, tool)) : roundAnswer(result, ctx, tool);
    } catch (error) {
      return rejectionOf(error);
    }
  };
  /** {@link runTool}, step by step. */
  const runToolLater = async (request: ToolsCall, ctx: ServerContext, tool: ServedTool): Promise<RoundAnswer> => {
    // Verified before any wrapper or middleware runs; sealed after the outermost returned.
    const opened = await requestState.open(ctx, targetOf(tool));
    const result = middleware
      ? await middleware.callTool(tool, request.params.name, request.params.arguments, opened)
      : await tool.invoke(request.params.arguments, opened, connection);
    return await roundAnswer(result, ctx, tool);
  };
  /** A round's result as answered: an input-required one sealed (bound to this tool's call), any other projected. */
  const roundAnswer = (result: CallToolResult | InputRequiredResult, ctx: ServerContext, tool: ServedTool): MaybePromise<RoundAnswer> =>
    isInputRequiredResult(result) ? requestState.seal(result, targetOf(tool), ctx) : low.projectCallToolResult(result, tool.outputJson);
  const telemetry = options.telemetry;
  const traced = telemetry
    ? (request: ToolsCall, ctx: ServerContext): MaybePromise<RoundAnswer> => {
        const tool = table.get(request.params.name);
        // The tool's own name (the same text): its spans share one string rather than each keeping the request's.
        return telemetry.around('tools/call', tool ? tool.name : request.params.name, ctx, low.getNegotiatedProtocolVersion(), () => Promise.resolve(callTool(request, ctx, tool)), networkTransportOf(server), tool && offeringOf(tool));
      }
    : (request: ToolsCall, ctx: ServerContext): MaybePromise<RoundAnswer> => callTool(request, ctx, table.get(request.params.name));
  // With tasks, a CreateTaskResult leaves as an AnswerInstead throw, past the SDK's CallToolResult parse (`answerThrownResults`): a rejection here.
  const toolsCall = tasks
    ? (request: ToolsCall, ctx: ServerContext): MaybePromise<RoundAnswer> => {
        const answer = traced(request, ctx);
        return answer instanceof Promise ? answer.then(unlessAnswerInstead) : answer instanceof AnswerInstead ? rejectionOf(answer) : answer;
      }
    : traced;
  low.setRequestHandler('tools/call', toolsCall);
  if (tasks) answerThrownResults(server);
  // A shared 2026-07-28 server may answer through it without the SDK's per-call parses (leanToolsCall.ts).
  rememberToolsCall(server, toolsCall);
  // Hooks and the SDK's 2026 edge look tools up by name; answer from the shared table.
  server.toolInputSchemaJson = (name: string) => table.get(name)?.input?.json ?? (table.get(name) ? {} : undefined);
  routeHookTools(server, table, { logger: options.logger, problems: options.problems, toolTimeoutMs: undefined, stats: options.stats });

  // A dynamic session's server moves its resources and prompts along with its tools.
  const contentSwitch = installContent(server, blueprint, { subscriptions: options.subscriptions, logger: options.logger, problems: options.problems, stats: options.stats, requestState, middleware, telemetry: options.telemetry }, changing);
  if (changing) {
    // Dynamic toolsets: `enable_toolset` moves this server (a session's, never one shared by requests) to the blueprint of its grown selection.
    connection.surface = {
      switchTo(next, nextSelection) {
        table.rebase(next);
        const lists = contentSwitch?.switchTo(next) ?? { resources: false, prompts: false };
        connection.selection = nextSelection;
        connection.toolsets = next.toolsets;
        bounds.onSurfaceChange?.(nextSelection, next.toolsets);
        return lists;
      },
    };
  }

  // Views a hook's tools link to: served when the hook registers them too, unlinked and reported when not.
  const hookViews = blueprint.participants.some((p) => typeof p.extension.onServer === 'function') ? new HookViews(server, blueprint, table, options.problems) : undefined;
  const hooksDone = runHooks(server, blueprint, selection, table, options, hookViews);
  const connect = server.connect.bind(server);
  server.connect = async (transport) => {
    await hooksDone;
    await connect(transport);
  };
  return { server, hooksDone };
}

/** Each participant's `onServer`, in registration order; never rejects (a failure costs that hook only). */
async function runHooks(server: McpServer, blueprint: Blueprint, selection: Selection, table: ServerToolTable, options: MintOptions, hookViews: HookViews | undefined): Promise<void> {
  let statesViews = server.server.getCapabilities().extensions?.[UI_EXTENSION_ID] !== undefined;
  for (const participant of blueprint.participants) {
    const hook = participant.extension.onServer;
    if (typeof hook !== 'function') continue;
    const context: OnServerContext = {
      toolsets: blueprint.toolsets,
      selection,
      tool: (name) => table.handle(name),
      logger: participant.logger,
    };
    const run = () =>
      withTimeout(
        () => hook.call(participant.extension, server, context),
        options.onServerTimeoutMs,
        () => new Error(`onServer did not finish within ${options.onServerTimeoutMs} ms`),
      );
    try {
      await (options.telemetry ? options.telemetry.internal(`reactor.onServer ${participant.name}`, { 'reactor.extension': participant.name }, run) : run());
    } catch (error) {
      const message = `extension "${participant.name}": onServer failed; its action on this server is skipped (${errorMessage(error)}); hint: fix the hook, other extensions are unaffected`;
      options.problems.report(participant.logger, { code: ErrorCodes.ON_SERVER_FAILED, extension: participant.name, message, phase: 'server' }, { cause: error });
    }
    // Before connect, so a view only a hook serves is still stated in the capabilities.
    if (hookViews?.check(participant.name, participant.logger) === true && !statesViews) {
      server.server.registerCapabilities({ extensions: { [UI_EXTENSION_ID]: {} } });
      statesViews = true;
    }
  }
}

type Mutable<T> = { -readonly [K in keyof T]: T[K] };

const TOOL_TABLE: unique symbol = Symbol('reactor.toolTable');

/**
 * @internal How many tools a minted server holds of its own: 0 until an
 * `onServer` hook changes, removes or adds one (its copy-on-write overlay);
 * `undefined` for a server the host did not mint. For structural tests.
 */
export function ownToolEntries(server: McpServer): number | undefined {
  const table = (server as McpServer & { [TOOL_TABLE]?: ServerToolTable })[TOOL_TABLE];
  return table?.ownEntries;
}

/** Each tool's offering, as its spans carry it: made once per tool, span name and all, not once per call. */
const offerings = new WeakMap<ServedTool, KnownOffering>();
function offeringOf(tool: ServedTool): KnownOffering {
  let offering = offerings.get(tool);
  if (!offering) offerings.set(tool, (offering = { extension: tool.extension, toolset: tool.spec.toolset, extendedBy: tool.extendedBy, spanName: `tools/call ${tool.name}` }));
  return offering;
}
