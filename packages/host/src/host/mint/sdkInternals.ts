/**
 * What the host knows of the MCP SDK beyond its public surface, in one place.
 *
 * The core (the mint) records here the `tools/call` handler it registered on
 * each server, and the fast path (`serve/http/fast/`) reads it back: a seam
 * the core writes without importing the fast path. Every private field or
 * method of the SDK the host's source reads or replaces is named in this file
 * only (tests that poke them aside), behind a small accessor, checked against
 * {@link SDK_CHECKED_VERSION}; `sdkInternals.test.ts` mints a real server and
 * fails, naming the field, when an SDK upgrade moves one. Each accessor
 * checks the field's type and answers `undefined` when it is missing or
 * mistyped, so its caller falls back to the SDK's public path: a moved field
 * costs speed, never an answer. (The one write that cannot tell is
 * {@link setClientIdentity}: the test checks the SDK's getters read it.)
 *
 * The accessors are read once when a shared server is set up; the few read
 * per request (the lean dispatch's {@link SdkDispatch}, the lean
 * `tools/call`'s server identity) are one property read or call behind a
 * tiny function, which V8 inlines, and allocate nothing per request.
 */
import { McpServer, Server, type JSONRPCRequest, type MessageExtraInfo, type ServerContext } from '@modelcontextprotocol/server';

/**
 * The `@modelcontextprotocol/server` version whose internals the accessors
 * below were checked against. `sdkInternals.test.ts` fails while another is
 * installed: re-check each field named here in the new SDK, then update this.
 */
export const SDK_CHECKED_VERSION = '2.4.0';

/** A low-level request handler, as the SDK stores one. */
export type RequestHandler = (request: ToolsCallRequest, ctx: ServerContext) => Promise<unknown>;
type ToolsCallRequest = { readonly method: string; readonly params?: unknown };

/** What an era codec's `validateResult` answers. */
export type CodecValidation = { ok: true; value: unknown } | { ok: false; reason: string; message?: string };

/** The SDK's wire codec of one protocol era (a plain object of functions): what the fast path calls of it. */
export interface WireCodec {
  /** The dispatch's check of a request's `_meta` envelope: `undefined`, or the refusal's text. */
  checkInboundEnvelope(material: { readonly envelope?: Record<string, unknown> }): string | undefined;
  encodeResult(method: string, result: unknown, serverInfo: unknown): unknown;
  encodeErrorCode(code: number): number;
  validateResult(method: string, value: unknown): CodecValidation;
}

/** The SDK's transport as its protocol holds it (`Protocol#_transport`). */
export interface SdkTransport {
  readonly sessionId?: string;
  send(message: unknown): Promise<void>;
}

type SendOptions = Record<string, unknown> | undefined;

/** `Server#buildContext(ctx, transportInfo)`: the documented override point where a server makes each handler context (from the base context its dispatch made). */
export type BuildContext = (this: Server, ctx: unknown, transportInfo?: MessageExtraInfo) => ServerContext;

/**
 * The private (and protected) members of the SDK's low-level `Server` and its
 * `Protocol` that the host reads, as 2.4 declares them; each read through
 * an accessor below that checks its type first.
 */
interface ServerInternals {
  /** `Protocol#_requestHandlers`: method → the SDK's wrapper around a handler. */
  _requestHandlers?: unknown;
  /** `Protocol#_wrapHandler(method, handler)`: how `setRequestHandler` wraps one. */
  _wrapHandler?: unknown;
  /** `Server#_outboundServerInfo()`: the server identity stamped into a 2026-07-28 result's `_meta`. */
  _outboundServerInfo?: unknown;
  /** `Protocol#_onrequest(message, extra)`: the request entry of the message dispatch. */
  _onrequest?: unknown;
  /** `Protocol#_requestHandlerAbortControllers`: in-flight requests' controllers, by id (replaced by a new `Map` when the connection closes). */
  _requestHandlerAbortControllers?: unknown;
  /** `Protocol#_supportedProtocolVersions`. */
  _supportedProtocolVersions?: unknown;
  /** `Server#_ondiscover()`: the `server/discover` answer. */
  _ondiscover?: unknown;
  /** `Server#_clientCapabilities` / `_clientVersion`: what `initialize` (or a per-request envelope) recorded. */
  _clientCapabilities?: unknown;
  _clientVersion?: unknown;
  /** `Protocol#_negotiatedWireCodec()`: the codec of the negotiated era. */
  _negotiatedWireCodec?: unknown;
  /** `Protocol#_negotiatedProtocolVersion`. */
  _negotiatedProtocolVersion?: unknown;
  /** `Protocol#_transport`. */
  _transport?: unknown;
  /** `Protocol#_resolveOutboundCodec(method)`, `_assertOutboundRequestInEra(codec, method)`, `_notificationViaCodec(…)`, `_requestWithSchemaViaCodec(…)`, `_onerror(error)`. */
  _resolveOutboundCodec?: unknown;
  _assertOutboundRequestInEra?: unknown;
  _notificationViaCodec?: unknown;
  _requestWithSchemaViaCodec?: unknown;
  _onerror?: unknown;
  /** `Server#buildContext(ctx, transportInfo)` (protected). */
  buildContext?: unknown;
}

