/**
 * The OpenTelemetry SDK's floor: the least any host must ask of the SDK to
 * trace a `tools/call` by the MCP conventions (one SERVER span with the
 * convention's attributes, one `mcp.server.operation.duration` point), made
 * around an app whose own telemetry is off. Nothing of the host's plumbing
 * is in it (no context, no trace continued, no request record), so on ÷ off
 * here is the best ratio any host could reach with these providers: the
 * telemetry phase reads the host's own share against it.
 *
 * It reads the tool's name from the `Mcp-Name` header the 2026-07-28 load
 * sends (SEP-2243) rather than parsing the body, so no work the host does
 * anyway is done twice. The span ends, and the point is recorded, as soon as
 * the app has taken the request (it answers later): the SDK's work is the
 * same whenever it is asked, and waiting for the response would add a
 * listener no host needs. So this is a probe of what the SDK costs, not a
 * record of how long requests take.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { ROOT_CONTEXT, SpanKind, type MeterProvider, type TracerProvider } from '@opentelemetry/api';

/** The bench's histogram boundaries are the host's (`operationDuration.ts`): the same buckets to search. */
const BOUNDARIES = [0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1, 2, 5, 10, 30, 60, 120, 300];

/** The floor's instrumentation scope (its tracer's and meter's name). */
export const FLOOR_SCOPE = 'reactor-bench-floor';

/** Who the floor says offers the tools (the bench's one extension and toolset). */
export interface FloorOffering {
  readonly extension: string;
  readonly toolset: string;
  readonly protocolVersion: string;
}

/** Wraps `app` (telemetry off) so every request records the convention's span and histogram point through these providers. */
export function sdkFloor(
  app: (req: IncomingMessage, res: ServerResponse) => void,
  providers: { readonly tracerProvider: TracerProvider; readonly meterProvider: MeterProvider },
  offering: FloorOffering,
): (req: IncomingMessage, res: ServerResponse) => void {
  const tracer = providers.tracerProvider.getTracer(FLOOR_SCOPE);
  const histogram = providers.meterProvider.getMeter(FLOOR_SCOPE).createHistogram('mcp.server.operation.duration', { unit: 's', advice: { explicitBucketBoundaries: BOUNDARIES } });
  let id = 0;
  return (req, res) => {
    const started = performance.now();
    const header = req.headers['mcp-name'];
    const tool = typeof header === 'string' ? header : 'unknown';
    // The attributes a host's tools/call span carries (requestTelemetry.ts), in its order.
    const span = tracer.startSpan(
      `tools/call ${tool}`,
      {
        kind: SpanKind.SERVER,
        attributes: {
          'mcp.method.name': 'tools/call',
          'gen_ai.tool.name': tool,
          'jsonrpc.request.id': String(id++),
          'gen_ai.operation.name': 'execute_tool',
          'mcp.protocol.version': offering.protocolVersion,
          'network.transport': 'tcp',
          'reactor.extension': offering.extension,
          'reactor.toolset': offering.toolset,
        },
      },
      ROOT_CONTEXT,
    );
    app(req, res);
    span.end();
    // The metric's attributes a host records (operationDuration.ts's metricAttributes), in its order.
    histogram.record((performance.now() - started) / 1000, {
      'network.transport': 'tcp',
      'mcp.method.name': 'tools/call',
      'gen_ai.tool.name': tool,
      'gen_ai.operation.name': 'execute_tool',
      'mcp.protocol.version': offering.protocolVersion,
      'reactor.extension': offering.extension,
      'reactor.toolset': offering.toolset,
    });
  };
}
