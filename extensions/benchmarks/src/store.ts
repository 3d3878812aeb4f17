/**
 * Read queries over the benchmarks database. Every row is mapped field by
 * field (libsql adds a `_metadata` field to some rows, and tool outputs are
 * checked against strict schemas). A run's aggregate score is the
 * weight-averaged score over *all* its benchmark's tasks, a task without a
 * result counting 0, so a run that skipped tasks never looks better for it.
 */
import type Database from 'libsql';
import { notFound } from './errors.js';
import type { Grading, Step } from './records.js';

/** A benchmark as listed. */
export interface BenchmarkSummary {
  id: string;
  title: string;
  description: string | null;
  version: string | null;
  taskCount: number;
  runCount: number;
  /** The grading methods its tasks use, sorted. */
  gradingMethods: string[];
}

/** A task and how it is graded. */
export interface TaskInfo {
  id: string;
  title: string | null;
  prompt: string;
  grading: Grading;
  weight: number;
  tags: string[];
}

/** A benchmark with its tasks. */
export interface BenchmarkDetail extends BenchmarkSummary {
  tasks: TaskInfo[];
}

/** A run with its aggregate score. */
export interface RunSummary {
  id: string;
  benchmark: string;
  model: string;
  config: Record<string, unknown>;
  startedAt: string;
  finishedAt: string | null;
  notes: string | null;
  /** Weighted mean score over all the benchmark's tasks (missing results count 0), 0–1. */
  score: number;
  /** Tasks passed. */
  passed: number;
  /** Tasks in the benchmark. */
  total: number;
  /** Tasks with a result. */
  completed: number;
}

/** One task's outcome in a run. */
export interface TaskOutcome {
  task: string;
  title: string | null;
  status: 'passed' | 'failed' | 'missing';
  score: number | null;
  output: string | null;
  feedback: string | null;
  durationMs: number | null;
  /** Trajectory length. */
  steps: number;
  /** Tool calls in the trajectory. */
  toolCalls: number;
}

/** A run with every task's outcome, in task order. */
export interface RunDetail extends RunSummary {
  results: TaskOutcome[];
}

/** What a run did on one task, step by step. */
export interface Trajectory {
  run: string;
  benchmark: string;
  model: string;
  task: string;
  title: string | null;
  prompt: string;
  grading: Grading;
  status: 'passed' | 'failed';
  score: number;
  output: string | null;
  feedback: string | null;
  durationMs: number | null;
  steps: Step[];
}

/** Filters of {@link BenchmarkStore.listRuns}. */
export interface RunFilter {
  readonly benchmark?: string;
  /** Case-insensitive substring of the model name (`gpt-4o` matches `gpt-4o-2024-08-06`). */
  readonly model?: string;
  /** `recent` (newest first, the default) or `score` (best first). */
  readonly sort?: 'recent' | 'score';
  readonly limit?: number;
  /** Only runs of the benchmark holding this task id (with `status`: whose outcome on it is that status). */
  readonly task?: string;
  /** Runs whose outcome on `task` is this; without `task`, runs with at least one task of this status. */
  readonly status?: 'passed' | 'failed' | 'missing';
}

/** One page of {@link BenchmarkStore.pageRuns}. */
export interface RunPage {
  readonly runs: RunSummary[];
  /** True when more runs follow this page. */
  readonly more: boolean;
}

const RUN_COLUMNS = `r.id AS id, r.benchmark_id AS benchmark, r.model AS model, r.config AS config, r.started_at AS startedAt,
  r.finished_at AS finishedAt, r.notes AS notes,
  (SELECT SUM(t.weight * COALESCE(x.score, 0)) / SUM(t.weight) FROM tasks t
     LEFT JOIN task_results x ON x.run_id = r.id AND x.task_id = t.id WHERE t.benchmark_id = r.benchmark_id) AS score,
  (SELECT COUNT(*) FROM task_results x WHERE x.run_id = r.id AND x.passed = 1) AS passed,
  (SELECT COUNT(*) FROM tasks t WHERE t.benchmark_id = r.benchmark_id) AS total,
  (SELECT COUNT(*) FROM task_results x WHERE x.run_id = r.id) AS completed`;

type RunRow = Omit<RunSummary, 'config' | 'score'> & { config: string; score: number | null };

/** Queries over one open database. */
export class BenchmarkStore {
  constructor(readonly db: Database.Database) {}

  /** True when no benchmark has been imported. */
  isEmpty(): boolean {
    return (this.db.prepare('SELECT COUNT(*) AS n FROM benchmarks').get() as { n: number }).n === 0;
  }

