/**
 * The report: the figures of a run as Markdown tables (printed, and pasted
 * into docs/performance.md), each target with its measured ratio and whether
 * it was met.
 */
import type { ColdStartResult } from './driver/coldStart.js';
import type { CommandPhaseResult } from './driver/command.js';
import type { CompressionResult } from './driver/compression.js';
import type { MemoryResult } from './driver/memory.js';
import { formatBytes, formatRate, formatRatio, markdownTable, median, ratioSummary } from './driver/stats.js';
import type { TelemetryOverheadResult } from './driver/telemetryOverhead.js';
import type { ScenarioKey, SeriesByScenario, ThroughputResults } from './driver/throughput.js';

/** Everything a run measured. */
export interface RunResults {
  readonly throughput: ThroughputResults | undefined;
  readonly memory: { reactor: MemoryResult; sdk: MemoryResult; tools: number } | undefined;
  readonly coldStart: ColdStartResult | undefined;
  readonly telemetry?: TelemetryOverheadResult | undefined;
  readonly compression?: CompressionResult | undefined;
  readonly command?: CommandPhaseResult | undefined;
}

/** One target: a name, the measured value, the goal and whether it was met. */
export interface TargetRow {
  readonly target: string;
  readonly measured: string;
  readonly goal: string;
  readonly met: boolean;
}

const LABELS: Record<ScenarioKey, string> = {
  'list.reactor2025': 'tools/list — Reactor, 2025 stateless (fast path: one server shared per blueprint, answer encoded once)',
  'list.reactor2026': 'tools/list — Reactor, 2026-07-28 (fast path: answer encoded once per blueprint)',
  'list.sdk2025': 'tools/list — SDK fresh server per request, 2025 stateless',
  'list.sdk2026': 'tools/list — SDK fresh server per request, 2026-07-28',
  'list.fastmcp': 'tools/list — fastmcp, stateless',
  'list.session': 'tools/list — SDK, one long-lived session',
  'call.reactor2025': 'tools/call — Reactor, 2025 stateless (fast path: one server shared per blueprint)',
  'call.reactor2026': 'tools/call — Reactor, 2026-07-28 (fast path: one server shared per blueprint)',
  'call.sdk2025': 'tools/call — SDK fresh server per request, 2025 stateless',
  'call.sdk2026': 'tools/call — SDK fresh server per request, 2026-07-28',
  'call.fastmcp': 'tools/call — fastmcp, stateless',
  'call.session': 'tools/call — SDK, one long-lived session',
  'call.reactorMiddleware2026': 'tools/call — Reactor, 2026-07-28, one no-op middleware on every call',
  'call.reactorMiddlewareOff2026': 'tools/call — the same process, its middleware toolset not selected',
  'list.ceiling2026': 'tools/list — ceiling: bare node:http replaying the 2026-07-28 answer',
  'call.ceiling2026': 'tools/call — ceiling: bare node:http replaying the 2026-07-28 answer',
  'call.floor2026': 'tools/call — floor: bare node:http validating (SDK guard, zod) and encoding the answer itself',
  'call.reactorTelemetry2026': 'tools/call — Reactor, 2026-07-28, OpenTelemetry on (SDK spans + histogram, exporter drops them)',
  'call.reactorTelemetryOff2026': 'tools/call — the same process, a host without telemetry',
};

/** One figure per scenario and tool count: the median over rounds of `series`. */
function scenarioTable(series: SeriesByScenario, heading: string): string {
  const counts = [...series.keys()];
  const keys = Object.keys(LABELS) as ScenarioKey[];
  const rows = keys.map((key) => [LABELS[key], ...counts.map((n) => formatRate(median(series.get(n)![key])))]);
  return markdownTable([heading, ...counts.map((n) => `${n} tools`)], rows);
}

/** The throughput table: requests per second (median over rounds) per scenario and tool count. */
export function throughputTable(results: ThroughputResults): string {
  return scenarioTable(results.rates, 'Scenario (requests/s, median of rounds)');
}

/**
 * What a request costs the server: its process's CPU time per answered
 * request (median over rounds), µs. Unlike a rate, it does not depend on how
 * much of the machine the load generator takes — the ceiling's rate is the
 * generator's limit more than the server's.
 */
export function cpuTable(results: ThroughputResults): string {
  return scenarioTable(results.cpu, 'Scenario (server CPU µs per request, median of rounds)');
}

