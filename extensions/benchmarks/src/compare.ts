/**
 * Comparing runs of one benchmark: per-task deltas, the tasks that flipped
 * between pass and fail, the aggregate difference, the settings that differ,
 * and how the agents behaved (steps, tool calls) — and, for a benchmark, its
 * best and worst runs compared that way.
 */
import { ErrorCodes, ReactorError, notFound } from './errors.js';
import { round, type BenchmarkStore, type RunDetail, type RunSummary, type TaskOutcome } from './store.js';

/** How one task changed from the baseline to the candidate. */
export type TaskChange = 'fixed' | 'broken' | 'improved' | 'regressed' | 'unchanged';

/** One task in both runs. */
export interface TaskDelta {
  task: string;
  title: string | null;
  baseline: { status: TaskOutcome['status']; score: number | null };
  candidate: { status: TaskOutcome['status']; score: number | null };
  /** Candidate score minus baseline score (a missing result counts 0). */
  delta: number;
  change: TaskChange;
}

/** A setting (the model, or a config key as a dotted path) that differs. */
export interface SettingDifference {
  setting: string;
  /** `null` when the run does not set it. */
  baseline: unknown;
  candidate: unknown;
}

/** How an agent behaved over a run. */
export interface Behaviour {
  /** Mean trajectory length over the tasks with a result. */
  meanSteps: number;
  toolCalls: number;
  /** Mean time per task, when recorded. */
  meanDurationMs: number | null;
}

/** Two runs of one benchmark, compared. */
export interface RunComparison {
  benchmark: string;
  baseline: RunSummary;
  candidate: RunSummary;
  /** Candidate aggregate score minus baseline aggregate score. */
  scoreDelta: number;
  /** Candidate tasks passed minus baseline tasks passed. */
  passedDelta: number;
  /** Tasks that failed in the baseline and pass in the candidate. */
  fixed: string[];
  /** Tasks that passed in the baseline and fail in the candidate. */
  broken: string[];
  /** Tasks whose score rose / fell without flipping. */
  improved: string[];
  regressed: string[];
  differences: SettingDifference[];
  behaviour: { baseline: Behaviour; candidate: Behaviour };
  tasks: TaskDelta[];
  /** One paragraph a person or a model can read. */
  summary: string;
}

/** The best and worst runs of a benchmark, and how they differ. */
export interface BestRun {
  benchmark: string;
  runCount: number;
  /** Every run, best first: by score, then tasks passed, then the earlier run. */
  ranking: Array<Pick<RunSummary, 'id' | 'model' | 'score' | 'passed' | 'total'>>;
  best: RunSummary;
  worst: RunSummary;
  /** The worst run compared to the best (baseline: worst; candidate: best). */
  difference: RunComparison;
}

/** Compares two runs of one benchmark. Throws for unknown runs or runs of different benchmarks. */
export function compareRuns(store: BenchmarkStore, baselineId: string, candidateId: string): RunComparison {
  const baseline = store.getRun(baselineId);
  const candidate = store.getRun(candidateId);
  if (baseline.benchmark !== candidate.benchmark) {
    throw new ReactorError(ErrorCodes.TOOL_FAILED, {
      subject: `runs "${baselineId}" and "${candidateId}"`,
      problem: 'belong to different benchmarks, so their tasks cannot be compared',
      expected: `two runs of benchmark "${baseline.benchmark}"`,
      received: `a run of "${baseline.benchmark}" and a run of "${candidate.benchmark}"`,
      hint: `list_runs { benchmark: "${baseline.benchmark}" } lists the runs it can be compared with`,
      extension: 'benchmarks',
    });
  }
  const byTask = new Map(candidate.results.map((r) => [r.task, r]));
  const tasks = baseline.results.map((b): TaskDelta => {
    const c = byTask.get(b.task) ?? { ...b, status: 'missing' as const, score: null };
    const delta = round((c.score ?? 0) - (b.score ?? 0));
    return {
      task: b.task,
      title: b.title,
      baseline: { status: b.status, score: b.score },
      candidate: { status: c.status, score: c.score },
      delta,
      change: changeOf(b.status === 'passed', c.status === 'passed', delta),
    };
  });
  const named = (change: TaskChange) => tasks.filter((t) => t.change === change).map((t) => t.task);
  const comparison = {
    benchmark: baseline.benchmark,
    baseline: summaryOf(baseline),
    candidate: summaryOf(candidate),
    scoreDelta: round(candidate.score - baseline.score),
    passedDelta: candidate.passed - baseline.passed,
    fixed: named('fixed'),
    broken: named('broken'),
    improved: named('improved'),
    regressed: named('regressed'),
    differences: settingDifferences(baseline, candidate),
    behaviour: { baseline: behaviourOf(baseline), candidate: behaviourOf(candidate) },
    tasks,
  };
  return { ...comparison, summary: describeComparison(comparison) };
}

/** What a caller of {@link bestRun} may follow and stop: a task's status and its cancellation. */
export interface BestRunSteps {
  /** Checked before each step; an aborted signal stops the work with its reason. */
  readonly signal?: AbortSignal;
  /** Told what is being done, before each step. */
  readonly onStep?: (message: string) => void;
}