  /** Every benchmark, by id. */
  listBenchmarks(): BenchmarkSummary[] {
    const rows = this.db
      .prepare(`SELECT b.id AS id, b.title AS title, b.description AS description, b.version AS version,
        (SELECT COUNT(*) FROM tasks t WHERE t.benchmark_id = b.id) AS taskCount,
        (SELECT COUNT(*) FROM runs r WHERE r.benchmark_id = b.id) AS runCount,
        (SELECT json_group_array(DISTINCT t.grading_method) FROM tasks t WHERE t.benchmark_id = b.id) AS methods
        FROM benchmarks b ORDER BY b.id`)
      .all() as Array<Omit<BenchmarkSummary, 'gradingMethods' | 'title'> & { title: string | null; methods: string }>;
    return rows.map((r) => ({
      id: r.id,
      title: r.title ?? r.id,
      description: r.description,
      version: r.version,
      taskCount: r.taskCount,
      runCount: r.runCount,
      // A JSON array, not GROUP_CONCAT's comma-joined text: a method may hold a comma ("rubric, weighted").
      gradingMethods: (JSON.parse(r.methods) as string[]).sort(),
    }));
  }

  /** A benchmark with its tasks in import order. Throws when unknown. */
  getBenchmark(id: string): BenchmarkDetail {
    const summary = this.listBenchmarks().find((b) => b.id === id);
    if (!summary) throw notFound('benchmark', id, this.benchmarkIds(), 'list_benchmarks lists the benchmarks');
    return { ...summary, tasks: this.tasksOf(id) };
  }

  private tasksOf(benchmark: string): TaskInfo[] {
    const rows = this.db
      .prepare(`SELECT id, title, prompt, grading_method AS method, grading, weight, tags FROM tasks WHERE benchmark_id = ? ORDER BY position, id`)
      .all(benchmark) as Array<{ id: string; title: string | null; prompt: string; method: string; grading: string; weight: number; tags: string }>;
    return rows.map((r) => ({
      id: r.id,
      title: r.title,
      prompt: r.prompt,
      grading: { method: r.method, ...(JSON.parse(r.grading) as Omit<Grading, 'method'>) },
      weight: r.weight,
      tags: JSON.parse(r.tags) as string[],
    }));
  }

  /** Runs, filtered, with aggregate scores (at most `limit`, default 50, at most 500). */
  listRuns(filter: RunFilter = {}): RunSummary[] {
    return this.pageRuns(filter, 0).runs;
  }

  /** The runs from `offset` on (at most `limit`), filtered, and whether more follow. */
  pageRuns(filter: RunFilter, offset: number): RunPage {
    const where: string[] = [];
    const params: unknown[] = [];
    if (filter.benchmark !== undefined) {
      where.push('r.benchmark_id = ?');
      params.push(filter.benchmark);
    }
    if (filter.model !== undefined && filter.model !== '') {
      where.push(`instr(lower(r.model), lower(?)) > 0`);
      params.push(filter.model);
    }
    const result = (task: string | undefined, passed: 0 | 1) =>
      `EXISTS (SELECT 1 FROM task_results x WHERE x.run_id = r.id AND x.passed = ${passed}${task === undefined ? '' : ' AND x.task_id = ?'})`;
    if (filter.task !== undefined) {
      where.push('EXISTS (SELECT 1 FROM tasks t WHERE t.benchmark_id = r.benchmark_id AND t.id = ?)');
      params.push(filter.task);
    }
    if (filter.status === 'passed' || filter.status === 'failed') {
      where.push(result(filter.task, filter.status === 'passed' ? 1 : 0));
      if (filter.task !== undefined) params.push(filter.task);
    } else if (filter.status === 'missing') {
      where.push(
        filter.task === undefined
          ? 'EXISTS (SELECT 1 FROM tasks t WHERE t.benchmark_id = r.benchmark_id AND NOT EXISTS (SELECT 1 FROM task_results x WHERE x.run_id = r.id AND x.task_id = t.id))'
          : 'NOT EXISTS (SELECT 1 FROM task_results x WHERE x.run_id = r.id AND x.task_id = ?)',
      );
      if (filter.task !== undefined) params.push(filter.task);
    }
    const order = filter.sort === 'score' ? 'score DESC, passed DESC, startedAt ASC, id ASC' : 'startedAt DESC, id ASC';
    const limit = Math.max(1, Math.min(500, Math.floor(filter.limit ?? 50)));
    const rows = this.db
      .prepare(`SELECT ${RUN_COLUMNS} FROM runs r ${where.length > 0 ? `WHERE ${where.join(' AND ')}` : ''} ORDER BY ${order} LIMIT ${limit + 1} OFFSET ${Math.max(0, Math.floor(offset))}`)
      .all(...params) as RunRow[];
    return { runs: rows.slice(0, limit).map(toRunSummary), more: rows.length > limit };
  }