/** The CPU cost of one scenario as a multiple of another's (per-round ratios of µs per request), for the comparisons the targets make by rate. */
const CPU_COMPARISONS: ReadonlyArray<readonly [ScenarioKey, ScenarioKey, string]> = [
  ['call.reactor2026', 'call.ceiling2026', 'tools/call, 2026-07-28: Reactor ÷ bare node:http (same bytes)'],
  ['call.floor2026', 'call.ceiling2026', 'tools/call, 2026-07-28: the floor (validation and encoding alone) ÷ bare node:http'],
  ['call.reactor2026', 'call.floor2026', 'tools/call, 2026-07-28: Reactor ÷ the floor'],
  ['list.reactor2026', 'list.ceiling2026', 'tools/list, 2026-07-28: Reactor ÷ bare node:http (same bytes)'],
  ['call.reactor2026', 'call.session', 'tools/call: Reactor 2026-07-28 ÷ one long-lived SDK session'],
  ['call.reactorTelemetry2026', 'call.reactorTelemetryOff2026', 'tools/call, 2026-07-28: OpenTelemetry on ÷ off (one process)'],
  ['call.reactorMiddleware2026', 'call.reactorMiddlewareOff2026', 'tools/call, 2026-07-28: one no-op middleware on ÷ off (one process)'],
];

/** The CPU comparisons: how many times the second scenario's CPU per request the first costs (lower is better). */
export function cpuComparisonTable(results: ThroughputResults): string {
  const counts = [...results.cpu.keys()];
  const rows = CPU_COMPARISONS.map(([a, b, label]) => [
    label,
    ...counts.map((n) => {
      const series = results.cpu.get(n)!;
      const r = ratioSummary(series[a], series[b]);
      return `${formatRatio(r.median)} (${formatRate(median(series[a]))} vs ${formatRate(median(series[b]))} µs)`;
    }),
  ]);
  return markdownTable(['Server CPU per request, as a multiple (lower is better)', ...counts.map((n) => `${n} tools`)], rows);
}

const COMMAND_LABELS = {
  defaults: '`reactor-mcp-server`, defaults (`info` access log, stderr to a file)',
  pretty: '`reactor-mcp-server --log-format pretty` (stderr to a file)',
  redis: '`reactor-mcp-server --redis-url` (a local redis-server)',
} as const;

const loadAverage = (load: readonly number[]) => load.map((l) => l.toFixed(2)).join(' ');

/**
 * The command as deployed: each row's 2026-07-28 `tools/call` rate against
 * bare node:http answering the same bytes (median of per-round ratios), and
 * what the access log wrote.
 */
export function commandTable(c: CommandPhaseResult): string {
  const rows = (['defaults', 'pretty', 'redis'] as const).map((key) => {
    const r = ratioSummary(c.rates[key], c.rates.ceiling);
    const cpu = ratioSummary(c.cpu[key], c.cpu.ceiling);
    return [COMMAND_LABELS[key], formatRate(median(c.rates[key])), `${formatRatio(r.median)} (${formatRatio(r.min)}–${formatRatio(r.max)})`, `${formatRate(median(c.cpu[key]))} (${formatRatio(cpu.median)})`, formatBytes(c.logBytes[key])];
  });
  rows.push(['bare `node:http` answering the same bytes', formatRate(median(c.rates.ceiling)), '1×', `${formatRate(median(c.cpu.ceiling))} (1×)`, '—']);
  const redisLoad = Object.entries(c.redisDuringLoad).map(([n, v]) => `${n} ${v}`).join(', ') || 'none';
  const redisIdle = Object.entries(c.redisIdle).map(([n, v]) => `${n} ${v}`).join(', ') || 'none';
  return [
    markdownTable([`As deployed: 2026-07-28 tools/call, ${c.tools} tools, ${c.concurrency} in flight, ${c.rates.ceiling.length} rounds`, 'requests/s (median)', '÷ bare node:http (rounds)', 'server CPU µs per request (× bare)', 'stderr written'], rows),
    '',
    `Load average (1, 5, 15 min): ${loadAverage(c.loadBefore)} at the start of the phase, ${loadAverage(c.loadAfter)} at its end.`,
    `Redis commands during the measured --redis-url slices (${c.redisLoadSeconds.toFixed(1)} s, ${c.redisRequests.toLocaleString('en-US')} tools/call): ${redisLoad}; ` +
      `in an idle ${c.redisIdleSeconds.toFixed(1)} s with no request: ${redisIdle}.`,
  ].join('\n');
}

