/**
 * OpenTelemetry for the requests a minted server answers, by the semantic
 * conventions for MCP: one SERVER span per `tools/call`, `prompts/get` and
 * `resources/read`, named `{mcp.method.name} {target}`, continuing the trace
 * a client put in `params._meta.traceparent` / `tracestate`.
 *
 * Each also records the `mcp.server.operation.duration` histogram.
 *
 * Off unless the host is given `telemetry`: servers of a host without it
 * install their handlers unwrapped, so the hot path pays nothing (not even a
 * no-op tracer call). Only `@opentelemetry/api` is used; the application
 * registers (or passes) the SDK that records and exports.
 */
import { context, metrics, propagation, ROOT_CONTEXT, SpanKind, SpanStatusCode, trace, type Attributes, type MeterProvider, type Span, type TextMapGetter, type TextMapPropagator, type Tracer, type TracerProvider } from '@opentelemetry/api';
import type { ServerContext } from '@modelcontextprotocol/server';
import { HOST_VERSION } from '../kernel/version.js';
import { metricAttributes, operationDuration, sessionDuration } from './operationDuration.js';
import { currentRequestRecord, requestRecordOf } from './requestRecord.js';

/** Turns OpenTelemetry on for a host (see docs/observability.md). */
export interface TelemetryOptions {
  /**
   * Where spans go. Default: the globally registered provider
   * (`trace.setGlobalTracerProvider`, which a Node SDK's `start()` does).
   */
  readonly tracerProvider?: TracerProvider;
  /**
   * Reads the caller's trace context from `params._meta`. Default: the
   * globally registered propagator (a Node SDK registers W3C trace context).
   */
  readonly propagator?: TextMapPropagator;
  /**
   * Where the `mcp.server.operation.duration` histogram goes. Default: the
   * globally registered provider (`metrics.setGlobalMeterProvider`).
   */
  readonly meterProvider?: MeterProvider;
}

/** The traced methods. */
export type TracedMethod = 'tools/call' | 'prompts/get' | 'resources/read';

/** What a handler learns while answering that the span should carry. */
export interface RequestNotes {
  /**
   * The extension (and toolset, for tools) offering the tool, prompt or
   * resource served; for a tool, the extensions whose `ToolExtension`s were
   * applied to it, in order (a span attribute only: metrics stay bounded).
   */
  offeredBy(extension: string, toolset?: string, extendedBy?: readonly string[]): void;
}

/** Who offers what a request targets, when that is known before it is answered (a tool, found by name). */
export interface KnownOffering {
  readonly extension: string;
  readonly toolset?: string | undefined;
  /** The extensions whose `ToolExtension`s were applied, in order (a span attribute only). */
  readonly extendedBy?: readonly string[] | undefined;
  /** The span's name, `{method} {target}`, when made ahead (once per tool, not per call). */
  readonly spanName?: string | undefined;
}

/** Notes of an untraced request: nothing to record. */
export const NO_NOTES: RequestNotes = { offeredBy: () => undefined };

/** Traces one server's requests. */
export interface RequestTelemetry {
  /**
   * Runs `answer` inside a server span for `method` on `target` (tool or
   * prompt name, resource URI); `protocolVersion` is the connection's, once negotiated.
   * With `offered` (known before answering), the span starts with the
   * offering's attributes and `answer`'s notes record nothing more; without
   * it, `answer` tells the notes once it knows.
   */
  around<T>(method: TracedMethod, target: string, ctx: ServerContext, protocolVersion: string | undefined, answer: (notes: RequestNotes) => Promise<T>, transport?: string, offered?: KnownOffering): Promise<T>;
  /**
   * Runs `work` inside an INTERNAL span (an `onServer` hook, waking a held
   * extension): a child of the HTTP request's trace when its headers carry
   * one, else of the active context. A throw marks the span and is rethrown;
   * so does a failure `failure()` reports after `work` returned (a wake that
   * failed records the failure instead of throwing it).
   */
  internal<T>(name: string, attributes: Attributes, work: () => Promise<T>, failure?: () => unknown): Promise<T>;
  /** Records `mcp.server.session.duration` for a session that ended after `seconds`. */
  sessionEnded(seconds: number, protocolVersion: string | undefined): void;
  /** Observes the host's usage counters (read when metrics are collected, so the hot path pays nothing). */
  observeUsage(read: () => UsageCounts): void;
}

