/**
 * One minted SDK server answering many 2026-07-28 HTTP exchanges at once —
 * the HTTP app's fast path (`fastPath.ts`).
 *
 * The SDK's own per-request serving mints a server and a transport for every
 * request and converts the exchange to and from fetch `Request`/`Response`
 * objects and web streams. The fast path keeps the SDK as the one place where
 * the protocol happens — request validation, the server's handlers (the tool
 * table, middleware, time limits, spans), result encoding — and drops only
 * the per-request scaffolding: a server minted once per blueprint, selection,
 * revision and client identity stays connected to this transport, which
 * delivers each exchange's message and routes the answer (and anything
 * streamed before it) back to that exchange by its JSON-RPC id.
 *
 * It extends the SDK's `PerRequestHTTPServerTransport` because the server
 * binds itself to the classified 2026-07-28 revision only when connected to
 * one; every exchange method is its own. A request the server refuses while
 * the message is being delivered (before any handler runs: an era mismatch,
 * an unknown method, a bad envelope) is reported as `refused`, so the caller
 * can let the SDK's per-request path answer it — with the HTTP status the SDK
 * gives those refusals — having run nothing.
 */
import {
  type McpServer,
  PerRequestHTTPServerTransport,
  SdkError,
  SdkErrorCode,
  type AuthInfo,
  type JSONRPCMessage,
  type JSONRPCRequest,
  type JSONRPCResponse,
  type MessageExtraInfo,
  type TransportSendOptions,
} from '@modelcontextprotocol/server';
import { DeferringControllers } from './deferredAbort.js';
import {
  abortControllersOf,
  discoverAnswerOf,
  isStockServer,
  replaceAbortControllers,
  requestEntryOf,
  setClientIdentity,
  setSupportedProtocolVersions,
  supportedProtocolVersionsOf,
} from '../../../host/mint/sdkInternals.js';

/** Where an exchange's outgoing messages go. */
export interface ExchangeSink {
  /** A message related to the request before its answer (a log line, progress): the SDK streams these as SSE. */
  related(message: JSONRPCMessage): void;
  /** The answer (result or error). */
  answer(message: JSONRPCMessage): void;
  /** The transport closed before the answer (the app is closing): the SDK's per-request path answers 499 then. */
  closed(): void;
}

/** What delivering one message did. */
export type ExchangeOutcome = { readonly kind: 'dispatched'; cancel(): void } | { readonly kind: 'refused' };

type Classification = ConstructorParameters<typeof PerRequestHTTPServerTransport>[0]['classification'];

/**
 * The exchanges in flight on one shared transport, by the client's own id
 * (handlers, spans and logs see the id the client sent, as on the
 * per-request path), and where a server's outgoing message belongs. Both
 * shared transports (2026-07-28 here, 2025 in `legacyExchange.ts`) route
 * through one.
 */
export class OpenExchanges<E extends { readonly sink: ExchangeSink }> {
  readonly #open = new Map<string | number, E>();

  /** How many exchanges are open. */
  get size(): number {
    return this.#open.size;
  }

  has(id: string | number): boolean {
    return this.#open.has(id);
  }