/** Redis commands per `tools/call` beyond the replica's idle background (its heartbeat), from the phase's counts. */
export function redisCommandsPerCall(c: CommandPhaseResult): number {
  const total = (counts: Readonly<Record<string, number>>) => Object.values(counts).reduce((a, b) => a + b, 0);
  const background = c.redisIdleSeconds > 0 ? (total(c.redisIdle) / c.redisIdleSeconds) * c.redisLoadSeconds : 0;
  return Math.max(0, total(c.redisDuringLoad) - background) / Math.max(1, c.redisRequests);
}

function ratioRow(results: ThroughputResults, tools: number, a: ScenarioKey, b: ScenarioKey, target: string, goal: number): TargetRow {
  const series = results.rates.get(tools);
  const r = ratioSummary(series![a], series![b]);
  return { target: `${target} (${tools} tools)`, measured: `${formatRatio(r.median)} (rounds: ${formatRatio(r.min)}–${formatRatio(r.max)})`, goal: `≥ ${goal}×`, met: r.median >= goal };
}

/** Every target the run can judge. */
export function targetRows(run: RunResults): TargetRow[] {
  const rows: TargetRow[] = [];
  const t = run.throughput;
  if (t) {
    for (const tools of t.rates.keys()) {
      const listGoal = tools >= 1000 ? 5 : 3;
      rows.push(ratioRow(t, tools, 'list.reactor2025', 'list.sdk2025', 'tools/list per request, 2025 stateless: Reactor ÷ SDK fresh server per request', listGoal));
      rows.push(ratioRow(t, tools, 'list.reactor2026', 'list.sdk2026', 'tools/list per request, 2026-07-28: Reactor ÷ SDK fresh server per request', listGoal));
      rows.push(ratioRow(t, tools, 'list.reactor2025', 'list.fastmcp', 'tools/list per request: Reactor 2025 stateless ÷ fastmcp stateless', 1));
      rows.push(ratioRow(t, tools, 'list.reactor2026', 'list.fastmcp', 'tools/list per request: Reactor 2026-07-28 ÷ fastmcp stateless', 1));
      rows.push(ratioRow(t, tools, 'call.reactor2025', 'call.session', 'tools/call per request: Reactor 2025 stateless ÷ one long-lived SDK session', 0.6));
      rows.push(ratioRow(t, tools, 'call.reactor2026', 'call.session', 'tools/call per request: Reactor 2026-07-28 ÷ one long-lived SDK session', 1.5));
      rows.push(ratioRow(t, tools, 'call.reactor2025', 'call.fastmcp', 'tools/call per request: Reactor 2025 stateless ÷ fastmcp stateless', 1));
      rows.push(ratioRow(t, tools, 'call.reactor2026', 'call.fastmcp', 'tools/call per request: Reactor 2026-07-28 ÷ fastmcp stateless', 1));
      rows.push(ratioRow(t, tools, 'call.reactorMiddleware2026', 'call.reactorMiddlewareOff2026', 'tools/call per request, 2026-07-28: one no-op middleware on ÷ off (one process)', 0.9));
      // The fast path's targets (issue 20): per-request serving against the bare-HTTP ceiling.
      if (tools < 1000) rows.push(ratioRow(t, tools, 'call.reactor2026', 'call.ceiling2026', 'tools/call per request, 2026-07-28: Reactor ÷ bare node:http (same bytes)', 0.5));
      else rows.push(ratioRow(t, tools, 'list.reactor2026', 'list.ceiling2026', 'tools/list per request, 2026-07-28: Reactor ÷ bare node:http (same bytes)', 0.5));
      rows.push(ratioRow(t, tools, 'call.reactorTelemetry2026', 'call.reactorTelemetryOff2026', 'tools/call per request, 2026-07-28: OpenTelemetry on (no-op exporter) ÷ off (one process)', 0.9));
    }
  }
  const m = run.memory;
  if (m) {
    const share = m.reactor.rssPerSession / m.sdk.rssPerSession;
    rows.push({
      target: `Memory per open 2025 session (${m.tools} tools): Reactor ÷ SDK fresh server per session`,
      measured: `${(share * 100).toFixed(1)}% (RSS ${formatBytes(m.reactor.rssPerSession)} vs ${formatBytes(m.sdk.rssPerSession)}; heap ${formatBytes(m.reactor.heapPerSession)} vs ${formatBytes(m.sdk.heapPerSession)})`,
      goal: '≤ 25%',
      met: share <= 0.25,
    });
  }
  const cmd = run.command;
  if (cmd) {
    const defaults = ratioSummary(cmd.rates.defaults, cmd.rates.ceiling);
    const redis = ratioSummary(cmd.rates.redis, cmd.rates.ceiling);
    const load = `load average ${loadAverage(cmd.loadBefore)} → ${loadAverage(cmd.loadAfter)}`;
    rows.push({ target: `As deployed: reactor-mcp-server with its defaults (info access log to a file) ÷ bare node:http, 2026-07-28 tools/call (${cmd.tools} tools)`, measured: `${formatRatio(defaults.median)} (rounds: ${formatRatio(defaults.min)}–${formatRatio(defaults.max)}; ${load})`, goal: '≥ 0.7×', met: defaults.median >= 0.7 });
    rows.push({ target: 'As deployed: the same with --redis-url, against the defaults', measured: `${formatRatio(redis.median)} vs ${formatRatio(defaults.median)}`, goal: 'within 5%', met: redis.median >= defaults.median * 0.95 });
    const perCall = redisCommandsPerCall(cmd);
    rows.push({ target: 'As deployed: Redis commands per 2026-07-28 tools/call on a --redis-url replica (beyond its idle heartbeat)', measured: `${perCall.toFixed(4)} (${cmd.redisRequests.toLocaleString('en-US')} calls)`, goal: '0 (< 0.001: noise of the heartbeat)', met: perCall < 0.001 });
  }
  const o = run.telemetry;
  if (o) {
    const r = ratioSummary(o.on, o.off);
    rows.push({
      target: `tools/call per request, 2026-07-28: OpenTelemetry on (no-op exporter) ÷ off, ${o.on.length} rounds of back-to-back slices (${o.tools} tools)`,
      measured:
        `${formatRatio(r.median)} (rounds: ${formatRatio(r.min)}–${formatRatio(r.max)}; ${formatRate(median(o.on))} vs ${formatRate(median(o.off))} requests/s; ` +
        `server CPU ${formatRate(median(o.cpuOn))} vs ${formatRate(median(o.cpuOff))} µs per request, ${formatRatio(ratioSummary(o.cpuOn, o.cpuOff).median)}; ` +
        `the host's plumbing alone, against the API's no-op providers: ${formatRatio(ratioSummary(o.apiOnly, o.off).median)} by rate, ${formatRate(median(o.cpuApiOnly))} µs; ` +
        `spans alone ${formatRatio(ratioSummary(o.tracesOnly, o.off).median)} (${formatRate(median(o.cpuTracesOnly))} µs), the histogram alone ${formatRatio(ratioSummary(o.metricsOnly, o.off).median)} (${formatRate(median(o.cpuMetricsOnly))} µs); ` +
        `the SDK's floor, its span and point around an untraced host with none of the host's plumbing: ${formatRatio(ratioSummary(o.sdkFloor, o.off).median)} (${formatRate(median(o.cpuSdkFloor))} µs), the best any host could reach here; ` +
        `as deployed, with the context manager the Node SDK registers, in a process of its own: on ${formatRatio(ratioSummary(o.managedOn, o.off).median)} of the first process's off (${formatRate(median(o.cpuManagedOn))} µs), its own off ${formatRatio(ratioSummary(o.managedOff, o.off).median)} (${formatRate(median(o.cpuManagedOff))} µs))`,
      goal: '≥ 0.9×',
      met: r.median >= 0.9,
    });
  }
  const z = run.compression;
  if (z) {
    rows.push({
      target: `tools/list at ${z.tools} tools, bytes on the wire: Accept-Encoding br ÷ none`,
      measured: `${(z.br / z.plain).toFixed(3)} (${formatBytes(z.br)} vs ${formatBytes(z.plain)}; gzip ${(z.gzip / z.plain).toFixed(3)})`,
      goal: '≤ 0.15',
      met: z.br / z.plain <= 0.15,
    });
  }
  const c = run.coldStart;
  if (c) {
    rows.push({
      target: 'Cold start to the first tools/list: 50 installed (48 held) ÷ 2 installed',
      measured: `${formatRatio(c.ratio)} (${Math.round(c.manyMs)} ms vs ${Math.round(c.fewMs)} ms)`,
      goal: '≤ 1.2×',
      met: c.ratio <= 1.2,
    });
  }
  return rows;
}

/** The targets table. */
export function targetsTable(rows: readonly TargetRow[]): string {
  return markdownTable(['Target', 'Measured (median of per-round ratios)', 'Goal', 'Met'], rows.map((r) => [r.target, r.measured, r.goal, r.met ? 'yes' : '**no**']));
}