  /** One run's summary, or undefined. */
  findRun(id: string): RunSummary | undefined {
    const row = this.db.prepare(`SELECT ${RUN_COLUMNS} FROM runs r WHERE r.id = ?`).get(id) as RunRow | undefined;
    return row ? toRunSummary(row) : undefined;
  }

  /** A run with every task's outcome (missing ones included). Throws when unknown. */
  getRun(id: string): RunDetail {
    const run = this.findRun(id);
    if (!run) throw notFound('run', id, this.runIds(), 'list_runs lists the runs, optionally of one benchmark');
    const rows = this.db
      .prepare(`SELECT t.id AS task, t.title AS title, x.score AS score, x.passed AS passed, x.output AS output, x.feedback AS feedback,
          x.duration_ms AS durationMs, x.steps AS steps
        FROM tasks t LEFT JOIN task_results x ON x.run_id = ? AND x.task_id = t.id
        WHERE t.benchmark_id = ? ORDER BY t.position, t.id`)
      .all(id, run.benchmark) as Array<{ task: string; title: string | null; score: number | null; passed: number | null; output: string | null; feedback: string | null; durationMs: number | null; steps: string | null }>;
    const results = rows.map((r): TaskOutcome => {
      const steps = r.steps === null ? [] : (JSON.parse(r.steps) as Step[]);
      return {
        task: r.task,
        title: r.title,
        status: r.passed === null ? 'missing' : r.passed === 1 ? 'passed' : 'failed',
        score: r.score,
        output: r.output,
        feedback: r.feedback,
        durationMs: r.durationMs,
        steps: steps.length,
        toolCalls: steps.filter((s) => s.kind === 'tool_call').length,
      };
    });
    return { ...run, results };
  }

  /** What a run did on one task. Throws when the run, the task or its result is unknown. */
  getTrajectory(runId: string, taskId: string): Trajectory {
    const run = this.findRun(runId);
    if (!run) throw notFound('run', runId, this.runIds(), 'list_runs lists the runs');
    const task = this.tasksOf(run.benchmark).find((t) => t.id === taskId);
    if (!task) {
      throw notFound('task', taskId, this.tasksOf(run.benchmark).map((t) => t.id), `get_benchmark { benchmark: "${run.benchmark}" } lists the tasks of run "${runId}"`);
    }
    const row = this.db
      .prepare('SELECT score, passed, output, feedback, duration_ms AS durationMs, steps FROM task_results WHERE run_id = ? AND task_id = ?')
      .get(runId, taskId) as { score: number; passed: number; output: string | null; feedback: string | null; durationMs: number | null; steps: string } | undefined;
    if (!row) {
      throw notFound('task', taskId, [], `run "${runId}" has no result for this task (it was not attempted or not imported); get_run shows which tasks have results`);
    }
    return {
      run: runId,
      benchmark: run.benchmark,
      model: run.model,
      task: taskId,
      title: task.title,
      prompt: task.prompt,
      grading: task.grading,
      status: row.passed === 1 ? 'passed' : 'failed',
      score: row.score,
      output: row.output,
      feedback: row.feedback,
      durationMs: row.durationMs,
      steps: JSON.parse(row.steps) as Step[],
    };
  }

  /** Summaries of the runs among `ids` that the database knows, in the order given. */
  knownRuns(ids: Iterable<string>): RunSummary[] {
    const out: RunSummary[] = [];
    for (const id of new Set(ids)) {
      const run = this.findRun(id);
      if (run) out.push(run);
    }
    return out;
  }

  /** Every benchmark id. */
  benchmarkIds(): string[] {
    return (this.db.prepare('SELECT id FROM benchmarks ORDER BY id').all() as Array<{ id: string }>).map((r) => r.id);
  }

  /** Every run id. */
  runIds(): string[] {
    return (this.db.prepare('SELECT id FROM runs ORDER BY id').all() as Array<{ id: string }>).map((r) => r.id);
  }
}

function toRunSummary(row: RunRow): RunSummary {
  return {
    id: row.id,
    benchmark: row.benchmark,
    model: row.model,
    config: JSON.parse(row.config) as Record<string, unknown>,
    startedAt: row.startedAt,
    finishedAt: row.finishedAt,
    notes: row.notes,
    score: round(row.score ?? 0),
    passed: row.passed,
    total: row.total,
    completed: row.completed,
  };
}

/** Scores are shown to 4 decimals: enough to rank, short enough to read. */
export function round(value: number): number {
  return Math.round(value * 10_000) / 10_000;
}
