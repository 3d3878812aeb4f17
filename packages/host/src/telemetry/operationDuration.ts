/**
 * The `mcp.server.operation.duration` histogram of the MCP semantic
 * conventions: seconds per request, by method, tool or prompt, outcome and
 * the offering extension. Resource URIs are left out of the attributes
 * (spans carry them): URIs from templates are unbounded, a metric must not be.
 */
import type { Attributes, Histogram, Meter } from '@opentelemetry/api';

/** The instrument's name, as the convention spells it. */
export const OPERATION_DURATION = 'mcp.server.operation.duration';

/** The convention's advised bucket boundaries, in seconds. */
const BOUNDARIES = [0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1, 2, 5, 10, 30, 60, 120, 300];

/** Records one request's duration. */
export type DurationRecorder = (seconds: number, attributes: Attributes) => void;

/** The histogram on `meter`, as a recorder. */
export function operationDuration(meter: Meter): DurationRecorder {
  const histogram: Histogram = meter.createHistogram(OPERATION_DURATION, {
    description: 'Duration of an MCP request as seen by the server.',
    unit: 's',
    advice: { explicitBucketBoundaries: BOUNDARIES },
  });
  return (seconds, attributes) => histogram.record(seconds, attributes);
}

/** The session histogram's name, as the convention spells it. */
export const SESSION_DURATION = 'mcp.server.session.duration';

/** The `mcp.server.session.duration` histogram on `meter` (seconds a session stayed open), as a recorder. */
export function sessionDuration(meter: Meter): DurationRecorder {
  const histogram: Histogram = meter.createHistogram(SESSION_DURATION, {
    description: 'How long an MCP session stayed open, as seen by the server.',
    unit: 's',
    // Sessions last minutes to hours: the convention's boundaries for sessions.
    advice: { explicitBucketBoundaries: [0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1, 2, 5, 10, 30, 60, 120, 300, 600, 1800, 3600, 7200, 14400] },
  });
  return (seconds, attributes) => histogram.record(seconds, attributes);
}

/** Span attributes a metric may carry: everything but per-request identifiers and URIs. */
const METRIC_ATTRIBUTES = ['network.transport', 'mcp.method.name', 'gen_ai.tool.name', 'gen_ai.prompt.name', 'gen_ai.operation.name', 'mcp.protocol.version', 'error.type', 'reactor.extension', 'reactor.toolset'];

/**
 * The metric's attributes from a request's span attributes. A tool or prompt
 * name is kept only once an extension was found offering it, so names a
 * client made up never become series.
 */
export function metricAttributes(span: Attributes): Attributes {
  const offered = span['reactor.extension'] !== undefined;
  const picked: Attributes = {};
  // No `delete` afterwards: an object that lost a key turns slow for the SDK to hash.
  for (const key of METRIC_ATTRIBUTES) if (span[key] !== undefined && (offered || !NAMED_TARGETS.has(key))) picked[key] = span[key];
  return picked;
}

/** The attributes a client's made-up name would fill. */
const NAMED_TARGETS: ReadonlySet<string> = new Set(['gen_ai.tool.name', 'gen_ai.prompt.name']);
