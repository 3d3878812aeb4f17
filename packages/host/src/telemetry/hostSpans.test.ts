/**
 * Spans and metrics beyond requests: `onServer` hooks and waking a held
 * extension get INTERNAL spans of their own; sessions record
 * `mcp.server.session.duration`; the host's usage is observed as counters.
 * A real SDK (in-memory exporter, on-demand reader) and real SDK clients.
 */
import { SpanKind, SpanStatusCode } from '@opentelemetry/api';
import { DataPointType, MeterProvider, MetricReader, type SumMetricData } from '@opentelemetry/sdk-metrics';
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { afterEach, describe, expect, it } from 'vitest';
import { defineExtension } from '../contract/extension.js';
import { buildHost } from '../host/host.js';
import { createMcpApp } from '../serve/http/app.js';
import { silentLogger } from '../kernel/logger.js';
import { connect, type TestConnection } from '../testing/index.js';
import { connectClient, listen, type Listening, type TestClient } from '../../test/helpers/http.js';
import { SESSION_DURATION } from './operationDuration.js';
import { USAGE_COUNTERS } from './requestTelemetry.js';

class OnDemandReader extends MetricReader {
  protected onForceFlush(): Promise<void> {
    return Promise.resolve();
  }
  protected onShutdown(): Promise<void> {
    return Promise.resolve();
  }
}

const hooked = defineExtension({
  manifest: { name: 'hooked', version: '1.0.0' },
  toolsets: () => [{ name: 'hooked' }],
  tools: () => [{ name: 'ping', description: 'Ping.', toolset: 'hooked', handler: () => 'pong' }],
  onServer: () => Promise.resolve(),
});
const failing = defineExtension({
  manifest: { name: 'failing', version: '1.0.0' },
  toolsets: () => [{ name: 'failing' }],
  onServer: () => {
    throw new Error('no database');
  },
});
const lab = defineExtension({
  manifest: { name: 'lab', version: '1.0.0', activationEvents: ['onToolset:lab'] },
  toolsets: () => [{ name: 'lab', description: 'Run things.', default: false }],
  tools: () => [{ name: 'run', description: 'Run.', toolset: 'lab', handler: () => 'ran' }],
});
const brokenLab = defineExtension({
  manifest: { name: 'broken-lab', version: '1.0.0', activationEvents: ['onToolset:broken-lab'] },
  toolsets: () => [{ name: 'broken-lab', description: 'Fails to start.', default: false }],
  tools: () => [{ name: 'run_broken', description: 'Run.', toolset: 'broken-lab', handler: () => 'ran' }],
  onStart: () => {
    throw new Error('the lab has no license');
  },
});

const exporter = new InMemorySpanExporter();
const tracerProvider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
let conn: TestConnection | undefined;
let server: Listening | undefined;
let client: TestClient | undefined;
afterEach(async () => {
  await conn?.close();
  await client?.close();
  await server?.close();
  conn = undefined;
  client = undefined;
  server = undefined;
  exporter.reset();
});

describe('INTERNAL spans', () => {
  it('records each onServer hook as "reactor.onServer {extension}"; a failing hook marks its span', async () => {
    const host = await buildHost([hooked, failing], { logger: silentLogger, telemetry: { tracerProvider } });
    conn = await connect(host);
    const spans = exporter.getFinishedSpans().filter((s) => s.name.startsWith('reactor.onServer'));
    expect(spans.map((s) => s.name)).toEqual(['reactor.onServer hooked', 'reactor.onServer failing']);
    expect(spans.map((s) => s.kind)).toEqual([SpanKind.INTERNAL, SpanKind.INTERNAL]);
    expect(spans[0]!.attributes).toEqual({ 'reactor.extension': 'hooked' });
    expect(spans[0]!.status.code).toBe(SpanStatusCode.UNSET);
    expect(spans[1]!.status).toEqual({ code: SpanStatusCode.ERROR, message: 'no database' });
    expect(spans[1]!.attributes['error.type']).toBe('Error');
  });

  it('records waking a held extension as "reactor.activate {extension}", once', async () => {
    const host = await buildHost([lab], { logger: silentLogger, telemetry: { tracerProvider } });
    expect(exporter.getFinishedSpans()).toEqual([]);
    conn = await connect(host, { selection: 'lab' });
    expect(await conn.toolNames()).toEqual(['run']);
    await host.build();
    const wakes = exporter.getFinishedSpans().filter((s) => s.name.startsWith('reactor.activate'));
    expect(wakes.map((s) => [s.name, s.kind, s.attributes])).toEqual([['reactor.activate lab', SpanKind.INTERNAL, { 'reactor.extension': 'lab' }]]);
    expect(wakes[0]!.status.code).toBe(SpanStatusCode.UNSET);
  });

  it('marks the span of a wake that failed (the extension is marked failed, the request still served)', async () => {
    const host = await buildHost([brokenLab], { logger: silentLogger, telemetry: { tracerProvider } });
    await host.start();
    conn = await connect(host, { selection: 'broken-lab' });
    expect(await conn.toolNames()).toEqual([]);
    const [wake] = exporter.getFinishedSpans().filter((s) => s.name === 'reactor.activate broken-lab');
    expect(wake?.status.code).toBe(SpanStatusCode.ERROR);
    expect(wake?.status.message).toContain('the lab has no license');
    expect(wake?.attributes['error.type']).toBeTypeOf('string');
    expect(wake?.events.map((e) => e.name)).toEqual(['exception']);
    await host.stop();
  });
});

describe('host metrics', () => {
  it('records mcp.server.session.duration when a session ends, and observes selections served, blueprints built and cache hits', async () => {
    const reader = new OnDemandReader();
    const meterProvider = new MeterProvider({ readers: [reader] });
    const host = await buildHost([hooked], { logger: silentLogger, telemetry: { tracerProvider, meterProvider } });
    server = await listen(createMcpApp(host));
    client = await connectClient('v2 client, 2025 protocol', server.url('/mcp'));
    const version = client.protocolVersion();
    await client.terminate();
    await connect(host).then((c) => c.close());

    const { resourceMetrics } = await reader.collect();
    const all = resourceMetrics.scopeMetrics.flatMap((s) => s.metrics);
    const sessions = all.find((m) => m.descriptor.name === SESSION_DURATION);
    expect(sessions?.dataPointType).toBe(DataPointType.HISTOGRAM);
    expect(sessions?.descriptor.unit).toBe('s');
    expect(sessions?.dataPoints.map((p) => p.attributes)).toEqual([{ 'network.transport': 'tcp', 'mcp.protocol.version': version }]);
    const counter = (name: string) => (all.find((m) => m.descriptor.name === name) as SumMetricData | undefined)?.dataPoints[0]?.value;
    // One HTTP session and one in-memory connection: two selections, one blueprint, one cache hit.
    expect(counter(USAGE_COUNTERS.selections)).toBe(2);
    expect(counter(USAGE_COUNTERS.blueprints)).toBe(1);
    expect(counter(USAGE_COUNTERS.cacheHits)).toBe(1);
    await meterProvider.shutdown();
  });
});
