import { DataPointType, MeterProvider, MetricReader } from '@opentelemetry/sdk-metrics';
import * as prom from 'prom-client';
import { describe, expect, it } from 'vitest';
import { teeMeterProviders } from './commandObservability.js';
import { prometheusMeterProvider, PROM_OPERATION_DURATION } from './metrics/prometheusMeter.js';
import { OPERATION_DURATION } from '../telemetry/operationDuration.js';

class OnDemandReader extends MetricReader {
  protected onForceFlush(): Promise<void> {
    return Promise.resolve();
  }
  protected onShutdown(): Promise<void> {
    return Promise.resolve();
  }
}

describe('teeMeterProviders', () => {
  it('records the operation histogram into both the OpenTelemetry SDK and Prometheus', async () => {
    const reader = new OnDemandReader();
    const sdk = new MeterProvider({ readers: [reader] });
    const registry = new prom.Registry();
    const meter = teeMeterProviders(sdk, prometheusMeterProvider(prom, registry)).getMeter('@reactor/host');
    meter.createHistogram(OPERATION_DURATION, { unit: 's' }).record(0.25, { 'mcp.method.name': 'tools/call', 'gen_ai.tool.name': 'a', 'reactor.extension': 'e' });

    const { resourceMetrics } = await reader.collect();
    const otel = resourceMetrics.scopeMetrics.flatMap((s) => s.metrics).find((m) => m.descriptor.name === OPERATION_DURATION);
    expect(otel?.dataPointType).toBe(DataPointType.HISTOGRAM);
    expect(otel?.dataPoints).toHaveLength(1);
    expect(await registry.metrics()).toContain(`${PROM_OPERATION_DURATION}_count{method="tools/call",tool="a",prompt="",toolset="",extension="e",outcome="ok"} 1`);
    await sdk.shutdown();
  });
});
