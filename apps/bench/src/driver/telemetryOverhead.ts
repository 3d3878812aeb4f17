/**
 * The telemetry phase: tools/call over the 2026-07-28 protocol, the same
 * catalogue served by one process with OpenTelemetry off (`/mcp`), on
 * (`/otel`), on against the API's no-op providers (`/otel-api`: the host's
 * plumbing without the SDK), spans only (`/otel-traces`), the histogram only
 * (`/otel-metrics`) and the SDK's floor (`/otel-sdk`: the least any host must
 * ask of the SDK, around a host with telemetry off); and by a second process
 * with the context manager a deployment's Node SDK registers
 * (`--context-manager`, `contextManager.ts`), off and on again. Every slice
 * is measured back to back in each round, the order turned every round, so
 * each ratio compares slices that saw the same machine. The throughput phase
 * measures the first pair among all the other scenarios; this phase gives it
 * many more, shorter pairs.
 */
import { Target } from './load.js';
import { measuredLoad, startServer, type ServerProcess } from './processes.js';
import { rotation } from './stats.js';

/** How the phase runs. */
export interface TelemetryOverheadOptions {
  readonly tools: number;
  readonly rounds: number;
  readonly sliceMs: number;
  readonly concurrency: number;
  readonly progress: (line: string) => void;
}

/**
 * The per-round rates (requests/s) and the server's CPU time per request in the same slices (µs):
 * off, on, the API's no-op providers, spans only, the histogram only, the SDK's floor; and off and on
 * in the process with the Node SDK's context manager registered (`managedOff`, `managedOn`).
 */
export interface TelemetryOverheadResult {
  readonly tools: number;
  readonly off: number[];
  readonly on: number[];
  readonly apiOnly: number[];
  readonly tracesOnly: number[];
  readonly metricsOnly: number[];
  readonly sdkFloor: number[];
  readonly managedOff: number[];
  readonly managedOn: number[];
  readonly cpuOff: number[];
  readonly cpuOn: number[];
  readonly cpuApiOnly: number[];
  readonly cpuTracesOnly: number[];
  readonly cpuMetricsOnly: number[];
  readonly cpuSdkFloor: number[];
  readonly cpuManagedOff: number[];
  readonly cpuManagedOn: number[];
}

/** A slice's place: which process, which path, and where its figures go. */
interface Slot {
  readonly server: ServerProcess;
  readonly target: Target;
  readonly path: string;
  readonly rates: number[];
  readonly cpu: number[];
}

/** Runs the phase. */
export async function measureTelemetryOverhead(options: TelemetryOverheadOptions): Promise<TelemetryOverheadResult> {
  const started: Array<{ server: ServerProcess; target: Target }> = [];
  const start = async (name: string, args: readonly string[]) => {
    const server = await startServer(name, 'reactor', ['--tools', String(options.tools), '--telemetry', ...args]);
    const target = new Target(server.name, server.origin, options.concurrency);
    started.push({ server, target });
    return { server, target };
  };
  try {
    const plain = await start(`reactor telemetry (${options.tools} tools)`, []);
    const managed = await start(`reactor telemetry, context manager registered (${options.tools} tools)`, ['--context-manager']);
    if (managed.server.detail['contextFollowsAwait'] !== true) throw new Error(`${managed.server.name}: the registered context manager does not follow an await`);
    if (plain.server.detail['contextFollowsAwait'] !== false) throw new Error(`${plain.server.name}: a context manager is registered where none should be`);
    const result: TelemetryOverheadResult = {
      tools: options.tools,
      off: [],
      on: [],
      apiOnly: [],
      tracesOnly: [],
      metricsOnly: [],
      sdkFloor: [],
      managedOff: [],
      managedOn: [],
      cpuOff: [],
      cpuOn: [],
      cpuApiOnly: [],
      cpuTracesOnly: [],
      cpuMetricsOnly: [],
      cpuSdkFloor: [],
      cpuManagedOff: [],
      cpuManagedOn: [],
    };
    const slot = (at: typeof plain, path: string, rates: number[], cpu: number[]): Slot => ({ ...at, path, rates, cpu });
    const slots: Slot[] = [
      slot(plain, '/mcp', result.off, result.cpuOff),
      slot(plain, '/otel', result.on, result.cpuOn),
      slot(plain, '/otel-api', result.apiOnly, result.cpuApiOnly),
      slot(plain, '/otel-traces', result.tracesOnly, result.cpuTracesOnly),
      slot(plain, '/otel-metrics', result.metricsOnly, result.cpuMetricsOnly),
      slot(plain, '/otel-sdk', result.sdkFloor, result.cpuSdkFloor),
      slot(managed, '/mcp', result.managedOff, result.cpuManagedOff),
      slot(managed, '/otel', result.managedOn, result.cpuManagedOn),
    ];
    const measure = (at: Slot, durationMs: number) =>
      measuredLoad(at.server, { target: at.target, era: '2026', method: 'tools/call', tools: options.tools, path: at.path }, { durationMs, concurrency: options.concurrency, minRequests: options.concurrency });
    // Warm-up: every host's code paths hot before anything is counted.
    for (const at of slots) await measure(at, options.sliceMs * 2);
    for (let round = 0; round < options.rounds; round++) {
      for (const at of rotation(slots, round)) {
        const measured = await measure(at, options.sliceMs);
        at.rates.push(measured.rate);
        at.cpu.push(measured.cpuMicros);
      }
      if ((round + 1) % 10 === 0) options.progress(`  telemetry: round ${round + 1}/${options.rounds} done`);
    }
    return result;
  } finally {
    for (const { target, server } of started) {
      await target.close();
      await server.stop();
    }
  }
}