/** The host's usage counts, as observed by the `reactor.*` counters. */
export interface UsageCounts {
  readonly selections: number;
  readonly blueprints: number;
  readonly cacheHits: number;
}

/** The usage counters' names. */
export const USAGE_COUNTERS = {
  selections: 'reactor.selections.served',
  blueprints: 'reactor.blueprints.built',
  cacheHits: 'reactor.blueprint_cache.hits',
} as const;

/** The tracer name spans are recorded under (the instrumentation scope). */
export const INSTRUMENTATION_SCOPE = '@reactor/host';

/** Reads `traceparent`/`tracestate` from a request's `_meta` (string values only). */
const metaGetter: TextMapGetter<Record<string, unknown>> = {
  keys: (carrier) => Object.keys(carrier),
  get: (carrier, key) => {
    const value = carrier[key];
    return typeof value === 'string' ? value : undefined;
  },
};

/**
 * The request telemetry of a host's servers, or `undefined` when the host was
 * given no `telemetry` (then nothing is wrapped).
 */
export function requestTelemetry(options: TelemetryOptions | undefined): RequestTelemetry | undefined {
  if (options === undefined) return undefined;
  const tracer: Tracer = (options.tracerProvider ?? trace.getTracerProvider()).getTracer(INSTRUMENTATION_SCOPE, HOST_VERSION);
  const meter = (options.meterProvider ?? metrics.getMeterProvider()).getMeter(INSTRUMENTATION_SCOPE, HOST_VERSION);
  const recordDuration = operationDuration(meter);
  const recordSession = sessionDuration(meter);
  const extract = (meta: Record<string, unknown>) => (options.propagator ? options.propagator.extract(ROOT_CONTEXT, meta, metaGetter) : propagation.extract(ROOT_CONTEXT, meta, metaGetter));
  return {
    observeUsage(read) {
      const counters = {
        selections: meter.createObservableCounter(USAGE_COUNTERS.selections, { description: 'Selections served: servers built for a connection or a request.' }),
        blueprints: meter.createObservableCounter(USAGE_COUNTERS.blueprints, { description: 'Blueprints built (blueprint cache misses).' }),
        cacheHits: meter.createObservableCounter(USAGE_COUNTERS.cacheHits, { description: 'Blueprint lookups answered from the cache.' }),
      };
      meter.addBatchObservableCallback(
        (observer) => {
          const counts = read();
          for (const key of Object.keys(counters) as Array<keyof UsageCounts>) observer.observe(counters[key], counts[key]);
        },
        Object.values(counters),
      );
    },
    sessionEnded(seconds, protocolVersion) {
      // Sessions are an HTTP (2025 protocol) notion: their transport is TCP.
      recordSession(seconds, protocolVersion === undefined ? { 'network.transport': 'tcp' } : { 'network.transport': 'tcp', 'mcp.protocol.version': protocolVersion });
    },
    async internal(name, attributes, work, failure) {
      const headers = currentRequestRecord()?.traceHeaders;
      const parent = headers ? extract(headers) : context.active();
      const span = tracer.startSpan(name, { kind: SpanKind.INTERNAL, attributes }, parent);
      try {
        const result = await context.with(trace.setSpan(parent, span), work);
        const failed = failure?.();
        if (failed !== undefined) failInternal(span, failed);
        return result;
      } catch (error) {
        failInternal(span, error);
        throw error;
      } finally {
        span.end();
      }
    },
    async around(method, target, ctx, protocolVersion, answer, transport, offered) {
      const record = requestRecordOf(ctx.http?.req) ?? currentRequestRecord();
      // `params._meta` first (the MCP convention), else the HTTP request's own trace headers.
      const carrier = ctx.mcpReq._meta?.traceparent !== undefined ? ctx.mcpReq._meta : record?.traceHeaders;
      const parent = carrier ? extract(carrier) : ROOT_CONTEXT;
      const attributes = requestAttributes(method, target, String(ctx.mcpReq.id));
      if (ctx.sessionId !== undefined) attributes['mcp.session.id'] = ctx.sessionId;
      if (protocolVersion !== undefined) attributes['mcp.protocol.version'] = protocolVersion;
      // An HTTP request's record says tcp; a server marked with its own (stdio: pipe) says so itself.
      const network = record?.transport ?? transport;
      if (network !== undefined) attributes['network.transport'] = network;
      // Known now, the offering goes in with the rest: the SDK copies the attributes once, at the start.
      if (offered !== undefined) addOffering(attributes, offered);
      const span = tracer.startSpan(offered?.spanName ?? `${method} ${target}`, { kind: SpanKind.SERVER, attributes }, parent);
      if (record !== undefined && record.traceId === undefined) {
        const ids = span.spanContext();
        // A no-op tracer's span has no ids of its own: nothing to log then.
        if (span.isRecording()) {
          record.traceId = ids.traceId;
          record.spanId = ids.spanId;
        }
      }
      const started = performance.now();
      // Kept alongside the span (whose attributes the API cannot read back) for the metric.
      const notes: RequestNotes =
        offered !== undefined
          ? NO_NOTES
          : {
              offeredBy(extension, toolset, extendedBy) {
                const late: Attributes = {};
                addOffering(late, { extension, toolset, extendedBy });
                span.setAttributes(late);
                Object.assign(attributes, late);
              },
            };
      try {
        const result = await context.with(trace.setSpan(parent, span), () => answer(notes));
        if (isToolError(result)) fail(span, attributes, 'tool_error', toolErrorText(result));
        return result;
      } catch (error) {
        span.recordException(error instanceof Error ? error : String(error));
        fail(span, attributes, errorType(error), error instanceof Error ? error.message : String(error));
        throw error;
      } finally {
        span.end();
        recordDuration((performance.now() - started) / 1000, metricAttributes(attributes));
      }
    },
  };
}

