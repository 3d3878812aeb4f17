/**
 * A shared 2026-07-28 server's `tools/call`, without the SDK's per-call
 * zod parses when they cannot change the answer.
 *
 * `setRequestHandler('tools/call', handler)` stores the SDK's wrapper around
 * the host's handler. Per call, that wrapper parses the request with the
 * era's `CallToolRequest` schema, runs the handler through the input-required
 * seam, fills an absent `content`, and parses the result with the era's
 * `CallToolResult` schema, answering the parsed copy; the dispatch then
 * stamps `resultType` and the server's identity into the result with two
 * more copies. In a loop each step is cheap (under 2 µs together); in the
 * benchmark's server, where every zod schema of the process shares the same
 * parse functions, they cost far more: this lean path took a `tools/call`
 * from 101.3 to 85.8 µs of server CPU (`node apps/bench/dist/compare.js
 * packages/host/dist-before --rounds 10`, 10 of 10 pairs won).
 *
 * {@link installLeanToolsCall} replaces that wrapper on a server the host
 * minted (its handler recorded by `rememberToolsCall` (`sdkInternals.ts`), the wrapper
 * unchanged since) with one that answers a call the same way, skipping only
 * what it has checked to be a no-op:
 *
 * - the request parse, for a request whose params are `name` (a string) and
 *   optionally `arguments` (an object that is not an array) — the schema
 *   accepts every such request, and the handler is given the request itself
 *   either way. Any other request (a `_meta` left after the envelope, a
 *   `requestState` to verify) goes to the SDK's wrapper, whole;
 * - the result parse, for a result made of `content` (text items with
 *   exactly `type: 'text'` and a string `text`), optionally
 *   `structuredContent` (an object) and `isError` (a boolean) — the parsed
 *   copy of such a result holds the same values. It is answered already
 *   stamped (`resultType`, then the server's identity in `_meta`, the keys
 *   the dispatch would append), so the dispatch's encoding returns it as it
 *   is. Any other result, an input-required one, or a throw is handed to the
 *   SDK's own wrapper around a handler that replays it, so its checks,
 *   errors and conversions are the SDK's;
 * - the input-required seam, which for a call with no `requestState` to
 *   verify does nothing to a plain result (it checks input-required results
 *   and converts some throws: both replayed through the SDK's wrapper).
 *
 * `leanToolsCall.test.ts` holds both checks to the SDK's schemas with
 * generated requests and results; the fast path's differential test compares
 * whole answers with the per-request path, which keeps the SDK's wrapper.
 */
import { isInputRequiredResult, type McpServer, SERVER_INFO_META_KEY, type ServerContext } from '@modelcontextprotocol/server';
import type { HostStats } from '../../../kernel/stats.js';
import { rejectionOf } from '../../../kernel/thenable.js';
import { AnswerInstead, isStockServer, outboundServerInfoOf, rememberedToolsCall, requestHandlersOf, wrapHandlerOf, type RequestHandler } from '../../../host/mint/sdkInternals.js';

export type { RequestHandler };
type ToolsCallRequest = Parameters<RequestHandler>[0];

/**
 * Answers `server`'s `tools/call` as above (each call answered by the lean
 * path counted in `stats.leanToolCalls`); false, and nothing changed, for
 * a server not of the SDK's own classes, one whose handler the host did not
 * register or something replaced since, or an SDK without the internals this
 * relies on. For servers bound to 2026-07-28 only (the caller's to ensure).
 */
