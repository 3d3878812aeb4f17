/**
 * Reactor with OpenTelemetry on and off in one process, for the overhead
 * ratio: `/mcp` is a host without the `telemetry` option, `/otel` the same
 * catalogue on a host whose spans go through a BatchSpanProcessor to an
 * exporter that drops them, and whose operation histogram is aggregated by a
 * MeterProvider with a periodic reader (to an exporter that drops it too).
 * The SDK's work on the request path is all there; only the network is not.
 * `/otel-api` is a third host given the OpenTelemetry API's own no-op
 * providers: the host's telemetry plumbing with no SDK behind it, so the
 * overhead can be split between the host and the SDK. `/otel-traces` records
 * spans only (the API's no-op meter), `/otel-metrics` the histogram only (the
 * API's no-op tracer): what each half of the SDK's work costs. `/otel-sdk`
 * is the SDK's floor (`sdkFloor.ts`): the least a host must ask of the SDK,
 * with none of the host's plumbing, so the best ratio any host could reach.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { ExportResultCode, type ExportResult } from '@opentelemetry/core';
import { AggregationTemporality, MeterProvider, PeriodicExportingMetricReader, type PushMetricExporter, type ResourceMetrics } from '@opentelemetry/sdk-metrics';
import { BasicTracerProvider, BatchSpanProcessor, type ReadableSpan, type SpanExporter } from '@opentelemetry/sdk-trace-base';
import { createNoopMeter, ProxyTracerProvider, type MeterProvider as ApiMeterProvider } from '@opentelemetry/api';
import { buildHost, createMcpApp, defineExtension, defineTool, silentLogger, type TelemetryOptions } from '@reactor/host';
import { answer, catalogue } from '../catalogue.js';
import { MODERN_VERSION } from '../driver/wire.js';
import { sdkFloor } from './sdkFloor.js';

/** Drops what it is given, counting spans and operation-duration points (so a test can see the SDK did record). */
class DroppingExporter implements SpanExporter, PushMetricExporter {
  spans = 0;
  /** `mcp.server.operation.duration` points recorded so far, by instrumentation scope (cumulative, as last exported). */
  readonly operations = new Map<string, number>();
  export(items: ReadableSpan[] | ResourceMetrics, done: (result: ExportResult) => void): void {
    if (Array.isArray(items)) this.spans += items.length;
    else
      for (const scope of items.scopeMetrics)
        for (const metric of scope.metrics)
          if (metric.descriptor.name === 'mcp.server.operation.duration')
            this.operations.set(scope.scope.name, metric.dataPoints.reduce((sum, point) => sum + (typeof point.value === 'object' ? point.value.count : 0), 0));
    done({ code: ExportResultCode.SUCCESS });
  }
  selectAggregationTemporality(): AggregationTemporality {
    return AggregationTemporality.CUMULATIVE;
  }
  shutdown(): Promise<void> {
    return Promise.resolve();
  }
  forceFlush(): Promise<void> {
    return Promise.resolve();
  }
}

/** OpenTelemetry SDK providers whose spans and metrics are recorded, batched and then dropped. */
export interface DroppingTelemetry {
  readonly tracerProvider: BasicTracerProvider;
  readonly meterProvider: MeterProvider;
  /** Spans the exporter was handed so far (after `flush`). */
  exportedSpans(): number;
  /** `mcp.server.operation.duration` points recorded under an instrumentation scope so far (after `flush`). */
  recordedOperations(scope: string): number;
  /** Exports what the span processor holds and what the meter has aggregated. */
  flush(): Promise<void>;
  shutdown(): Promise<void>;
}

/**
 * Providers as a deployment sets them up (spans through a BatchSpanProcessor,
 * the histogram aggregated for a periodic reader), exporting to nowhere: the
 * SDK's work on the request path is all there, the network is not.
 */
