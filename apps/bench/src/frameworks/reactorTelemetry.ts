/**
 * Reactor with OpenTelemetry on and off in one process, for the overhead
 * ratio: `/mcp` is a host without the `telemetry` option, `/otel` the same
 * catalogue on a host whose spans go through a BatchSpanProcessor to an
 * exporter that drops them, and whose operation histogram is aggregated by a
 * MeterProvider with a periodic reader (to an exporter that drops it too).
 * The SDK's work on the request path is all there; only the network is not.
 * `/otel-api` is a third host given the OpenTelemetry API's own no-op
 * providers: the host's telemetry plumbing with no SDK behind it, so the
 * overhead can be split between the host and the SDK.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { ExportResultCode, type ExportResult } from '@opentelemetry/core';
import { AggregationTemporality, MeterProvider, PeriodicExportingMetricReader, type PushMetricExporter, type ResourceMetrics } from '@opentelemetry/sdk-metrics';
import { BasicTracerProvider, BatchSpanProcessor, type ReadableSpan, type SpanExporter } from '@opentelemetry/sdk-trace-base';
import { createNoopMeter, ProxyTracerProvider, type MeterProvider as ApiMeterProvider } from '@opentelemetry/api';
import { buildHost, createMcpApp, defineExtension, defineTool, silentLogger } from '@reactor/host';
import { answer, catalogue } from '../catalogue.js';

/** Drops what it is given, counting spans (so a test can see the SDK did record). */
class DroppingExporter implements SpanExporter, PushMetricExporter {
  spans = 0;
  export(items: ReadableSpan[] | ResourceMetrics, done: (result: ExportResult) => void): void {
    if (Array.isArray(items)) this.spans += items.length;
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

/** The two apps behind one listener, and how to stop them. */
export interface TelemetryApps {
  readonly listener: (req: IncomingMessage, res: ServerResponse) => void;
  /** Spans the exporter was handed so far (after `flush`). */
  exportedSpans(): number;
  flush(): Promise<void>;
  close(): Promise<void>;
}

/** The API's no-op meter provider (a tracer provider with no delegate is the API's no-op tracer's). */
const noopMeterProvider: ApiMeterProvider = { getMeter: () => createNoopMeter() };

/** The catalogue of `count` tools served with telemetry off (`/mcp`), on (`/otel`) and on against no-op providers (`/otel-api`). */
export async function reactorTelemetryApps(count: number): Promise<TelemetryApps> {
  const tools = catalogue(count);
  const extension = () =>
    defineExtension({
      manifest: { name: 'catalogue', version: '1.0.0' },
      toolsets: () => [{ name: 'catalogue', description: 'The benchmark catalogue.' }],
      tools: () => tools.map((t) => defineTool({ name: t.name, description: t.description, inputSchema: t.schema, handler: (args) => answer(t.name, args) })),
    });
  const exporter = new DroppingExporter();
  const tracerProvider = new BasicTracerProvider({ spanProcessors: [new BatchSpanProcessor(exporter)] });
  const meterProvider = new MeterProvider({ readers: [new PeriodicExportingMetricReader({ exporter, exportIntervalMillis: 60_000 })] });
  const off = createMcpApp(await buildHost([extension()], { name: 'reactor-bench', logger: silentLogger }), { sessions: false, path: '/mcp' });
  const on = createMcpApp(await buildHost([extension()], { name: 'reactor-bench', logger: silentLogger, telemetry: { tracerProvider, meterProvider } }), { sessions: false, path: '/otel' });
  const apiOnly = createMcpApp(await buildHost([extension()], { name: 'reactor-bench', logger: silentLogger, telemetry: { tracerProvider: new ProxyTracerProvider(), meterProvider: noopMeterProvider } }), { sessions: false, path: '/otel-api' });
  const route = (url: string) => (url.startsWith('/otel-api') ? apiOnly : url.startsWith('/otel') ? on : off);
  return {
    listener: (req, res) => route(req.url ?? '')(req, res),
    exportedSpans: () => exporter.spans,
    flush: () => tracerProvider.forceFlush(),
    async close() {
      await Promise.all([off.close(), on.close(), apiOnly.close()]);
      await Promise.all([tracerProvider.shutdown(), meterProvider.shutdown()]);
    },
  };
}
