/**
 * The operation histogram recorded into prom-client: labels are short and
 * bounded, whatever names clients make up.
 */
import { Registry } from 'prom-client';
import * as prom from 'prom-client';
import { afterEach, describe, expect, it } from 'vitest';
import { defineExtension } from '../../contract/extension.js';
import { buildHost } from '../../host/host.js';
import { silentLogger } from '../../kernel/logger.js';
import { connect, type TestConnection } from '../../testing/index.js';
import { defineTool } from '../../contract/tool.js';
import { operationLabels, PROM_OPERATION_DURATION, prometheusMeterProvider, UNKNOWN_NAME } from './prometheusMeter.js';

const runs = defineExtension({
  manifest: { name: 'runs', version: '1.0.0' },
  toolsets: () => [{ name: 'bench' }],
  tools: () => [defineTool({ name: 'get_run', description: 'A run.', toolset: 'bench', handler: () => 'run' })],
  prompts: () => [{ name: 'greet', description: 'Greet.', get: () => ({ messages: [{ role: 'user', content: { type: 'text', text: 'hi' } }] }) }],
});

let conn: TestConnection | undefined;
afterEach(async () => {
  await conn?.close();
  conn = undefined;
});

/** The label sets the histogram holds, with their counts. */
async function series(registry: Registry): Promise<Array<{ labels: Record<string, string | number>; count: number }>> {
  const metric = await registry.getSingleMetric(PROM_OPERATION_DURATION)!.get();
  // A histogram's values carry the sample name (`_bucket`, `_sum`, `_count`) beside the labels.
  const values = metric.values as Array<(typeof metric.values)[number] & { metricName?: string }>;
  return values.filter((v) => v.metricName === `${PROM_OPERATION_DURATION}_count`).map((v) => ({ labels: v.labels as Record<string, string | number>, count: v.value }));
}

describe('prometheusMeterProvider', () => {
  it('keeps one series for 10,000 distinct unknown tool names (bucketed as _unknown)', async () => {
    const registry = new Registry();
    const host = await buildHost([runs], { logger: silentLogger, telemetry: { meterProvider: prometheusMeterProvider(prom, registry) } });
    conn = await connect(host);
    await conn.callTool('get_run');
    await conn.client.getPrompt({ name: 'greet' });
    for (let i = 0; i < 10_000; i++) await expect(conn.callTool(`made_up_${i}`)).rejects.toThrow(`made_up_${i}`);
    const all = await series(registry);
    expect(all).toEqual([
      { labels: { method: 'tools/call', tool: 'get_run', prompt: '', toolset: 'bench', extension: 'runs', outcome: 'ok' }, count: 1 },
      { labels: { method: 'prompts/get', tool: '', prompt: 'greet', toolset: '', extension: 'runs', outcome: 'ok' }, count: 1 },
      { labels: { method: 'tools/call', tool: UNKNOWN_NAME, prompt: '', toolset: '', extension: '', outcome: '-32602' }, count: 10_000 },
    ]);
  }, 60_000);

  it('leaves every other instrument a no-op', () => {
    const registry = new Registry();
    const meter = prometheusMeterProvider(prom, registry).getMeter('x');
    meter.createCounter('other').add(1);
    meter.createHistogram('other.duration').record(1);
    expect(registry.getMetricsAsArray()).toEqual([]);
  });
});

describe('operationLabels', () => {
  it('maps the metric attributes to short labels; outcome is ok or the error type', () => {
    expect(operationLabels({ 'mcp.method.name': 'resources/read', 'reactor.extension': 'docs', 'error.type': 'Error' })).toEqual({ method: 'resources/read', tool: '', prompt: '', toolset: '', extension: 'docs', outcome: 'Error' });
    // A prompt nobody offers: bucketed, never its own series.
    expect(operationLabels({ 'mcp.method.name': 'prompts/get', 'gen_ai.prompt.name': 'invented' })).toMatchObject({ prompt: UNKNOWN_NAME, extension: '' });
  });
});
