/**
 * What the host knows of the MCP SDK beyond its public surface, in one place.
 *
 * The core (the mint) records here the `tools/call` handler it registered on
 * each server, and the fast path (`serve/http/fast/`) reads it back: a seam
 * the core writes without importing the fast path. Every module that reads a
 * private field of the SDK's `Server` names it in {@link SdkServerInternals},
 * checked against {@link SDK_CHECKED_VERSION}; `sdkInternals.test.ts` mints a
 * real server and fails, naming the field, when an SDK upgrade moves one.
 * Each reader still checks a field's type before use and falls back to the
 * SDK's public path when it is missing, so a moved field costs speed, never
 * an answer.
 */
import { McpServer, Server, type ServerContext } from '@modelcontextprotocol/server';

/** The `@modelcontextprotocol/server` version whose internals the readers below were checked against. */
export const SDK_CHECKED_VERSION = '2.4.0';

/** The private fields of the SDK's low-level `Server` (its `Protocol`) that the host reads; each optional, each checked before use. */
export interface SdkServerInternals {
  /** `Protocol#_requestHandlers`: method → the SDK's wrapper around a handler. */
  _requestHandlers?: unknown;
  /** `Protocol#_wrapHandler(method, handler)`: how `setRequestHandler` wraps one. */
  _wrapHandler?: unknown;
  /** `Server#_outboundServerInfo()`: the server identity stamped into a 2026-07-28 result's `_meta`. */
  _outboundServerInfo?: unknown;
  /** `Protocol#_onrequest(message, extra)`: the request dispatch. */
  _onrequest?: unknown;
  /** `Protocol#_requestHandlerAbortControllers`: in-flight requests' controllers, by id. */
  _requestHandlerAbortControllers?: unknown;
  /** `Server#_supportedProtocolVersions`. */
  _supportedProtocolVersions?: unknown;
  /** `Server#_ondiscover`: the `server/discover` answer. */
  _ondiscover?: unknown;
  /** `Server#_clientCapabilities` / `_clientVersion`: what `initialize` recorded. */
  _clientCapabilities?: unknown;
  _clientVersion?: unknown;
  /** `Protocol#_negotiatedWireCodec`: the codec an envelope negotiated. */
  _negotiatedWireCodec?: unknown;
}

/** `server`'s low-level server, read as its internals. */
export function internalsOf(server: McpServer): SdkServerInternals {
  return server.server as unknown as SdkServerInternals;
}

/**
 * Whether `server` and its low-level server are of the SDK's own classes,
 * not subclasses: what the host changes on a shared server (its controller
 * table, its `tools/call` wrapper) it changes only where no subclass could
 * depend on the SDK's behaviour in its own overrides.
 */
export function isStockServer(server: McpServer): boolean {
  return Object.getPrototypeOf(server) === McpServer.prototype && Object.getPrototypeOf(server.server) === Server.prototype;
}

/** A low-level request handler, as the SDK stores one. */
export type RequestHandler = (request: ToolsCallRequest, ctx: ServerContext) => Promise<unknown>;
type ToolsCallRequest = { readonly method: string; readonly params?: unknown };

/** The host's own `tools/call` handler on a minted server, and the SDK's wrapper around it as `setRequestHandler` stored it. */
export interface RememberedToolsCall {
  readonly handler: RequestHandler;
  readonly wrapper: unknown;
}

/** Where a minted server keeps its {@link RememberedToolsCall}: a property no one else names. */
const TOOLS_CALL: unique symbol = Symbol('reactor.toolsCall');

/**
 * Records the `tools/call` handler the mint just registered on `server`, so
 * a shared server can answer through it (`serve/http/fast/leanToolsCall.ts`).
 * The lean path calls it only with requests it checked: a `name` and at most
 * an object of `arguments`, which is all the host's handler reads.
 */
export function rememberToolsCall<R>(server: McpServer, handler: (request: R, ctx: ServerContext) => Promise<unknown>): void {
  const handlers = internalsOf(server)._requestHandlers;
  if (!(handlers instanceof Map)) return;
  const remembered: RememberedToolsCall = { handler: handler as unknown as RequestHandler, wrapper: handlers.get('tools/call') };
  Object.defineProperty(server, TOOLS_CALL, { value: remembered, configurable: true });
}

/** What {@link rememberToolsCall} recorded on `server`, if anything. */
export function rememberedToolsCall(server: McpServer): RememberedToolsCall | undefined {
  return (server as McpServer & { [TOOLS_CALL]?: RememberedToolsCall })[TOOLS_CALL];
}
