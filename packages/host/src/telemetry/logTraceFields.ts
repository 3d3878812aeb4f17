/**
 * The ids of the active span, for log lines: the command's pino logger mixes
 * them into every line logged inside a traced request (an extension's log in
 * a tool call, say), so logs and traces join on `trace_id`. Without an
 * OpenTelemetry SDK there is no active span and nothing is added.
 */
import { context, isSpanContextValid, trace } from '@opentelemetry/api';

/** What {@link traceFields} gives outside a span: one shared, frozen empty object. */
const NO_TRACE: Readonly<{ trace_id?: string; span_id?: string }> = Object.freeze({});

/** `{ trace_id, span_id }` of the active span, or `{}` when none is recording. */
export function traceFields(): { trace_id?: string; span_id?: string } {
  const span = trace.getSpan(context.active());
  if (span === undefined) return NO_TRACE;
  const ids = span.spanContext();
  return isSpanContextValid(ids) ? { trace_id: ids.traceId, span_id: ids.spanId } : NO_TRACE;
}

/**
 * pino's `mixinMergeStrategy` for {@link traceFields}: a line logged outside
 * any span (most lines: every access line) is serialized as it was given, not
 * copied into a new object first as pino's default merge does; inside a span,
 * the ids come first and the line's own fields after them, as by default.
 */
export function mergeTraceFields(line: object, fields: object): object {
  return fields === NO_TRACE ? line : Object.assign(fields, line);
}
