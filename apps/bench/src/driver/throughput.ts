/**
 * The throughput phase: for each tool count, the servers side by side, every
 * scenario measured once per round in a rotating order, a warm-up round
 * first. Each scenario's series of per-round rates is kept, so ratios are
 * taken within a round — and beside it the server process's CPU time per
 * answered request in the same slices (read from the process over IPC before
 * and after each), what a call costs the server whatever the load generator
 * on the same machine takes.
 */
import { MIDDLEWARE_QUERY } from '../frameworks/reactor.js';
import { Target, type Load } from './load.js';
import { measuredLoad, startServer, type ServerProcess, type ServerScript } from './processes.js';
import { rotation } from './stats.js';
import type { Era, Method } from './wire.js';

/** The scenarios, by key. */
export const SCENARIOS = {
  'list.reactor2025': { server: 'reactor', era: '2025-stateless', method: 'tools/list' },
  'list.reactor2026': { server: 'reactor', era: '2026', method: 'tools/list' },
  'list.sdk2025': { server: 'sdkPerRequest', era: '2025-stateless', method: 'tools/list' },
  'list.sdk2026': { server: 'sdkPerRequest', era: '2026', method: 'tools/list' },
  'list.fastmcp': { server: 'fastmcp', era: '2025-stateless', method: 'tools/list' },
  'list.session': { server: 'sdkSession', era: '2025-session', method: 'tools/list' },
  'call.reactor2025': { server: 'reactor', era: '2025-stateless', method: 'tools/call' },
  'call.reactor2026': { server: 'reactor', era: '2026', method: 'tools/call' },
  'call.sdk2025': { server: 'sdkPerRequest', era: '2025-stateless', method: 'tools/call' },
  'call.sdk2026': { server: 'sdkPerRequest', era: '2026', method: 'tools/call' },
  'call.fastmcp': { server: 'fastmcp', era: '2025-stateless', method: 'tools/call' },
  'call.session': { server: 'sdkSession', era: '2025-session', method: 'tools/call' },
  // Middleware on and off in the same process (the layer's toolset selected or not), so
  // the ratio compares like with like: same heap, same JIT, same share of the rounds.
  'call.reactorMiddleware2026': { server: 'reactorMiddleware', era: '2026', method: 'tools/call', path: `/mcp${MIDDLEWARE_QUERY}` },
  'call.reactorMiddlewareOff2026': { server: 'reactorMiddleware', era: '2026', method: 'tools/call', path: '/mcp' },
  // The ceiling: bare node:http replaying Reactor's own 2026-07-28 answers.
  'list.ceiling2026': { server: 'ceiling', era: '2026', method: 'tools/list' },
  'call.ceiling2026': { server: 'ceiling', era: '2026', method: 'tools/call' },
  // The floor: bare node:http doing the protocol's validation and encoding itself, nothing a host adds.
  'call.floor2026': { server: 'floor', era: '2026', method: 'tools/call' },
  // OpenTelemetry on (spans and the histogram through a real SDK, dropped at export) and off, in one process.
  'call.reactorTelemetry2026': { server: 'reactorTelemetry', era: '2026', method: 'tools/call', path: '/otel' },
  'call.reactorTelemetryOff2026': { server: 'reactorTelemetry', era: '2026', method: 'tools/call', path: '/mcp' },
} as const satisfies Record<string, { server: ServerKey; era: Era; method: Method; path?: string }>;

/** The server processes of a round: a script and its extra arguments. */
const SERVERS = {
  reactor: { script: 'reactor', args: [] },
  // The same app with an opt-in toolset whose one no-op middleware wraps every tools/call.
  reactorMiddleware: { script: 'reactor', args: ['--middleware'] },
  // Two hosts in one process: telemetry off at /mcp, on at /otel.
  reactorTelemetry: { script: 'reactor', args: ['--telemetry'] },
  sdkPerRequest: { script: 'sdkPerRequest', args: [] },
  sdkSession: { script: 'sdkSession', args: [] },
  fastmcp: { script: 'fastmcp', args: [] },
  ceiling: { script: 'ceiling', args: [] },
  floor: { script: 'floor', args: [] },
} as const satisfies Record<string, { script: ServerScript; args: readonly string[] }>;
type ServerKey = keyof typeof SERVERS;

/** A scenario key. */
export type ScenarioKey = keyof typeof SCENARIOS;

/** How the phase runs. */
export interface ThroughputOptions {
  readonly toolCounts: readonly number[];
  readonly rounds: number;
  /** How long each scenario runs in each round, ms. */
  readonly sliceMs: number;
  readonly concurrency: number;
  /** How long each scenario runs in the (unmeasured) warm-up round, ms. */
  readonly warmUpMs: number;
  readonly progress: (line: string) => void;
}

/** Per tool count, per scenario: one figure for each measured round. */
export type SeriesByScenario = Map<number, Record<ScenarioKey, number[]>>;

/** What the phase measured. */
export interface ThroughputResults {
  /** Requests per second. */
  readonly rates: SeriesByScenario;
  /** The server process's CPU time per answered request, microseconds. */
  readonly cpu: SeriesByScenario;
}

/** Runs the phase: starts the servers of each tool count, measures, stops them. */
export async function measureThroughput(options: ThroughputOptions): Promise<ThroughputResults> {
  const rates: SeriesByScenario = new Map();
  const cpu: SeriesByScenario = new Map();
  for (const tools of options.toolCounts) {
    const processes = new Map<ServerKey, ServerProcess>();
    const targets = new Map<string, Target>();
    try {
      for (const server of Object.keys(SERVERS) as ServerKey[]) {
        const { script, args } = SERVERS[server];
        const started = await startServer(`${server} (${tools} tools)`, script, ['--tools', String(tools), ...args]);
        processes.set(server, started);
        targets.set(server, new Target(started.name, started.origin, options.concurrency));
      }
      const sessionId = await targets.get('sdkSession')!.openSession();
      const keys = Object.keys(SCENARIOS) as ScenarioKey[];
      const loadOf = (key: ScenarioKey): Load => {
        const s: { server: ServerKey; era: Era; method: Method; path?: string } = SCENARIOS[key];
        return { target: targets.get(s.server)!, era: s.era, method: s.method, tools, ...(s.era === '2025-session' ? { sessionId } : {}), ...(s.path !== undefined ? { path: s.path } : {}) };
      };
      const series = Object.fromEntries(keys.map((k) => [k, [] as number[]])) as Record<ScenarioKey, number[]>;
      const cpuSeries = Object.fromEntries(keys.map((k) => [k, [] as number[]])) as Record<ScenarioKey, number[]>;
      for (let round = 0; round <= options.rounds; round++) {
        const warmUp = round === 0;
        for (const key of rotation(keys, round)) {
          const server = processes.get(SCENARIOS[key].server)!;
          const result = await measuredLoad(server, loadOf(key), { durationMs: warmUp ? options.warmUpMs : options.sliceMs, concurrency: options.concurrency, minRequests: options.concurrency });
          if (warmUp) continue;
          series[key].push(result.rate);
          cpuSeries[key].push(result.cpuMicros);
        }
        options.progress(`  ${tools} tools: ${warmUp ? 'warm-up round' : `round ${round}/${options.rounds}`} done`);
      }
      rates.set(tools, series);
      cpu.set(tools, cpuSeries);
    } finally {
      await Promise.all([...targets.values()].map((t) => t.close()));
      await Promise.all([...processes.values()].map((p) => p.stop()));
    }
  }
  return { rates, cpu };
}
