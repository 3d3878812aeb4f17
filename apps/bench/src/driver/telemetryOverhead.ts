/**
 * The telemetry phase: tools/call over the 2026-07-28 protocol against one
 * server process serving the same catalogue with OpenTelemetry off (`/mcp`),
 * on (`/otel`), on against the API's no-op providers (`/otel-api`: the
 * host's plumbing without the SDK), spans only (`/otel-traces`) and the
 * histogram only (`/otel-metrics`) and the SDK's floor (`/otel-sdk`: the
 * least any host must ask of the SDK, around a host with telemetry off),
 * measured back to back in each round, the
 * order turned every round, so each ratio compares slices that saw the same
 * machine. The throughput phase measures the same pair among all the other
 * scenarios; this phase gives it many more, shorter pairs.
 */
import { Target } from './load.js';
import { measuredLoad, startServer } from './processes.js';
import { rotation } from './stats.js';

/** How the phase runs. */
export interface TelemetryOverheadOptions {
  readonly tools: number;
  readonly rounds: number;
  readonly sliceMs: number;
  readonly concurrency: number;
  readonly progress: (line: string) => void;
}

/** The per-round rates (requests/s) and the server's CPU time per request in the same slices (µs): off, on, the API's no-op providers, spans only, the histogram only, the SDK's floor. */
export interface TelemetryOverheadResult {
  readonly tools: number;
  readonly off: number[];
  readonly on: number[];
  readonly apiOnly: number[];
  readonly tracesOnly: number[];
  readonly metricsOnly: number[];
  readonly sdkFloor: number[];
  readonly cpuOff: number[];
  readonly cpuOn: number[];
  readonly cpuApiOnly: number[];
  readonly cpuTracesOnly: number[];
  readonly cpuMetricsOnly: number[];
  readonly cpuSdkFloor: number[];
}

const PATHS = ['/mcp', '/otel', '/otel-api', '/otel-traces', '/otel-metrics', '/otel-sdk'] as const;

/** Runs the phase. */
export async function measureTelemetryOverhead(options: TelemetryOverheadOptions): Promise<TelemetryOverheadResult> {
  const server = await startServer(`reactor telemetry (${options.tools} tools)`, 'reactor', ['--tools', String(options.tools), '--telemetry']);
  const target = new Target(server.name, server.origin, options.concurrency);
  try {
    const slice = (path: string, durationMs: number) =>
      measuredLoad(server, { target, era: '2026', method: 'tools/call', tools: options.tools, path }, { durationMs, concurrency: options.concurrency, minRequests: options.concurrency });
    // Warm-up: both hosts' code paths hot before anything is counted.
    for (const path of PATHS) await slice(path, options.sliceMs * 2);
    const result: TelemetryOverheadResult = { tools: options.tools, off: [], on: [], apiOnly: [], tracesOnly: [], metricsOnly: [], sdkFloor: [], cpuOff: [], cpuOn: [], cpuApiOnly: [], cpuTracesOnly: [], cpuMetricsOnly: [], cpuSdkFloor: [] };
    const series = {
      '/mcp': [result.off, result.cpuOff],
      '/otel': [result.on, result.cpuOn],
      '/otel-api': [result.apiOnly, result.cpuApiOnly],
      '/otel-traces': [result.tracesOnly, result.cpuTracesOnly],
      '/otel-metrics': [result.metricsOnly, result.cpuMetricsOnly],
      '/otel-sdk': [result.sdkFloor, result.cpuSdkFloor],
    } as const;
    for (let round = 0; round < options.rounds; round++) {
      for (const path of rotation(PATHS, round)) {
        const measured = await slice(path, options.sliceMs);
        series[path][0].push(measured.rate);
        series[path][1].push(measured.cpuMicros);
      }
      if ((round + 1) % 10 === 0) options.progress(`  telemetry: round ${round + 1}/${options.rounds} done`);
    }
    return result;
  } finally {
    await target.close();
    await server.stop();
  }
}