/** The best and worst runs of a benchmark and their comparison. Throws for an unknown benchmark or one without runs. */
export function bestRun(store: BenchmarkStore, benchmark: string, steps: BestRunSteps = {}): BestRun {
  if (!store.benchmarkIds().includes(benchmark)) throw notFound('benchmark', benchmark, store.benchmarkIds(), 'list_benchmarks lists the benchmarks');
  steps.signal?.throwIfAborted();
  steps.onStep?.(`ranking the runs of benchmark "${benchmark}"`);
  const runs = store.listRuns({ benchmark, sort: 'score', limit: 500 });
  const best = runs[0];
  const worst = runs[runs.length - 1];
  if (best === undefined || worst === undefined) {
    throw new ReactorError(ErrorCodes.TOOL_FAILED, {
      subject: `benchmark "${benchmark}"`,
      problem: 'has no runs yet',
      hint: 'import runs with reactor-benchmarks-import <file.jsonl>',
      extension: 'benchmarks',
    });
  }
  // Each query is synchronous (SQLite): a cancelled task stops between them.
  steps.signal?.throwIfAborted();
  steps.onStep?.(`comparing the best run ("${best.id}") with the worst ("${worst.id}") of ${runs.length}`);
  return {
    benchmark,
    runCount: runs.length,
    ranking: runs.map((r) => ({ id: r.id, model: r.model, score: r.score, passed: r.passed, total: r.total })),
    best,
    worst,
    difference: compareRuns(store, worst.id, best.id),
  };
}

function changeOf(passedBefore: boolean, passedAfter: boolean, delta: number): TaskChange {
  if (!passedBefore && passedAfter) return 'fixed';
  if (passedBefore && !passedAfter) return 'broken';
  if (delta > 0) return 'improved';
  if (delta < 0) return 'regressed';
  return 'unchanged';
}

function summaryOf(run: RunDetail): RunSummary {
  const { results: _results, ...summary } = run;
  return summary;
}

/** The model and every config key (nested objects as dotted paths; arrays as values) whose values differ. */
function settingDifferences(a: RunSummary, b: RunSummary): SettingDifference[] {
  const left = new Map(Object.entries(flatten({ model: a.model, config: a.config })));
  const right = new Map(Object.entries(flatten({ model: b.model, config: b.config })));
  // The model first: it is the difference people look for.
  const keys = [...new Set([...left.keys(), ...right.keys()])].sort((x, y) => (x === 'model' ? -1 : y === 'model' ? 1 : x < y ? -1 : x > y ? 1 : 0));
  return keys
    .filter((k) => JSON.stringify(left.get(k)) !== JSON.stringify(right.get(k)))
    .map((k) => ({ setting: k, baseline: left.get(k) ?? null, candidate: right.get(k) ?? null }));
}

function flatten(value: Record<string, unknown>, prefix = ''): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, v] of Object.entries(value)) {
    const path = prefix === '' ? key : `${prefix}.${key}`;
    if (typeof v === 'object' && v !== null && !Array.isArray(v)) Object.assign(out, flatten(v as Record<string, unknown>, path));
    else out[path] = v;
  }
  return out;
}

function behaviourOf(run: RunDetail): Behaviour {
  const done = run.results.filter((r) => r.status !== 'missing');
  const timed = done.filter((r) => r.durationMs !== null);
  return {
    meanSteps: done.length === 0 ? 0 : round(done.reduce((n, r) => n + r.steps, 0) / done.length),
    toolCalls: done.reduce((n, r) => n + r.toolCalls, 0),
    meanDurationMs: timed.length === 0 ? null : Math.round(timed.reduce((n, r) => n + (r.durationMs ?? 0), 0) / timed.length),
  };
}

function describeComparison(c: Omit<RunComparison, 'summary'>): string {
  const sign = c.scoreDelta > 0 ? '+' : '';
  const list = (ids: string[]) => (ids.length === 0 ? 'none' : ids.join(', '));
  const settings = c.differences.map((d) => `${d.setting} (${JSON.stringify(d.baseline)} → ${JSON.stringify(d.candidate)})`);
  return [
    `On ${c.benchmark}, ${c.candidate.id} (${c.candidate.model}) scores ${c.candidate.score} against ${c.baseline.score} for ${c.baseline.id} (${c.baseline.model}): ${sign}${c.scoreDelta}, ${c.candidate.passed}/${c.candidate.total} tasks passed against ${c.baseline.passed}/${c.baseline.total}.`,
    `Fixed: ${list(c.fixed)}. Broken: ${list(c.broken)}.`,
    ...(c.improved.length + c.regressed.length > 0 ? [`Partial credit rose on: ${list(c.improved)}; fell on: ${list(c.regressed)}.`] : []),
    settings.length === 0 ? 'The two runs used the same model and settings.' : `Settings that differ: ${settings.join('; ')}.`,
    `Tool calls: ${c.behaviour.candidate.toolCalls} against ${c.behaviour.baseline.toolCalls}; mean steps per task: ${c.behaviour.candidate.meanSteps} against ${c.behaviour.baseline.meanSteps}.`,
  ].join(' ');
}
