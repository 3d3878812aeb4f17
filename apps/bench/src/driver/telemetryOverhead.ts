/**
 * The telemetry phase: tools/call over the 2026-07-28 protocol against one
 * server process serving the same catalogue with OpenTelemetry off (`/mcp`)
 * and on (`/otel`), the two measured back to back in each round, the order
 * swapped every round, so each ratio compares slices that saw the same
 * machine. The throughput phase measures the same pair among all the other
 * scenarios; this phase gives it many more, shorter pairs.
 */
import { runLoad, Target } from './load.js';
import { startServer } from './processes.js';

/** How the phase runs. */
export interface TelemetryOverheadOptions {
  readonly tools: number;
  readonly rounds: number;
  readonly sliceMs: number;
  readonly concurrency: number;
  readonly progress: (line: string) => void;
}

/** The per-round rates, off and on (requests/s). */
export interface TelemetryOverheadResult {
  readonly tools: number;
  readonly off: number[];
  readonly on: number[];
}

/** Runs the phase. */
export async function measureTelemetryOverhead(options: TelemetryOverheadOptions): Promise<TelemetryOverheadResult> {
  const server = await startServer(`reactor telemetry (${options.tools} tools)`, 'reactor', ['--tools', String(options.tools), '--telemetry']);
  const target = new Target(server.name, server.origin, options.concurrency);
  try {
    const slice = (path: string, durationMs: number) =>
      runLoad({ target, era: '2026', method: 'tools/call', tools: options.tools, path }, { durationMs, concurrency: options.concurrency, minRequests: options.concurrency });
    // Warm-up: both hosts' code paths hot before anything is counted.
    await slice('/mcp', options.sliceMs * 2);
    await slice('/otel', options.sliceMs * 2);
    const off: number[] = [];
    const on: number[] = [];
    for (let round = 0; round < options.rounds; round++) {
      const order = round % 2 === 0 ? (['/mcp', '/otel'] as const) : (['/otel', '/mcp'] as const);
      for (const path of order) (path === '/mcp' ? off : on).push((await slice(path, options.sliceMs)).rate);
      if ((round + 1) % 10 === 0) options.progress(`  telemetry: round ${round + 1}/${options.rounds} done`);
    }
    return { tools: options.tools, off, on };
  } finally {
    await target.close();
    await server.stop();
  }
}