/**
 * A request span's own attributes. One literal per method, its keys always in
 * one order, so the spans of a method share one shape: the SDK's copy of
 * them and the metric's pick read that fastest.
 */
function requestAttributes(method: TracedMethod, target: string, id: string): Attributes {
  if (method === 'tools/call') return { 'mcp.method.name': method, 'gen_ai.tool.name': target, 'jsonrpc.request.id': id, 'gen_ai.operation.name': 'execute_tool' };
  if (method === 'prompts/get') return { 'mcp.method.name': method, 'gen_ai.prompt.name': target, 'jsonrpc.request.id': id };
  return { 'mcp.method.name': method, 'mcp.resource.uri': target, 'jsonrpc.request.id': id };
}

/** Adds the offering's attributes: the extension, its toolset, and the chain of tool extensions applied (where there is one; a span attribute only, metrics stay bounded). */
function addOffering(attributes: Attributes, offered: KnownOffering): void {
  attributes['reactor.extension'] = offered.extension;
  if (offered.toolset !== undefined) attributes['reactor.toolset'] = offered.toolset;
  if (offered.extendedBy !== undefined && offered.extendedBy.length > 0) attributes['reactor.tool_extensions'] = [...offered.extendedBy];
}

/** Marks an INTERNAL span failed by `error`. */
function failInternal(span: Span, error: unknown): void {
  span.recordException(error instanceof Error ? error : String(error));
  span.setAttribute('error.type', error instanceof Error ? error.name : '_OTHER');
  span.setStatus({ code: SpanStatusCode.ERROR, message: error instanceof Error ? error.message : String(error) });
}

function fail(span: Span, attributes: Attributes, type: string, message: string): void {
  span.setAttribute('error.type', type);
  attributes['error.type'] = type;
  span.setStatus({ code: SpanStatusCode.ERROR, message });
}

/** A JSON-RPC error's code (the convention's choice), else the error's class name. */
function errorType(error: unknown): string {
  if (typeof error === 'object' && error !== null) {
    const code = (error as { code?: unknown }).code;
    if (typeof code === 'number') return String(code);
    if (error instanceof Error) return error.name;
  }
  return '_OTHER';
}

function isToolError(result: unknown): result is { isError: true; content?: unknown } {
  return typeof result === 'object' && result !== null && (result as { isError?: unknown }).isError === true;
}

/** The first text block of an error result, for the span status. */
function toolErrorText(result: { content?: unknown }): string {
  const first: unknown = Array.isArray(result.content) ? result.content[0] : undefined;
  const text = typeof first === 'object' && first !== null ? (first as { text?: unknown }).text : undefined;
  return typeof text === 'string' ? text : 'tool_error';
}