export function installLeanToolsCall(server: McpServer, stats?: Pick<HostStats, 'leanToolCalls'>): boolean {
  const own = rememberedToolsCall(server);
  const stock = isStockServer(server);
  const handlers = requestHandlersOf(server);
  const wrap = wrapHandlerOf(server);
  const serverInfo = outboundServerInfoOf(server);
  if (!own || !stock || !handlers || !wrap || !serverInfo) return false;
  const sdkWrapper = handlers.get('tools/call');
  if (sdkWrapper === undefined || sdkWrapper !== own.wrapper) return false;
  const host = own.handler;
  /** The SDK's wrapper around a handler that answers `outcome` again: its checks and conversions, for a result or throw the lean path does not vouch for. */
  const replay = (request: ToolsCallRequest, ctx: ServerContext, outcome: { readonly result: unknown } | { readonly error: unknown }): Promise<unknown> => {
    const again: RequestHandler = () => {
      // What the host's handler threw, whatever it is (a rejection reason need not be an Error): the SDK's wrapper sees the same throw.
      // eslint-disable-next-line @typescript-eslint/prefer-promise-reject-errors
      return 'error' in outcome ? Promise.reject(outcome.error) : Promise.resolve(outcome.result);
    };
    return wrap('tools/call', again)(request, ctx);
  };
  /** The answer to a plain call's result (or throw): stamped as the SDK would, or what the SDK's wrapper makes of it. */
  const answerOf = (request: ToolsCallRequest, ctx: ServerContext, outcome: { readonly result: unknown } | { readonly error: unknown }): unknown => {
    if ('error' in outcome) {
      // A task's CreateTaskResult, answered as it is (as `answerThrownResults` does on the SDK's path).
      if (outcome.error instanceof AnswerInstead) return outcome.error.result;
      return replay(request, ctx, outcome);
    }
    const stamped = stampedPlainResult(outcome.result, serverInfo());
    if (stamped === undefined) return replay(request, ctx, outcome);
    if (stats) stats.leanToolCalls++;
    return stamped;
  };
  // At once when the host's handler answers at once (a synchronous tool): no turn of the microtask queue here. It never throws.
  const lean = ((request: ToolsCallRequest, ctx: ServerContext): unknown => {
    try {
      if (!isPlainToolsCall(request) || ctx.mcpReq.requestState() !== undefined) return sdkWrapper(request, ctx);
      const result = host(request, ctx);
      return result instanceof Promise
        ? result.then(
            (value: unknown) => answerOf(request, ctx, { result: value }),
            (error: unknown) => answerOf(request, ctx, { error }),
          )
        : answerOf(request, ctx, { result });
    } catch (error) {
      return rejectionOf(error);
    }
  }) as RequestHandler;
  handlers.set('tools/call', lean);
  installed.set(server, lean);
  return true;
}

/** The lean handlers installed, by server (`leanDispatch.ts` checks a server still has its own). */
const installed = new WeakMap<McpServer, RequestHandler>();

/** The lean `tools/call` handler installed on `server`, if one was. */
export function leanToolsCallOf(server: McpServer): RequestHandler | undefined {
  return installed.get(server);
}

/** An object as `JSON.parse` makes one (or a literal): not an array, not an instance of a class. */
function isObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null) return false;
  const proto: unknown = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

/**
 * Whether the era's `CallToolRequest` schema would accept `request` with
 * nothing in its params to check beyond this: `name` a string, `arguments`
 * absent or an object that is not an array, and no other member.
 */
export function isPlainToolsCall(request: ToolsCallRequest): boolean {
  if (request.method !== 'tools/call') return false;
  const params = request.params;
  if (!isObject(params)) return false;
  for (const key in params) if (key !== 'name' && key !== 'arguments') return false;
  const args = params.arguments;
  return typeof params.name === 'string' && (args === undefined || isObject(args));
}

/**
 * `result` as the SDK would answer it — its parsed copy, `resultType`
 * stamped, the server's identity in `_meta` — when it is a plain result
 * (above) whose parse changes nothing; otherwise `undefined`.
 */
export function stampedPlainResult(result: unknown, serverInfo: unknown): Record<string, unknown> | undefined {
  if (!isObject(result) || isInputRequiredResult(result)) return undefined;
  let content: unknown;
  let structuredContent: unknown;
  let isError: unknown;
  for (const key in result) {
    if (key === 'content') content = result.content;
    else if (key === 'structuredContent') structuredContent = result.structuredContent;
    else if (key === 'isError') isError = result.isError;
    else return undefined;
  }
  if (!Array.isArray(content) || !content.every(isPlainText)) return undefined;
  if (structuredContent !== undefined && !isObject(structuredContent)) return undefined;
  if (isError !== undefined && typeof isError !== 'boolean') return undefined;
  // The keys in the order the SDK's answer has them: the schema's (content, structuredContent, isError), then what the dispatch appends.
  const stamped: Record<string, unknown> = { content };
  if (structuredContent !== undefined) stamped.structuredContent = structuredContent;
  if (isError !== undefined) stamped.isError = isError;
  stamped.resultType = 'complete';
  if (serverInfo !== undefined) stamped._meta = { [SERVER_INFO_META_KEY]: serverInfo };
  return stamped;
}

/** A text content item with nothing but its type and its text. */
function isPlainText(item: unknown): boolean {
  if (!isObject(item)) return false;
  let keys = 0;
  for (const key in item) {
    if (key !== 'type' && key !== 'text') return false;
    keys++;
  }
  return keys === 2 && item.type === 'text' && typeof item.text === 'string';
}
