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
import { OPERATION_DURATION } from '../telemetry/operationDuration.js';
import type { PromClient } from './loadPromClient.js';

/** The Prometheus name of the operation histogram. */
export const PROM_OPERATION_DURATION = 'mcp_server_operation_duration_seconds';

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

/**
 * A MeterProvider whose operation-duration histogram records into `registry`
 * (bucket boundaries from the instrument's advice); other instruments do nothing.
 */
export function prometheusMeterProvider(prom: PromClient, registry: Registry): MeterProvider {
  const noop = createNoopMeter();
  let operations: Histogram | undefined;
  const createHistogram = (name: string, options?: MetricOptions): Histogram => {
    if (name !== OPERATION_DURATION) return noop.createHistogram(name, options);
    // Every host of the process (watch mode swaps hosts) records into the one series set.
    operations ??= promHistogram(prom, registry, options);
    return operations;
  };
  // The no-op meter's other instruments, through its prototype: only the histogram is ours.
  const meter = Object.assign(Object.create(noop) as Meter, { createHistogram });
  return { getMeter: () => meter };
}

function promHistogram(prom: PromClient, registry: Registry, options: MetricOptions | undefined): Histogram {
  const histogram = new prom.Histogram({
    name: PROM_OPERATION_DURATION,
    help: options?.description ?? 'Duration of an MCP request as seen by the server.',
    labelNames: LABELS,
    ...(options?.advice?.explicitBucketBoundaries ? { buckets: options.advice.explicitBucketBoundaries } : {}),
    registers: [registry],
  });
  return { record: (seconds, attributes = {}) => histogram.observe(operationLabels(attributes), seconds) };
}
