/**
 * What `/metrics` serves: a prom-client registry holding the operation
 * histogram (fed through {@link prometheusMeterProvider}), gauges and counters
 * read from the host when scraped, and prom-client's default Node process
 * metrics. Reading at scrape time costs the hot path nothing.
 */
import type { MeterProvider } from '@opentelemetry/api';
import type { Registry } from 'prom-client';
import type { McpHost } from '../../host/host.js';
import { HOST_CACHE_SIZES, HOST_STATS, HOST_USAGE } from '../../host/internals.js';
import type { PromClient } from './loadPromClient.js';
import { prometheusMeterProvider } from './prometheusMeter.js';

/** Where the scraped values come from; getters, because watch mode swaps hosts and the app starts after the host. */
export interface MetricsSource {
  readonly host: () => McpHost;
  /** Open 2025-protocol sessions; undefined when nothing serves sessions (stdio). */
  readonly sessionsOpen: () => number | undefined;
}

/** A registry with the host's metrics, and the MeterProvider that feeds its histogram. */
export interface PrometheusMetrics {
  readonly registry: Registry;
  readonly meterProvider: MeterProvider;
}

/** Problems not attributed to an extension are counted under this label. */
export const HOST_PROBLEMS = '_host';

/** Builds the registry for `source`. */
export function prometheusMetrics(prom: PromClient, source: MetricsSource): PrometheusMetrics {
  const registry = new prom.Registry();
  prom.collectDefaultMetrics({ register: registry });
  const registers = [registry];
  new prom.Gauge({
    name: 'reactor_sessions_open',
    help: 'Open MCP sessions (2025 protocol, Mcp-Session-Id).',
    registers,
    collect() {
      this.set(source.sessionsOpen() ?? 0);
    },
  });
  new prom.Gauge({
    name: 'reactor_blueprint_cache_size',
    help: 'Blueprints (tenant x selection) held in the host cache.',
    registers,
    collect() {
      this.set(source.host()[HOST_CACHE_SIZES]().blueprints ?? 0);
    },
  });
  new prom.Gauge({
    name: 'reactor_blueprint_cache_hit_ratio',
    help: 'Blueprint lookups answered from the cache, as a share of all lookups since start (0 before the first).',
    registers,
    collect() {
      const host = source.host();
      const lookups = host[HOST_USAGE].blueprintHits + host[HOST_STATS].blueprints;
      this.set(lookups === 0 ? 0 : host[HOST_USAGE].blueprintHits / lookups);
    },
  });
  const counter = (name: string, help: string, read: (host: McpHost) => number) =>
    new prom.Counter({
      name,
      help,
      registers,
      // The host keeps the count; the counter mirrors it when scraped.
      collect() {
        this.reset();
        this.inc(read(source.host()));
      },
    });
  counter('reactor_selections_served_total', 'Selections served: servers built for a connection or a request.', (host) => host[HOST_USAGE].selections);
  counter('reactor_blueprints_built_total', 'Blueprints built (cache misses).', (host) => host[HOST_STATS].blueprints);
  counter('reactor_blueprint_cache_hits_total', 'Blueprint lookups answered from the cache.', (host) => host[HOST_USAGE].blueprintHits);
  new prom.Gauge({
    name: 'reactor_problems',
    help: 'Problems the host currently reports (deduplicated, latest 200), by extension at fault.',
    labelNames: ['extension'],
    registers,
    collect() {
      this.reset();
      for (const problem of source.host().report().problems) this.inc({ extension: problem.extension ?? HOST_PROBLEMS });
    },
  });
  return { registry, meterProvider: prometheusMeterProvider(prom, registry) };
}
