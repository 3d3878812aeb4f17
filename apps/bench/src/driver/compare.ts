/**
 * Two builds of `@reactor/host`, compared by what a request costs the server.
 *
 * Rates on a small machine are noisy: the load generator shares the cores,
 * and other tenants of the machine come and go. Measured in separate
 * processes minutes apart, two builds a few percent apart cannot be told
 * apart. Here both builds serve from one process (`servers/builds.ts`), and
 * the load alternates between them in short slices — after, before, before,
 * after… — each slice read as the server's CPU time per request answered. A
 * pair of adjacent slices meets the same machine; the median of the pairs'
 * differences is the figure. Where `taskset` exists and there are two CPUs or
 * more, the server and the load generator are pinned to CPUs of their own.
 *
 * The same measurement compares one build under two sets of Node flags
 * (`compareNodeFlags`): flags are a process's, so there the two sides are two
 * server processes, the load alternating between them in the same way.
 */
import { execFileSync } from 'node:child_process';
import { availableParallelism } from 'node:os';
import { BEFORE_PATH, MIDDLEWARE_QUERY, SPANS_PATH } from '../frameworks/reactor.js';
import { Target } from './load.js';
import { measuredLoad, startServer, type MeasuredLoad, type ServerProcess } from './processes.js';
import { median } from './stats.js';
import type { Era, Method } from './wire.js';

export interface CompareOptions {
  /** The directory of the build to compare against (a copy of `packages/host/dist`). */
  readonly before: string;
  readonly tools: number;
  readonly era: Era;
  readonly method: Method;
  /** Length of one slice. */
  readonly sliceMs: number;
  /** Pairs of slices (one per build each). */
  readonly rounds: number;
  readonly concurrency: number;
  /** Pin the server and this process to CPUs of their own where `taskset` can (the command does; a test must not pin its runner). */
  readonly pin: boolean;
  /** Both builds with OpenTelemetry on (one set of SDK providers, exporting to nowhere). */
  readonly telemetry?: boolean;
  /** Both builds serving the call through one no-op middleware (the opt-in toolset that carries it selected). */
  readonly middleware?: boolean;
}

/** One slice: a build under load for a while. */
export type Slice = Pick<MeasuredLoad, 'requests' | 'rate' | 'cpuMicros'>;

export interface Comparison {
  readonly before: readonly Slice[];
  readonly after: readonly Slice[];
  /** after − before, µs, per round. */
  readonly differences: readonly number[];
  /** Whether the server and the load generator had CPUs of their own. */
  readonly pinned: boolean;
  /** With `telemetry`: the spans the SDK exported over the whole run (warm-up included), both builds together. */
  readonly exportedSpans?: number;
}

