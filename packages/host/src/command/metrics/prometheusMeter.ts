/**
 * The host's OpenTelemetry instruments, recorded into a prom-client registry.
 *
 * The host records `mcp.server.operation.duration` through the OpenTelemetry
 * API only (telemetry/operationDuration.ts). For `--metrics-port`, this
 * MeterProvider turns that histogram into the Prometheus histogram
 * `mcp_server_operation_duration_seconds` with short, bounded labels; every
 * other instrument is a no-op. So one recording path feeds both OTLP and
 * Prometheus, and the host itself never imports prom-client.
 */
import { createNoopMeter, type Attributes, type Histogram, type Meter, type MeterProvider, type MetricOptions } from '@opentelemetry/api';
import type { Registry } from 'prom-client';
import { OPERATION_DURATION, SESSION_DURATION } from '../../telemetry/operationDuration.js';
import type { PromClient } from './loadPromClient.js';

/** The Prometheus name of the operation histogram. */
export const PROM_OPERATION_DURATION = 'mcp_server_operation_duration_seconds';
/** The Prometheus name of the session histogram. */
export const PROM_SESSION_DURATION = 'mcp_server_session_duration_seconds';

/** A tool or prompt name a client made up (no extension offers it): one bucket, never a series per name. */
export const UNKNOWN_NAME = '_unknown';

const LABELS = ['method', 'tool', 'prompt', 'toolset', 'extension', 'outcome'] as const;
type Label = (typeof LABELS)[number];

/** Prometheus labels from the metric attributes the host records (already free of identifiers and URIs). */
export function operationLabels(attributes: Attributes): Record<Label, string> {
  const method = text(attributes['mcp.method.name']);
  const offered = attributes['reactor.extension'] !== undefined;
  const name = (key: string, forMethod: string) => (method !== forMethod ? '' : offered ? text(attributes[key]) || UNKNOWN_NAME : UNKNOWN_NAME);
  return {
    method,
    tool: name('gen_ai.tool.name', 'tools/call'),
    prompt: name('gen_ai.prompt.name', 'prompts/get'),
    toolset: text(attributes['reactor.toolset']),
    extension: text(attributes['reactor.extension']),
    outcome: text(attributes['error.type']) || 'ok',
  };
}

/** An attribute as a label value: the host records strings only; anything else is left out. */
function text(value: Attributes[string]): string {
  return typeof value === 'string' ? value : typeof value === 'number' ? String(value) : '';
}

/** The session histogram's one label: the protocol version (sessions are 2025-protocol HTTP). */
function sessionLabels(attributes: Attributes): Record<'protocol_version', string> {
  return { protocol_version: text(attributes['mcp.protocol.version']) };
}

/**
 * A MeterProvider whose operation- and session-duration histograms record
 * into `registry` (bucket boundaries from the instruments' advice); other
 * instruments do nothing (the registry reads the host's counters itself).
 */
export function prometheusMeterProvider(prom: PromClient, registry: Registry): MeterProvider {
  const noop = createNoopMeter();
  // Every host of the process records into the one series set of each histogram.
  const made = new Map<string, Histogram>();
  const createHistogram = (name: string, options?: MetricOptions): Histogram => {
    const existing = made.get(name);
    if (existing) return existing;
    const histogram =
      name === OPERATION_DURATION
        ? promHistogram(prom, registry, PROM_OPERATION_DURATION, LABELS, operationLabels, options)
        : name === SESSION_DURATION
          ? promHistogram(prom, registry, PROM_SESSION_DURATION, ['protocol_version'], sessionLabels, options)
          : undefined;
    if (histogram === undefined) return noop.createHistogram(name, options);
    made.set(name, histogram);
    return histogram;
  };
  // The no-op meter's other instruments, through its prototype: only the histogram is ours.
  const meter = Object.assign(Object.create(noop) as Meter, { createHistogram });
  return { getMeter: () => meter };
}

function promHistogram<L extends string>(prom: PromClient, registry: Registry, name: string, labelNames: readonly L[], labels: (attributes: Attributes) => Record<L, string>, options: MetricOptions | undefined): Histogram {
  const histogram = new prom.Histogram({
    name,
    help: options?.description ?? name,
    labelNames,
    ...(options?.advice?.explicitBucketBoundaries ? { buckets: options.advice.explicitBucketBoundaries } : {}),
    registers: [registry],
  });
  return { record: (seconds, attributes = {}) => histogram.observe(labels(attributes), seconds) };
}