  /** Opens an exchange; returns the outcome of a dispatched one, whose `cancel` forgets it and aborts its handler (unless it ended). */
  open(id: string | number, exchange: E, abort: (id: string | number) => void): ExchangeOutcome {
    this.#open.set(id, exchange);
    return {
      kind: 'dispatched',
      cancel: () => {
        if (this.#open.get(id) !== exchange) return;
        this.#open.delete(id);
        abort(id);
      },
    };
  }

  /**
   * The exchange an outgoing message belongs to: a message related to a
   * request goes to it as it is; an answer also ends it. `undefined` for a
   * message of no open exchange (one that ended or was cancelled).
   */
  route(message: JSONRPCMessage, options: TransportSendOptions | undefined): { readonly exchange: E; readonly answer: boolean } | undefined {
    const answer = isAnswer(message);
    const id = answer ? message.id : options?.relatedRequestId;
    const exchange = id === undefined ? undefined : this.#open.get(id);
    if (!exchange) return undefined;
    if (answer) this.#open.delete(id!);
    return { exchange, answer };
  }

  /** The transport closed: tells its server (`onclose`), then every open exchange's sink, and forgets them. */
  endAll(onclose: (() => void) | undefined): void {
    const open = [...this.#open.values()];
    this.#open.clear();
    onclose?.();
    for (const exchange of open) exchange.sink.closed();
  }
}

/**
 * Whether a message the server sends is an answer (a result or an error
 * response). The server sends only well-formed messages: requests and
 * notifications name a method, answers never do. Told apart by shape, not by
 * the SDK's schema guards, which parse the whole message with zod on every
 * answer — a cost the profile showed each call paying.
 */
function isAnswer(message: JSONRPCMessage): message is JSONRPCResponse {
  return !('method' in message) && 'id' in message;
}

interface OpenExchange {
  readonly sink: ExchangeSink;
  refused: boolean;
}

/**
 * How a shared transport hands its server one request; with `deferAbort`,
 * the controller the SDK makes for it gets a deferred signal
 * (`deferredAbort.ts`) — for a request whose signal only the host and the
 * SDK's dispatch can see.
 */
export type RequestDelivery = (message: JSONRPCRequest, extra: MessageExtraInfo, deferAbort: boolean) => void;

/**
 * Hands requests to `server` past the message dispatch its `connect`
 * installs as the transport's `onmessage`. That dispatch tells a request
 * from a response by parsing the message with the SDK's zod guards, up to
 * three per message, then calls the protocol's request entry,
 * `_onrequest` (documented for subclasses to override and delegate to).
 * The shared transports deliver only messages the SDK's own
 * `isJSONRPCRequest` accepted, so the dispatch's choice is known; calling the
 * entry directly skips only the parses. `undefined` when the server has no
 * such entry (then the transport's `onmessage` is used). Checked by the
 * differential test against the SDK's per-request path.
 *
 * A server of the SDK's own classes (no subclass that could read a
 * request's signal in its own dispatch or context) keeps its in-flight
 * controllers in a {@link DeferringControllers}, so a delivery can defer
 * its request's signal.
 */
export function requestDelivery(server: McpServer): RequestDelivery | undefined {
  const entry = requestEntryOf(server);
  if (entry === undefined) return undefined;
  const stock = isStockServer(server);
  const table = abortControllersOf(server);
  if (!stock || !table || table.size > 0) return entry;
  const controllers = new DeferringControllers();
  replaceAbortControllers(server, controllers);
  return (message, extra, deferAbort) => {
    if (deferAbort) controllers.arm();
    try {
      entry(message, extra);
    } finally {
      controllers.disarm();
    }
  };
}

/** The multi-exchange transport one shared server stays connected to. */
export class SharedExchangeTransport extends PerRequestHTTPServerTransport {
  readonly #open = new OpenExchanges<OpenExchange>();
  /** The classification given to the SDK's transport, kept here too: what it tells the server with each message. */
  readonly #classification: Classification;
  /** Set once connected (see {@link requestDelivery}). */
  deliver: RequestDelivery | undefined;
  /** The exchange whose message is being delivered: an answer sent now comes from the server's ladder, not a handler. */
  #delivering: OpenExchange | undefined;
  #closed = false;

  constructor(classification: Classification) {
    super({ classification, responseMode: 'auto' });
    this.#classification = classification;
  }

  /** How many exchanges are in flight on this transport. */
  get inFlight(): number {
    return this.#open.size;
  }

  /**
   * Delivers one request. Refused when the server answered it with an error
   * while the message was being delivered (no handler ran), when another
   * exchange with the same id is in flight on this server (two clients'
   * ids may meet; the per-request path serves the second), or when this
   * transport is closed.
   */
  exchange(message: JSONRPCRequest, extra: { request: Request; authInfo: AuthInfo | undefined }, sink: ExchangeSink, abort: (id: string | number) => void, deferAbort = false): ExchangeOutcome {
    const id = message.id;
    if (this.#closed || this.onmessage === undefined || this.#open.has(id)) return { kind: 'refused' };
    const open: OpenExchange = { sink, refused: false };
    const dispatched = this.#open.open(id, open, abort);
    const info: MessageExtraInfo = { classification: this.#classification, request: extra.request, ...(extra.authInfo ? { authInfo: extra.authInfo } : {}) };
    this.#delivering = open;
    try {
      if (this.deliver) this.deliver(message, info, deferAbort);
      else this.onmessage(message, info);
    } finally {
      this.#delivering = undefined;
    }
    return open.refused ? { kind: 'refused' } : dispatched;
  }

  override send(message: JSONRPCMessage, options?: TransportSendOptions): Promise<void> {
    const routed = this.#open.route(message, options);
    if (!routed) return Promise.resolve();
    const { exchange, answer } = routed;
    if (!answer) exchange.sink.related(message);
    // Sent synchronously from within `onmessage`: the server refused the message before any handler ran.
    else if (exchange === this.#delivering) exchange.refused = true;
    else exchange.sink.answer(message);
    return Promise.resolve();
  }

  override close(): Promise<void> {
    if (this.#closed) return Promise.resolve();
    this.#closed = true;
    this.#open.endAll(this.onclose);
    return Promise.resolve();
  }
}

/**
 * Aborts the in-flight handler of request `id` on `server` the way the
 * SDK's per-request path does when its client goes away (the transport
 * closes: `ctx.mcpReq.signal` aborts with a connection-closed error). The
 * SDK keeps the controllers on the protocol instance, reached through
 * `sdkInternals.ts`; checked by `test/fastPath.test.ts` (a tool's
 * `ctx.signal` when its client goes away, on both paths).
 */
export function abortHandler(server: McpServer, id: string | number): void {
  abortControllersOf(server)?.get(id)?.abort(new SdkError(SdkErrorCode.ConnectionClosed, 'Connection closed'));
}

/**
 * Makes `server` serve the 2026-07-28 `revision` when connected to a
 * per-request-classified transport, as the SDK's per-request entry does for
 * each server it serves (its package-internal `installModernOnlyHandlers`):
 * the revision joins the server's supported versions (without it the server
 * stays unbound) and `server/discover` is answered. Checked by
 * `sharedExchange.test.ts` (the shared server binds to the revision) and by
 * `test/fastPath.differential.test.ts` against the SDK's own per-request
 * answers.
 */
export function serveModernRevision(server: McpServer, revision: string): void {
  const versions = supportedProtocolVersionsOf(server);
  const discover = discoverAnswerOf(server);
  if (!versions || !discover) return;
  if (!versions.includes(revision)) setSupportedProtocolVersions(server, [...versions, revision]);
  server.server.setRequestHandler('server/discover', () => discover() as never);
}

/**
 * Seeds a shared server with the client identity of the per-request envelope,
 * as the SDK's per-request path does for each of its servers (shared servers
 * are keyed by that identity, so it never changes under a server).
 */
export function seedClientIdentity(server: McpServer, clientInfo: unknown, clientCapabilities: unknown): void {
  setClientIdentity(server, clientInfo, clientCapabilities);
}
