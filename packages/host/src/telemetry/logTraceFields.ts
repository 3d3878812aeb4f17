/**
 * The ids of the active span, for log lines: the command's pino logger mixes
 * them into every line logged inside a traced request (an extension's log in
 * a tool call, say), so logs and traces join on `trace_id`. Without an
 * OpenTelemetry SDK there is no active span and nothing is added.
 */
import { context, isSpanContextValid, trace } from '@opentelemetry/api';

/** `{ trace_id, span_id }` of the active span, or `{}` when none is recording. */
export function traceFields(): { trace_id?: string; span_id?: string } {
  const span = trace.getSpan(context.active());
  if (span === undefined) return {};
  const ids = span.spanContext();
  return isSpanContextValid(ids) ? { trace_id: ids.traceId, span_id: ids.spanId } : {};
}
