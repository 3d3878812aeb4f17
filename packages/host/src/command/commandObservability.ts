/**
 * The command's observability: the OpenTelemetry Node SDK when `OTEL_*`
 * variables ask for it (commandOtel.ts), and Prometheus metrics on their own
 * listener with `--metrics-port` (metrics/). Both feed the host's one
 * `telemetry` option; with both on, the operation histogram is recorded into each.
 */
import { metrics, type Histogram, type Meter, type MeterProvider } from '@opentelemetry/api';
import { errorMessage } from '../kernel/errors.js';
import type { CommandOptions } from './commandOptions.js';
import { invalid } from './commandOptions.js';
import { otelRequestedBy, startOtelSdk, type StartedOtelSdk } from './commandOtel.js';
import type { Logger } from '../kernel/logger.js';
import type { MetricsSource } from './metrics/prometheusMetrics.js';
import type { TelemetryOptions } from '../telemetry/requestTelemetry.js';

/** What the command set up before building the host. */
export interface CommandObservability {
  /** The host's `telemetry` option; undefined when nothing asked for telemetry. */
  readonly telemetry: TelemetryOptions | undefined;
  /** Starts the `--metrics-port` listener (a no-op without it); returns its URL. */
  serveMetrics(source: MetricsSource): Promise<string | undefined>;
  /** Stops the listener and flushes the SDK. Idempotent. */
  close(): Promise<void>;
}

/** Starts the SDK when asked and prepares the Prometheus registry when `--metrics-port` is given. */
export async function setUpObservability(options: CommandOptions, env: NodeJS.ProcessEnv, logger: Logger): Promise<CommandObservability> {
  const askedBy = otelRequestedBy(env);
  const sdk: StartedOtelSdk | undefined = askedBy.length > 0 ? await startOtelSdk(options.name, env, askedBy) : undefined;
  if (sdk) logger.info({ otel: askedBy }, `OpenTelemetry: the Node SDK exports spans and metrics as ${askedBy.join(', ')} say`);
  let prometheus: Awaited<ReturnType<typeof preparePrometheus>> | undefined;
  try {
    prometheus = options.metricsPort === undefined ? undefined : await preparePrometheus();
  } catch (error) {
    await sdk?.shutdown();
    throw error;
  }
  const meterProvider = prometheus === undefined ? undefined : sdk === undefined ? prometheus.meterProvider : teeMeterProviders(metrics.getMeterProvider(), prometheus.meterProvider);
  const telemetry: TelemetryOptions | undefined = sdk === undefined && meterProvider === undefined ? undefined : meterProvider === undefined ? {} : { meterProvider };
  let server: { url: string; close(): Promise<void> } | undefined;
  let closing: Promise<void> | undefined;
  return {
    telemetry,
    async serveMetrics(source) {
      if (prometheus === undefined || options.metricsPort === undefined) return undefined;
      const registry = prometheus.bind(source);
      const { startMetricsServer } = await import('./metrics/metricsServer.js');
      try {
        server = await startMetricsServer(registry, { host: options.host, port: options.metricsPort }, logger);
      } catch (error) {
        throw invalid('flag "--metrics-port"', `cannot listen on ${options.host}:${options.metricsPort} (${errorMessage(error)})`, undefined, undefined, 'choose another --metrics-port (0 picks a free one)');
      }
      logger.info({ metrics: server.url }, `Prometheus metrics at ${server.url}`);
      return server.url;
    },
    close: () =>
      (closing ??= (async () => {
        await server?.close();
        await sdk?.shutdown().catch((error: unknown) => logger.warn({ err: error instanceof Error ? error : undefined }, `OpenTelemetry SDK shutdown failed: ${errorMessage(error)}`));
      })()),
  };
}

/**
 * prom-client and the registry, made before the host so the host's histogram
 * records into it; the scraped sources are bound once the host and app exist.
 */
async function preparePrometheus() {
  const { loadPromClient } = await import('./metrics/loadPromClient.js');
  const { prometheusMetrics } = await import('./metrics/prometheusMetrics.js');
  const prom = await loadPromClient();
  let source: MetricsSource | undefined;
  const unbound = (): never => {
    throw new Error('metrics scraped before the host was served');
  };
  const built = prometheusMetrics(prom, { host: () => (source ?? unbound()).host(), sessionsOpen: () => source?.sessionsOpen() });
  return {
    meterProvider: built.meterProvider,
    bind(bound: MetricsSource) {
      source = bound;
      return built.registry;
    },
  };
}

/** A MeterProvider whose histograms record into both (the only instrument the host uses). */
export function teeMeterProviders(first: MeterProvider, second: MeterProvider): MeterProvider {
  return {
    getMeter(name, version, meterOptions) {
      const a = first.getMeter(name, version, meterOptions);
      const b = second.getMeter(name, version, meterOptions);
      const createHistogram: Meter['createHistogram'] = (instrument, options) => {
        const one = a.createHistogram(instrument, options);
        const two = b.createHistogram(instrument, options);
        const both: Histogram = {
          record(value, attributes, ctx) {
            one.record(value, attributes, ctx);
            two.record(value, attributes, ctx);
          },
        };
        return both;
      };
      return Object.assign(Object.create(a) as Meter, { createHistogram });
    },
  };
}
