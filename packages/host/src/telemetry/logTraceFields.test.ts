import { trace } from '@opentelemetry/api';
import { node } from '@opentelemetry/sdk-node';
import { InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { pino } from 'pino';
import { afterAll, describe, expect, it } from 'vitest';
import { mergeTraceFields, traceFields } from './logTraceFields.js';

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

  it('merges into a line without copying it outside a span (pino mixinMergeStrategy), and puts the ids first inside one', () => {
    const line = { method: 'POST', target: '/mcp' };
    expect(mergeTraceFields(line, traceFields())).toBe(line);
    expect(line).toEqual({ method: 'POST', target: '/mcp' });
    const lines: string[] = [];
    const logger = pino({ mixin: traceFields, mixinMergeStrategy: mergeTraceFields }, { write: (text: string) => void lines.push(text) });
    logger.info(line, 'outside');
    trace.getTracer('test').startActiveSpan('tools/call z', (span) => {
      logger.info({ status: 200 }, 'inside');
      span.end();
      const { traceId, spanId } = span.spanContext();
      expect(JSON.parse(lines[1]!)).toMatchObject({ trace_id: traceId, span_id: spanId, status: 200, msg: 'inside' });
      expect(lines[1]!.indexOf('"trace_id"')).toBeLessThan(lines[1]!.indexOf('"status"'));
    });
    expect(JSON.parse(lines[0]!)).toMatchObject({ method: 'POST', target: '/mcp', msg: 'outside' });
    expect(lines[0]).not.toContain('trace_id');
  });
});
