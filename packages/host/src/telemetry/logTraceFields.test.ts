import { trace } from '@opentelemetry/api';
import { node } from '@opentelemetry/sdk-node';
import { InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { pino } from 'pino';
import { afterAll, describe, expect, it } from 'vitest';
import { traceFields } from './logTraceFields.js';

// A Node tracer provider registers the async context manager a Node SDK registers.
const provider = new node.NodeTracerProvider({ spanProcessors: [new SimpleSpanProcessor(new InMemorySpanExporter())] });
provider.register();
afterAll(() => provider.shutdown());

describe('traceFields', () => {
  it('gives the active span’s ids inside a span, across awaits, and nothing outside one', async () => {
    expect(traceFields()).toEqual({});
    const tracer = trace.getTracer('test');
    await tracer.startActiveSpan('tools/call x', async (span) => {
      await Promise.resolve();
      expect(traceFields()).toEqual({ trace_id: span.spanContext().traceId, span_id: span.spanContext().spanId });
      span.end();
    });
    expect(traceFields()).toEqual({});
  });

  it('is a pino mixin: lines logged inside a span carry trace_id and span_id', () => {
    const lines: Array<Record<string, unknown>> = [];
    const logger = pino({ mixin: traceFields }, { write: (line: string) => void lines.push(JSON.parse(line) as Record<string, unknown>) });
    logger.info('outside');
    trace.getTracer('test').startActiveSpan('tools/call y', (span) => {
      logger.info('inside');
      span.end();
      expect(lines[1]).toMatchObject({ msg: 'inside', trace_id: span.spanContext().traceId, span_id: span.spanContext().spanId });
    });
    expect(lines[0]).not.toHaveProperty('trace_id');
  });
});
