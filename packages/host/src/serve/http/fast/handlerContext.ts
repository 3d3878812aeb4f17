/**
 * A shared server's handler contexts, built without object spreads.
 *
 * The SDK's `Server#buildContext` (the documented override point where a
 * server makes each request's handler context) builds it with literals that
 * begin with a spread and add keys: `{ ...ctx, mcpReq: { ...ctx.mcpReq, log,
 * … }, http: { ...ctx.http, req, … } }`. On Node 20 (V8 11.3) such an object
 * gets a map of its own, and that keeps what it reaches — the request, its
 * HTTP exchange — alive through young-generation collections until a full
 * one. Copying the base objects and then adding the closures does the same.
 * In the benchmark, the SDK's dispatch cut short just after `buildContext`
 * promoted 2.7% of all a `tools/call` allocated, and cut short just before
 * it, nothing (`--trace-gc-nvp`).
 *
 * {@link buildContextWithoutSpreads} replaces the method on a shared server
 * of the SDK's own `Server` class (never on a subclass, whose override is its
 * own) with one that makes the same objects — the same keys in the same
 * order, the same values — each with one literal, for the contexts the SDK's
 * `_onrequest` makes without input responses; any other it hands to the SDK's
 * method. `elicitInput` and `requestSampling` call the same public methods
 * the SDK's closures call; `log` asks the SDK's own `buildContext` for its
 * `log` when a handler logs (the rare case), so the level rules stay the
 * SDK's. `handlerContext.test.ts` holds the two to the same objects; the fast
 * path's differential test compares the answers with the per-request path,
 * which keeps the SDK's method.
 */
import type { McpServer, MessageExtraInfo, Server, ServerContext } from '@modelcontextprotocol/server';
import { buildsSdkContexts, replaceBuildContext, SDK_BUILD_CONTEXT, type BuildContext } from '../../../host/mint/sdkInternals.js';

/** The SDK's context before `buildContext` (its `BaseContext`, as `_onrequest` makes it). */
type BaseContext = Omit<ServerContext, 'mcpReq' | 'http'> & { mcpReq: Omit<ServerContext['mcpReq'], 'log' | 'elicitInput' | 'requestSampling'>; http?: ServerContext['http'] };
type ExtraInfo = MessageExtraInfo & { closeSSEStream?: unknown; closeStandaloneSSEStream?: unknown };

/** The SDK's own method, as its class defines it (there whenever a server was changed: {@link buildContextWithoutSpreads} checks). */
const sdkBuildContext = SDK_BUILD_CONTEXT as BuildContext;

/** Makes `server` build its handler contexts without spreads (see above); false, and nothing changed, for a server of another class. */
export function buildContextWithoutSpreads(server: McpServer): boolean {
  if (!buildsSdkContexts(server)) return false;
  replaceBuildContext(server, contextWithoutSpreads);
  return true;
}

/** The keys of the `mcpReq` `_onrequest` makes, in its order: for a request with an envelope (2026-07-28) and for one without (2025); others are the SDK's to build. */
const MODERN_KEYS = ['id', 'method', '_meta', 'envelope', 'requestState', 'signal', 'send', 'notify'] as const;
const LEGACY_KEYS = ['id', 'method', '_meta', 'requestState', 'signal', 'send', 'notify'] as const;
/** The keys of the context `_onrequest` makes, and of its `http` (made only with auth). */
const CONTEXT_KEYS = ['sessionId', 'mcpReq', 'http'] as const;
const HTTP_KEYS = ['authInfo'] as const;

/**
 * `Server#buildContext`, key for key, for the contexts `_onrequest` makes
 * with none of its optional `mcpReq` keys but the envelope (every request
 * that carries no input responses); other contexts are built by the SDK's
 * own method. One literal for each object, not copies with keys added: on
 * Node 20 a copy given a closure per request kept that request alive through
 * young-generation collections, as the spreads did.
 */
function contextWithoutSpreads(this: Server, ctx: BaseContext, transportInfo?: ExtraInfo): ServerContext {
  const base = ctx.mcpReq as Record<string, unknown>;
  const modern = hasKeys(base, MODERN_KEYS);
  if ((!modern && !hasKeys(base, LEGACY_KEYS)) || !hasKeys(ctx, CONTEXT_KEYS) || (ctx.http !== undefined && !hasKeys(ctx.http, HTTP_KEYS))) return sdkBuildContext.call(this, ctx, transportInfo);
  const server = this as unknown as { elicitInput(params: unknown, options: unknown): unknown; createMessage(params: unknown, options: unknown): unknown };
  const log = (level: unknown, data: unknown, logger?: unknown) => (sdkBuildContext.call(this, ctx, transportInfo).mcpReq.log as (...args: unknown[]) => Promise<void>)(level, data, logger);
  const elicitInput = (params: unknown, options: unknown) => server.elicitInput(params, options);
  const requestSampling = (params: unknown, options: unknown) => server.createMessage(params, options);
  const { id, method, _meta, requestState, signal, send, notify } = base;
  const mcpReq = modern
    ? { id, method, _meta, envelope: base.envelope, requestState, signal, send, notify, log, elicitInput, requestSampling }
    : { id, method, _meta, requestState, signal, send, notify, log, elicitInput, requestSampling };
  const req = transportInfo?.request;
  const closeSSE = transportInfo?.closeSSEStream;
  const closeStandaloneSSE = transportInfo?.closeStandaloneSSEStream;
  const http = !(ctx.http || req || closeSSE || closeStandaloneSSE) ? undefined : ctx.http === undefined ? { req, closeSSE, closeStandaloneSSE } : { authInfo: ctx.http.authInfo, req, closeSSE, closeStandaloneSSE };
  return { sessionId: ctx.sessionId, mcpReq, http } as unknown as ServerContext;
}

/**
 * Whether `object`'s own enumerable string keys are exactly `keys`, in order.
 * `Object.keys`, not `Reflect.ownKeys`: the latter is a call into the runtime,
 * about ten times the cost, and this runs three or four times a call. Keys it
 * would add (symbols, hidden ones) the SDK's `_onrequest` does not make — a
 * test holds it to that (`handlerContext.test.ts`), so an SDK that began to
 * would fail there, not here.
 */
function hasKeys(object: object, keys: readonly string[]): boolean {
  const own = Object.keys(object);
  if (own.length !== keys.length) return false;
  for (let at = 0; at < keys.length; at++) if (own[at] !== keys[at]) return false;
  return true;
}