/** Pins every thread of `pid` to `cpu`; false where that cannot be done. */
function pin(pid: number, cpu: number): boolean {
  try {
    execFileSync('taskset', ['-a', '-cp', String(cpu), String(pid)], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

/**
 * Warms both sides up (blueprints, shared servers, compiled code), then
 * measures `rounds` pairs of slices, alternating which side goes first so
 * neither always meets the machine a slice later.
 */
async function pairedSlices(options: Pick<CompareOptions, 'sliceMs' | 'rounds'>, slice: (side: 'before' | 'after', durationMs: number) => Promise<Slice>): Promise<Pick<Comparison, 'before' | 'after' | 'differences'>> {
  for (const side of ['before', 'after'] as const) await slice(side, Math.max(options.sliceMs, 1_000));
  const before: Slice[] = [];
  const after: Slice[] = [];
  for (let round = 0; round < options.rounds; round++) {
    const order = round % 2 === 0 ? (['before', 'after'] as const) : (['after', 'before'] as const);
    for (const side of order) (side === 'before' ? before : after).push(await slice(side, options.sliceMs));
  }
  return { before, after, differences: after.map((a, i) => a.cpuMicros - before[i]!.cpuMicros) };
}

/** Runs the comparison. */
export async function compareBuilds(options: CompareOptions): Promise<Comparison> {
  const server = await startServer('builds', 'builds', ['--before', options.before, '--tools', String(options.tools), ...(options.telemetry ? ['--telemetry'] : []), ...(options.middleware ? ['--middleware'] : [])]);
  const query = options.middleware ? MIDDLEWARE_QUERY : '';
  const target = new Target('builds', server.origin, options.concurrency);
  try {
    const pinned = options.pin && process.platform === 'linux' && availableParallelism() >= 2 && pin(server.pid, 1) && pin(process.pid, 0);
    const paired = await pairedSlices(options, (side, durationMs) =>
      measuredLoad(server, { target, era: options.era, method: options.method, tools: options.tools, path: `${side === 'before' ? BEFORE_PATH : '/mcp'}${query}` }, { durationMs, concurrency: options.concurrency, minRequests: options.concurrency }),
    );
    if (!options.telemetry) return { ...paired, pinned };
    const answer = await target.pool.request({ path: SPANS_PATH, method: 'GET' });
    return { ...paired, pinned, exportedSpans: Number(await answer.body.text()) };
  } finally {
    await target.close();
    await server.stop();
  }
}

/** How `compareNodeFlags` runs: the catalogue and load as for two builds, and the Node flags the second process gets. */
export type FlagsOptions = Omit<CompareOptions, 'before' | 'pin' | 'telemetry'> & {
  /** Node flags for the second server process (the first gets none), e.g. `['--single-threaded-gc']`. */
  readonly flags: readonly string[];
};

/**
 * Compares this workspace's Reactor served by two processes, the second
 * started with `flags`: the same slices and pairs as {@link compareBuilds},
 * the load alternating between the processes. Not pinned: a flag such as
 * `--single-threaded-gc` changes how the process uses the machine's CPUs,
 * which is what is measured.
 */
export async function compareNodeFlags(options: FlagsOptions): Promise<Comparison> {
  const args = ['--tools', String(options.tools)];
  const plain = await startServer('reactor', 'reactor', args);
  let flagged: ServerProcess | undefined;
  const targets: Target[] = [new Target('reactor', plain.origin, options.concurrency)];
  try {
    flagged = await startServer(`reactor ${options.flags.join(' ')}`, 'reactor', args, options.flags);
    targets.push(new Target(flagged.name, flagged.origin, options.concurrency));
    const servers = { before: plain, after: flagged };
    const paired = await pairedSlices(options, (side, durationMs) =>
      measuredLoad(servers[side], { target: targets[side === 'before' ? 0 : 1]!, era: options.era, method: options.method, tools: options.tools }, { durationMs, concurrency: options.concurrency, minRequests: options.concurrency }),
    );
    return { ...paired, pinned: false };
  } finally {
    await Promise.all(targets.map((t) => t.close()));
    await Promise.all([plain.stop(), flagged?.stop()]);
  }
}

/** What the two sides of a comparison are called in its report. */
export interface ReportLabels {
  readonly before: string;
  readonly after: string;
}

const BUILDS: ReportLabels = { before: 'before', after: 'after' };

/** The comparison as text: every round, then the medians (CPU per request and rate) and how many pairs the side after won. */
export function comparisonReport(comparison: Comparison, labels: ReportLabels = BUILDS): string {
  const fmt = (n: number) => n.toFixed(1);
  const lines = [`| round | ${labels.before} µs/request | ${labels.after} µs/request | ${labels.after} − ${labels.before} |`, '| --- | --- | --- | --- |'];
  comparison.differences.forEach((d, i) => lines.push(`| ${i + 1} | ${fmt(comparison.before[i]!.cpuMicros)} | ${fmt(comparison.after[i]!.cpuMicros)} | ${d > 0 ? '+' : ''}${fmt(d)} |`));
  const before = median(comparison.before.map((s) => s.cpuMicros));
  const after = median(comparison.after.map((s) => s.cpuMicros));
  const difference = median([...comparison.differences]);
  const won = comparison.differences.filter((d) => d < 0).length;
  const rateRatio = median(comparison.after.map((a, i) => a.rate / comparison.before[i]!.rate));
  lines.push(
    '',
    `Server CPU per request, median: ${labels.before} ${fmt(before)} µs, ${labels.after} ${fmt(after)} µs; median difference per pair ${difference > 0 ? '+' : ''}${fmt(difference)} µs (${difference > 0 ? '+' : ''}${((100 * difference) / before).toFixed(1)}%).`,
    `Requests per second, median: ${labels.before} ${Math.round(median(comparison.before.map((s) => s.rate)))}, ${labels.after} ${Math.round(median(comparison.after.map((s) => s.rate)))}; ${labels.after} ÷ ${labels.before} per pair, median ${rateRatio.toFixed(3)}×.`,
    `${labels.after === BUILDS.after ? 'The build after' : `"${labels.after}"`} cost less in ${won} of ${comparison.differences.length} pairs.${comparison.pinned ? ' Server and load generator pinned to CPUs of their own.' : ' Not pinned (no taskset, one CPU, or not asked): expect more spread.'}`,
  );
  if (comparison.exportedSpans !== undefined) lines.push(`OpenTelemetry on in both builds: ${comparison.exportedSpans} spans exported.`);
  return lines.join('\n');
}
