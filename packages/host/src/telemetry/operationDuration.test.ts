/**
 * The `mcp.server.operation.duration` histogram, collected by a real
 * OpenTelemetry metrics SDK through a real SDK client.
 */
import { DataPointType, MeterProvider, MetricReader, type HistogramMetricData } from '@opentelemetry/sdk-metrics';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineExtension } from '../contract/extension.js';
import { buildHost } from '../host/host.js';
import { silentLogger } from '../kernel/logger.js';
import { connect, type TestConnection } from '../testing/index.js';
import { defineTool } from '../contract/tool.js';
import { metricAttributes, OPERATION_DURATION } from './operationDuration.js';

/** A reader collected on demand (the SDK's pull path), as a test reads metrics. */
class OnDemandReader extends MetricReader {
  protected onForceFlush(): Promise<void> {
    return Promise.resolve();
  }
  protected onShutdown(): Promise<void> {
    return Promise.resolve();
  }
}

const runs = defineExtension({
  manifest: { name: 'runs', version: '1.0.0' },
  toolsets: () => [{ name: 'bench' }],
  tools: () => [
    defineTool({ name: 'get_run', description: 'A run.', toolset: 'bench', inputSchema: z.object({ id: z.string() }), handler: (args) => `run ${args.id}` }),
    defineTool({ name: 'refuse', description: 'Answers with an error result.', toolset: 'bench', handler: () => ({ isError: true, content: [{ type: 'text', text: 'no' }] }) }),
  ],
  resources: () => [{ name: 'item', template: 'items://{id}', read: (uri) => ({ contents: [{ uri: uri.href, text: 'item' }] }) }],
});

let conn: TestConnection | undefined;
let provider: MeterProvider | undefined;
afterEach(async () => {
  await conn?.close();
  await provider?.shutdown();
  conn = undefined;
  provider = undefined;
});

async function durations(reader: MetricReader): Promise<HistogramMetricData> {
  const { resourceMetrics, errors } = await reader.collect();
  expect(errors).toEqual([]);
  const metric = resourceMetrics.scopeMetrics.flatMap((s) => s.metrics).find((m) => m.descriptor.name === OPERATION_DURATION);
  expect(metric?.dataPointType).toBe(DataPointType.HISTOGRAM);
  return metric as HistogramMetricData;
}

describe('mcp.server.operation.duration', () => {
  it('records one histogram point per outcome, in seconds, by method, tool, extension, toolset and error.type', async () => {
    const reader = new OnDemandReader();
    provider = new MeterProvider({ readers: [reader] });
    const host = await buildHost([runs], { logger: silentLogger, telemetry: { meterProvider: provider } });
    conn = await connect(host);
    await conn.callTool('get_run', { id: 'a' });
    await conn.callTool('get_run', { id: 'b' });
    await conn.callTool('refuse');
    await expect(conn.callTool('made_up_1')).rejects.toThrow(/made_up_1/);
    await conn.client.readResource({ uri: 'items://1' });
    await conn.client.readResource({ uri: 'items://2' });

    const metric = await durations(reader);
    expect(metric.descriptor.unit).toBe('s');
    const version = conn.client.getNegotiatedProtocolVersion();
    const points = metric.dataPoints.map((p) => ({ attributes: p.attributes, count: p.value.count }));
    const common = { 'mcp.protocol.version': version };
    expect(points).toEqual(
      expect.arrayContaining([
        { attributes: { ...common, 'mcp.method.name': 'tools/call', 'gen_ai.tool.name': 'get_run', 'gen_ai.operation.name': 'execute_tool', 'reactor.extension': 'runs', 'reactor.toolset': 'bench' }, count: 2 },
        { attributes: { ...common, 'mcp.method.name': 'tools/call', 'gen_ai.tool.name': 'refuse', 'gen_ai.operation.name': 'execute_tool', 'reactor.extension': 'runs', 'reactor.toolset': 'bench', 'error.type': 'tool_error' }, count: 1 },
        // A name no extension offers never becomes a series of its own.
        { attributes: { ...common, 'mcp.method.name': 'tools/call', 'gen_ai.operation.name': 'execute_tool', 'error.type': '-32602' }, count: 1 },
        // Two URIs of one template: one series (URIs stay on spans).
        { attributes: { ...common, 'mcp.method.name': 'resources/read', 'reactor.extension': 'runs' }, count: 2 },
      ]),
    );
    expect(points).toHaveLength(4);
    for (const point of metric.dataPoints) {
      expect(point.value.min).toBeGreaterThanOrEqual(0);
      // Seconds, not milliseconds: an in-memory call is far below a minute.
      expect(point.value.max).toBeLessThan(60);
      // The convention's advised boundaries, not the SDK's millisecond-oriented defaults.
      expect(point.value.buckets.boundaries).toEqual([0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1, 2, 5, 10, 30, 60, 120, 300]);
    }
  });
});

describe('metricAttributes', () => {
  it('drops identifiers and URIs, and the name of a tool no extension offered', () => {
    expect(
      metricAttributes({ 'mcp.method.name': 'tools/call', 'gen_ai.tool.name': 'x', 'jsonrpc.request.id': '3', 'mcp.session.id': 's', 'mcp.resource.uri': 'a://b' }),
    ).toEqual({ 'mcp.method.name': 'tools/call' });
    expect(metricAttributes({ 'mcp.method.name': 'prompts/get', 'gen_ai.prompt.name': 'p', 'reactor.extension': 'e' })).toEqual({
      'mcp.method.name': 'prompts/get',
      'gen_ai.prompt.name': 'p',
      'reactor.extension': 'e',
    });
  });
});
