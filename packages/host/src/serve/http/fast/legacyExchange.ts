/**
 * One minted SDK server answering many 2025 stateless HTTP exchanges at once
 * — the HTTP app's fast path for 2025-era clients without a session.
 *
 * The SDK's stateless 2025 serving (`legacyStatelessFallback`) mints a
 * server and a `WebStandardStreamableHTTPServerTransport` for every request,
 * never initializes it, and streams the request's messages back as SSE. A
 * server that is never initialized keeps no per-client state for the
 * methods the fast path sends it (the lists, `tools/call`, `resources/read`,
 * `prompts/get`: none of them writes to the server), so one server per
 * blueprint and selection, connected to this transport, answers each of
 * those requests as a fresh one would. Each exchange's messages are routed
 * back to it by JSON-RPC id: anything related to the request (a log line)
 * first, then its answer.
 *
 * Unlike the 2026-07-28 transport (`sharedExchange.ts`), nothing here is
 * refused for the per-request path: the SDK's stateless path has already
 * committed to `200` and an event stream by the time its server sees the
 * message, so the server's own refusals (an unknown method, bad params)
 * travel in the stream on both paths alike.
 */
import { SUPPORTED_PROTOCOL_VERSIONS, type AuthInfo, type JSONRPCMessage, type JSONRPCRequest, type Transport, type TransportSendOptions } from '@modelcontextprotocol/server';
import { OpenExchanges, type ExchangeOutcome, type ExchangeSink, type RequestDelivery } from './sharedExchange.js';

export class LegacyExchangeTransport implements Transport {
  onclose?: (() => void) | undefined;
  onerror?: ((error: Error) => void) | undefined;
  onmessage?: Transport['onmessage'];
  /** Set once connected (see `requestDelivery` in sharedExchange.ts). */
  deliver: RequestDelivery | undefined;
  readonly #open = new OpenExchanges<{ readonly sink: ExchangeSink }>();
  #versions: readonly string[] = SUPPORTED_PROTOCOL_VERSIONS;
  #closed = false;

  /** How many exchanges are in flight on this transport. */
  get inFlight(): number {
    return this.#open.size;
  }

  start(): Promise<void> {
    return Promise.resolve();
  }

  /** The server tells its transport the versions it speaks; the SDK's transport answers 400 to a header naming another. */
  setSupportedProtocolVersions(versions: string[]): void {
    this.#versions = [...versions];
  }

  /** Whether a request with this `MCP-Protocol-Version` header passes the SDK transport's version check (absent: the default version). */
  acceptsVersion(header: string | undefined): boolean {
    return header === undefined || this.#versions.includes(header);
  }

  /**
   * Delivers one request. Refused only when another exchange with the same
   * id is in flight on this server (two clients' ids may meet; the
   * per-request path serves the second) or the transport is closed.
   */
  exchange(message: JSONRPCRequest, extra: { request: Request; authInfo: AuthInfo | undefined }, sink: ExchangeSink, abort: (id: string | number) => void, deferAbort = false): ExchangeOutcome {
    const id = message.id;
    if (this.#closed || this.onmessage === undefined || this.#open.has(id)) return { kind: 'refused' };
    const dispatched = this.#open.open(id, { sink }, abort);
    const info = { request: extra.request, ...(extra.authInfo ? { authInfo: extra.authInfo } : {}) };
    if (this.deliver) this.deliver(message, info, deferAbort);
    else this.onmessage(message, info);
    return dispatched;
  }

  send(message: JSONRPCMessage, options?: TransportSendOptions): Promise<void> {
    const routed = this.#open.route(message, options);
    if (routed?.answer) routed.exchange.sink.answer(message);
    else routed?.exchange.sink.related(message);
    return Promise.resolve();
  }

  close(): Promise<void> {
    if (this.#closed) return Promise.resolve();
    this.#closed = true;
    this.#open.endAll(this.onclose);
    return Promise.resolve();
  }
}
