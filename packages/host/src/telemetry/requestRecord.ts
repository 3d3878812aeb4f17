/**
 * What one HTTP request carries between the app and the spans recorded while
 * answering it: the W3C trace context of the request's headers in, the span's
 * ids out for the access log.
 *
 * No AsyncLocalStorage of our own: on Node 20 a store in use turns on promise
 * hooks for every promise of the process, a cost every request would pay
 * (see `pnpm bench --only telemetry`). A request span finds its record from the SDK's handler context
 * (`ctx.http.req`, the fetch `Request` the app answered); an INTERNAL span
 * (an `onServer` hook, a wake) from the OpenTelemetry context, which carries
 * it as far as the registered context manager does (the Node SDK's does).
 */
import { context, createContextKey } from '@opentelemetry/api';

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
  /** Set only when the app logs payloads (`logPayloads`): told the parsed JSON-RPC body. */
  readonly receivedBody?: (body: unknown) => void;
}

// A symbol-keyed property, not a WeakMap: a WeakMap entry per request costs the garbage collector more.
const RECORD: unique symbol = Symbol('reactor.requestRecord');
type Recorded = Request & { [RECORD]?: RequestRecord };
const RECORD_KEY = createContextKey('reactor.requestRecord');

/** Notes that `request` (the fetch form of an HTTP request) is answered under `record`. */
export function attachRequestRecord(request: Request, record: RequestRecord): void {
  (request as Recorded)[RECORD] = record;
}

/** The properties that carry `record` on a request made to carry it from the start (`serve/http/fast/lazyRequest.ts`), as {@link attachRequestRecord} would set it. */
export function requestRecordCarrier(record: RequestRecord): Record<PropertyKey, unknown> {
  return { [RECORD]: record };
}

/** The record of the HTTP request a handler answers (its `ctx.http.req`), if it has one. */
export function requestRecordOf(request: Request | undefined): RequestRecord | undefined {
  return request === undefined ? undefined : (request as Recorded)[RECORD];
}

/** Runs `fn` with `record` in the active OpenTelemetry context. */
export function withRequestRecord<T>(record: RequestRecord, fn: () => T): T {
  return context.with(context.active().setValue(RECORD_KEY, record), fn);
}

/** The record in the active OpenTelemetry context (see {@link withRequestRecord}). */
export function currentRequestRecord(): RequestRecord | undefined {
  return context.active().getValue(RECORD_KEY) as RequestRecord | undefined;
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
