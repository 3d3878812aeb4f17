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

/** The per-round rates, off and on (requests/s), and the server's CPU time per request in the same slices (µs). */
export interface TelemetryOverheadResult {
  readonly tools: number;
  readonly off: number[];
  readonly on: number[];
  readonly cpuOff: number[];
  readonly cpuOn: number[];
}

/** Runs the phase. */
export async function measureTelemetryOverhead(options: TelemetryOverheadOptions): Promise<TelemetryOverheadResult> {
  const server = await startServer(`reactor telemetry (${options.tools} tools)`, 'reactor', ['--tools', String(options.tools), '--telemetry']);
  const target = new Target(server.name, server.origin, options.concurrency);
  try {
    const slice = async (path: string, durationMs: number) => {
      const before = await server.cpu();
      const result = await runLoad({ target, era: '2026', method: 'tools/call', tools: options.tools, path }, { durationMs, concurrency: options.concurrency, minRequests: options.concurrency });
      return { rate: result.rate, cpu: ((await server.cpu()) - before) / result.requests };
    };
    // Warm-up: both hosts' code paths hot before anything is counted.
    await slice('/mcp', options.sliceMs * 2);
    await slice('/otel', options.sliceMs * 2);
    const result: TelemetryOverheadResult = { tools: options.tools, off: [], on: [], cpuOff: [], cpuOn: [] };
    for (let round = 0; round < options.rounds; round++) {
      const order = round % 2 === 0 ? (['/mcp', '/otel'] as const) : (['/otel', '/mcp'] as const);
      for (const path of order) {
        const measured = await slice(path, options.sliceMs);
        (path === '/mcp' ? result.off : result.on).push(measured.rate);
        (path === '/mcp' ? result.cpuOff : result.cpuOn).push(measured.cpu);
      }
      if ((round + 1) % 10 === 0) options.progress(`  telemetry: round ${round + 1}/${options.rounds} done`);
    }
    return result;
  } finally {
    await target.close();
    await server.stop();
  }
}
