/**
 * What one HTTP request carries between the app and the spans recorded while
 * answering it, through an AsyncLocalStorage (the SDK transport calls the
 * server's handlers inside the request's async context): the W3C trace
 * context of the request's headers in, the span's ids out for the access log.
 */
import { AsyncLocalStorage } from 'node:async_hooks';

/** One HTTP request's record. */
export interface RequestRecord {
  /** `traceparent`/`tracestate` from the HTTP headers, continued when `params._meta` carries none. */
  readonly traceHeaders: Record<string, string> | undefined;
  /** The `network.transport` of the request (`tcp` for HTTP). */
  readonly transport: string;
  /** Set by the first request span recorded (for the access log). */
  traceId?: string;
  spanId?: string;
  /** The active toolsets that answered, comma-separated (for the access log). */
  toolsets?: string;
}

const storage = new AsyncLocalStorage<RequestRecord>();

/** Runs `fn` with `record` as the current request's. */
export function withRequestRecord<T>(record: RequestRecord, fn: () => T): T {
  return storage.run(record, fn);
}

/** The current request's record, when a request is being answered over HTTP. */
export function currentRequestRecord(): RequestRecord | undefined {
  return storage.getStore();
}

const NETWORK_TRANSPORT: unique symbol = Symbol('reactor.networkTransport');

/**
 * Marks a server whose one connection is not HTTP (stdio: `pipe`), so its
 * spans and metrics carry `network.transport` without a request record.
 */
export function markNetworkTransport(server: object, transport: string): void {
  Object.defineProperty(server, NETWORK_TRANSPORT, { value: transport, configurable: true });
}

/** What {@link markNetworkTransport} set on `server`, if anything. */
export function networkTransportOf(server: object): string | undefined {
  return (server as { [NETWORK_TRANSPORT]?: string })[NETWORK_TRANSPORT];
}