/** `server`'s low-level server, read as its internals. */
function internalsOf(server: McpServer): ServerInternals {
  return server.server as unknown as ServerInternals;
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

/** `server`'s request handlers by method, as `setRequestHandler` stored them (the SDK's wrappers); the live table, not a copy. */
export function requestHandlersOf(server: McpServer): Map<string, RequestHandler> | undefined {
  const handlers = internalsOf(server)._requestHandlers;
  return handlers instanceof Map ? (handlers as Map<string, RequestHandler>) : undefined;
}

/** `server`'s own wrapping of a handler (`setRequestHandler`'s, without storing it): its checks and conversions around `handler`. */
export function wrapHandlerOf(server: McpServer): ((method: string, handler: RequestHandler) => RequestHandler) | undefined {
  const low = internalsOf(server);
  const wrap = low._wrapHandler;
  if (typeof wrap !== 'function') return undefined;
  return (method, handler) => wrap.call(low, method, handler) as RequestHandler;
}

/** The server identity `server` stamps into each 2026-07-28 result's `_meta`, asked when called. */
export function outboundServerInfoOf(server: McpServer): (() => unknown) | undefined {
  const low = internalsOf(server);
  const info = low._outboundServerInfo;
  if (typeof info !== 'function') return undefined;
  return () => info.call(low) as unknown;
}

/**
 * `server`'s request entry (`_onrequest`, documented for subclasses to
 * override and delegate to): what its message dispatch calls for a message
 * it has parsed as a request.
 */
export function requestEntryOf(server: McpServer): ((message: JSONRPCRequest, extra?: MessageExtraInfo) => void) | undefined {
  const low = internalsOf(server);
  const entry = low._onrequest;
  if (typeof entry !== 'function') return undefined;
  return (message, extra) => void entry.call(low, message, extra);
}

/** `server`'s table of in-flight requests' abort controllers by request id, as it stands now (the SDK makes a new one when the connection closes). */
export function abortControllersOf(server: McpServer): Map<string | number, AbortController> | undefined {
  const controllers = internalsOf(server)._requestHandlerAbortControllers;
  return controllers instanceof Map ? (controllers as Map<string | number, AbortController>) : undefined;
}

/** Makes `controllers` `server`'s table of in-flight controllers (for a server with none in flight). */
export function replaceAbortControllers(server: McpServer, controllers: Map<string | number, AbortController>): void {
  internalsOf(server)._requestHandlerAbortControllers = controllers;
}

/** The protocol versions `server` accepts (the SDK binds a per-request connection to one of these only). */
export function supportedProtocolVersionsOf(server: McpServer): readonly string[] | undefined {
  const versions = internalsOf(server)._supportedProtocolVersions;
  return Array.isArray(versions) ? (versions as string[]) : undefined;
}

/** Sets the protocol versions `server` accepts. */
export function setSupportedProtocolVersions(server: McpServer, versions: string[]): void {
  internalsOf(server)._supportedProtocolVersions = versions;
}

/** `server`'s own `server/discover` answer (what the SDK's per-request entry registers for it), asked when called. */
export function discoverAnswerOf(server: McpServer): (() => unknown) | undefined {
  const low = internalsOf(server);
  if (typeof low._ondiscover !== 'function') return undefined;
  return () => (low._ondiscover as () => unknown)();
}

/** Records on `server` the client identity `initialize` would have (each when given): what its public `getClientCapabilities()` and `getClientVersion()` answer. */
export function setClientIdentity(server: McpServer, clientInfo: unknown, clientCapabilities: unknown): void {
  const low = internalsOf(server);
  if (clientCapabilities !== undefined) low._clientCapabilities = clientCapabilities;
  if (clientInfo !== undefined) low._clientVersion = clientInfo;
}

/** `Protocol#_negotiatedWireCodec`, called with its server as `this`. */
export type WireCodecOf = (this: unknown) => WireCodec;

/** `server`'s `_negotiatedWireCodec` as its class defines it; `undefined` when missing or already replaced on the instance. */
export function classWireCodecOf(server: McpServer): WireCodecOf | undefined {
  const low = internalsOf(server);
  const codecOf = low._negotiatedWireCodec;
  return typeof codecOf === 'function' && !Object.hasOwn(low, '_negotiatedWireCodec') ? (codecOf as WireCodecOf) : undefined;
}

/** Puts `codecOf` on `server`'s low-level server in place of its class's `_negotiatedWireCodec` (every codec its dispatch asks for comes through it). */
export function replaceWireCodecOf(server: McpServer, codecOf: WireCodecOf): void {
  Object.defineProperty(internalsOf(server), '_negotiatedWireCodec', { value: codecOf, configurable: true, writable: true });
}

const classBuildContext = (Server.prototype as unknown as ServerInternals).buildContext;

/** The SDK's own `Server#buildContext`, as its class defines it; `undefined` if the class has none. */
export const SDK_BUILD_CONTEXT: BuildContext | undefined = typeof classBuildContext === 'function' ? (classBuildContext as BuildContext) : undefined;

/** Whether `server`'s low-level server is of the SDK's own `Server` class and still builds its contexts with {@link SDK_BUILD_CONTEXT}. */
export function buildsSdkContexts(server: McpServer): boolean {
  return SDK_BUILD_CONTEXT !== undefined && Object.getPrototypeOf(server.server) === Server.prototype && internalsOf(server).buildContext === SDK_BUILD_CONTEXT;
}

/** Puts `build` on `server`'s low-level server in place of its class's `buildContext` (whatever base context and transport information it is written for). */
export function replaceBuildContext(server: McpServer, build: (this: Server, ...args: never[]) => ServerContext): void {
  Object.defineProperty(internalsOf(server), 'buildContext', { value: build, configurable: true, writable: true, enumerable: false });
}

/** The members of the SDK's `Protocol` {@link SdkDispatch} calls; each must be a function. */
const DISPATCH_METHODS = ['_negotiatedWireCodec', '_resolveOutboundCodec', '_assertOutboundRequestInEra', '_notificationViaCodec', '_requestWithSchemaViaCodec', '_outboundServerInfo', '_onerror', 'buildContext'] as const;

/** {@link ServerInternals} with the members {@link SdkDispatch} reads, as it reads them (checked by {@link dispatchOf}). */
interface DispatchInternals {
  _negotiatedProtocolVersion?: string;
  _requestHandlers: Map<string, RequestHandler>;
  _transport?: SdkTransport;
  _negotiatedWireCodec(): WireCodec;
  _resolveOutboundCodec(method: string): WireCodec;
  _assertOutboundRequestInEra(codec: WireCodec, method: string): void;
  _notificationViaCodec(codec: WireCodec, notification: { method: string }, options: SendOptions): Promise<void>;
  _requestWithSchemaViaCodec(codec: WireCodec, request: { method: string }, schema: unknown, options: SendOptions): Promise<unknown>;
  _outboundServerInfo(): unknown;
  _onerror(error: Error): void;
  buildContext(base: unknown, extra: MessageExtraInfo): ServerContext;
}

/**
 * The steps of the SDK's request dispatch (`Protocol#_onrequest`) on one
 * server, for a dispatch that takes them itself (`leanDispatch.ts`). Each
 * reads the member when called, not when made, so a method replaced on the
 * server since (`replaceWireCodecOf`, `replaceBuildContext`) is the one used.
 * One per server; nothing is allocated per call.
 */
export class SdkDispatch {
  readonly #low: DispatchInternals;

  /** Made by {@link dispatchOf} only. */
  constructor(low: DispatchInternals) {
    this.#low = low;
  }

  /** The protocol version the server negotiated (bound to). */
  negotiatedProtocolVersion(): string | undefined {
    return this.#low._negotiatedProtocolVersion;
  }

  /** The handler stored for `method`. */
  handlerFor(method: string): RequestHandler | undefined {
    return this.#low._requestHandlers.get(method);
  }

  /** The transport the server is connected to. */
  transport(): SdkTransport | undefined {
    return this.#low._transport;
  }

  /** The codec of the negotiated era (what the dispatch checks the envelope and encodes the answer with). */
  negotiatedCodec(): WireCodec {
    return this.#low._negotiatedWireCodec();
  }

  /** The codec an outgoing message of `method` is sent with. */
  outboundCodec(method: string): WireCodec {
    return this.#low._resolveOutboundCodec(method);
  }

  /** Throws when `method` cannot be sent in `codec`'s era. */
  assertOutboundRequestInEra(codec: WireCodec, method: string): void {
    this.#low._assertOutboundRequestInEra(codec, method);
  }

  /** Sends a notification through `codec` (what `ctx.mcpReq.notify` does). */
  notify(codec: WireCodec, notification: { method: string }, options: SendOptions): Promise<void> {
    return this.#low._notificationViaCodec(codec, notification, options);
  }

  /** Sends a request through `codec` and checks its result with `schema` (what `ctx.mcpReq.send` does). */
  request(codec: WireCodec, request: { method: string }, schema: unknown, options: SendOptions): Promise<unknown> {
    return this.#low._requestWithSchemaViaCodec(codec, request, schema, options);
  }

  /** The server identity stamped into a 2026-07-28 result's `_meta`. */
  serverInfo(): unknown {
    return this.#low._outboundServerInfo();
  }

  /** Reports an error out of band, as the dispatch does (to `onerror`). */
  reportError(error: Error): void {
    this.#low._onerror(error);
  }

  /** The handler context the server builds over `base`. */
  buildContext(base: unknown, extra: MessageExtraInfo): ServerContext {
    return this.#low.buildContext(base, extra);
  }
}

/** The dispatch steps of `server` (see {@link SdkDispatch}); `undefined` when its low-level server lacks one of the members they call. */
export function dispatchOf(server: McpServer): SdkDispatch | undefined {
  const low = internalsOf(server);
  if (!(low._requestHandlers instanceof Map) || DISPATCH_METHODS.some((name) => typeof low[name] !== 'function')) return undefined;
  return new SdkDispatch(low as unknown as DispatchInternals);
}

/** The host's own `tools/call` handler on a minted server, and the SDK's wrapper around it as `setRequestHandler` stored it. */
export interface RememberedToolsCall {
  /** The host's handler: its answer at once when it has one (a synchronous tool's), else a promise; never a throw. */
  readonly handler: (request: ToolsCallRequest, ctx: ServerContext) => unknown;
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
export function rememberToolsCall<R>(server: McpServer, handler: (request: R, ctx: ServerContext) => unknown): void {
  const handlers = requestHandlersOf(server);
  if (!handlers) return;
  const remembered: RememberedToolsCall = { handler: handler as RememberedToolsCall['handler'], wrapper: handlers.get('tools/call') };
  Object.defineProperty(server, TOOLS_CALL, { value: remembered, configurable: true });
}

/** What {@link rememberToolsCall} recorded on `server`, if anything. */
export function rememberedToolsCall(server: McpServer): RememberedToolsCall | undefined {
  return (server as McpServer & { [TOOLS_CALL]?: RememberedToolsCall })[TOOLS_CALL];
}

/**
 * Lets `server`'s `tools/call` answer a result its handler throws as an
 * {@link AnswerInstead} — the tasks extension's `CreateTaskResult`, which the
 * SDK's wrapper (see `_wrapHandler`) would fill with `content: []` and parse
 * as a `CallToolResult`. The SDK's wrapper stays in place around the handler;
 * this one only catches that throw. Called before {@link rememberToolsCall}.
 */
export function answerThrownResults(server: McpServer): void {
  const handlers = requestHandlersOf(server);
  const wrapper = handlers?.get('tools/call');
  if (!handlers || typeof wrapper !== 'function') return;
  handlers.set('tools/call', async (request, ctx) => {
    try {
      return await wrapper(request, ctx);
    } catch (thrown) {
      if (thrown instanceof AnswerInstead) return thrown.result;
      throw thrown;
    }
  });
}

/** Thrown by a `tools/call` handler to answer `result` as it is (see {@link answerThrownResults}). Not an `Error`: no stack is captured. */
export class AnswerInstead {
  constructor(readonly result: Record<string, unknown>) {}
}