export function droppingTelemetry(): DroppingTelemetry {
  const exporter = new DroppingExporter();
  const tracerProvider = new BasicTracerProvider({ spanProcessors: [new BatchSpanProcessor(exporter)] });
  const meterProvider = new MeterProvider({ readers: [new PeriodicExportingMetricReader({ exporter, exportIntervalMillis: 60_000 })] });
  return {
    tracerProvider,
    meterProvider,
    exportedSpans: () => exporter.spans,
    recordedOperations: (scope) => exporter.operations.get(scope) ?? 0,
    flush: async () => {
      await Promise.all([tracerProvider.forceFlush(), meterProvider.forceFlush()]);
    },
    shutdown: async () => {
      await Promise.all([tracerProvider.shutdown(), meterProvider.shutdown()]);
    },
  };
}

/** The two apps behind one listener, and how to stop them. */
export interface TelemetryApps {
  readonly listener: (req: IncomingMessage, res: ServerResponse) => void;
  /** Spans the exporter was handed so far (after `flush`). */
  exportedSpans(): number;
  /** `mcp.server.operation.duration` points recorded under an instrumentation scope so far (after `flush`). */
  recordedOperations(scope: string): number;
  flush(): Promise<void>;
  close(): Promise<void>;
}

/** The API's no-op meter provider (a tracer provider with no delegate is the API's no-op tracer's). */
const noopMeterProvider: ApiMeterProvider = { getMeter: () => createNoopMeter() };

/**
 * The catalogue of `count` tools served with telemetry off (`/mcp`), on (`/otel`), on against no-op
 * providers (`/otel-api`), spans only (`/otel-traces`), the histogram only (`/otel-metrics`), and the
 * SDK's floor (`/otel-sdk`: telemetry off, the convention's span and point made around it, `sdkFloor.ts`).
 */
export async function reactorTelemetryApps(count: number): Promise<TelemetryApps> {
  const tools = catalogue(count);
  const extension = () =>
    defineExtension({
      manifest: { name: 'catalogue', version: '1.0.0' },
      toolsets: () => [{ name: 'catalogue', description: 'The benchmark catalogue.' }],
      tools: () => tools.map((t) => defineTool({ name: t.name, description: t.description, inputSchema: t.schema, handler: (args) => answer(t.name, args) })),
    });
  const sdk = droppingTelemetry();
  const { tracerProvider, meterProvider } = sdk;
  /** The catalogue on a host of its own at `path`, with this telemetry (none: off). */
  const hostAt = async (path: string, telemetry?: TelemetryOptions) =>
    createMcpApp(await buildHost([extension()], { name: 'reactor-bench', logger: silentLogger, ...(telemetry ? { telemetry } : {}) }), { sessions: false, path });
  const off = await hostAt('/mcp');
  const on = await hostAt('/otel', { tracerProvider, meterProvider });
  const apiOnly = await hostAt('/otel-api', { tracerProvider: new ProxyTracerProvider(), meterProvider: noopMeterProvider });
  const tracesOnly = await hostAt('/otel-traces', { tracerProvider, meterProvider: noopMeterProvider });
  const metricsOnly = await hostAt('/otel-metrics', { tracerProvider: new ProxyTracerProvider(), meterProvider });
  const untraced = await hostAt('/otel-sdk');
  const floor = sdkFloor(untraced, sdk, { extension: 'catalogue', toolset: 'catalogue', protocolVersion: MODERN_VERSION });
  // Longer prefixes first: every path but /mcp starts with /otel.
  const routes = [
    ['/otel-api', apiOnly],
    ['/otel-traces', tracesOnly],
    ['/otel-metrics', metricsOnly],
    ['/otel-sdk', floor],
    ['/otel', on],
  ] as const;
  // A plain loop: it runs on every measured request, /mcp's included, so it makes no closure.
  const route = (url: string) => {
    for (const [prefix, app] of routes) if (url.startsWith(prefix)) return app;
    return off;
  };
  return {
    listener: (req, res) => route(req.url ?? '')(req, res),
    exportedSpans: () => sdk.exportedSpans(),
    recordedOperations: (scope) => sdk.recordedOperations(scope),
    flush: () => sdk.flush(),
    async close() {
      await Promise.all([off, on, apiOnly, tracesOnly, metricsOnly, untraced].map((app) => app.close()));
      await sdk.shutdown();
    },
  };
}
