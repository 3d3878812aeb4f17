/**
 * Imports the JSONL format (see records.ts and the README) into the database:
 * every line is validated first — JSON, shape, and references to benchmarks,
 * runs and tasks in the file or already in the database — and every problem is
 * reported with its line number. Nothing is written unless the whole file is
 * valid; then everything is written in one transaction, as upserts, so
 * importing a file twice leaves the database as importing it once.
 */
import { readFileSync } from 'node:fs';
import type Database from 'libsql';
import type { z } from 'zod';
import { ErrorCodes, errorMessageOf, ReactorError } from './errors.js';
import { importRecordSchema, type BenchmarkRecord, type ImportRecord, type ResultRecord, type RunRecord, type TaskRecord } from './records.js';
import { forgetSampleMark } from './sampleMark.js';

/** One problem found in an import file. */
export interface ImportIssue {
  /** 1-based line number. */
  readonly line: number;
  readonly message: string;
}

/** Counts per record type. */
export interface RecordCounts {
  benchmarks: number;
  tasks: number;
  runs: number;
  results: number;
}

/** What an import did. */
export interface ImportSummary {
  /** The file name (or label) imported. */
  readonly source: string;
  /** Non-blank lines read. */
  readonly lines: number;
  /** Records written (added or replaced). */
  readonly written: RecordCounts;
  /** Rows that did not exist before. */
  readonly added: RecordCounts;
}

/** A rejected import: `issues` lists every problem with its line. Code `REACTOR_OPTION_INVALID`. */
export class ImportError extends ReactorError {
  readonly issues: readonly ImportIssue[];
  constructor(source: string, issues: readonly ImportIssue[]) {
    const shown = issues.slice(0, 20).map((i) => `  line ${i.line}: ${i.message}`);
    if (issues.length > shown.length) shown.push(`  … and ${issues.length - shown.length} more`);
    super(ErrorCodes.OPTION_INVALID, {
      subject: `benchmarks import file "${source}"`,
      problem: `has ${issues.length} invalid line(s); nothing was imported:\n${shown.join('\n')}`,
      hint: 'each line is one JSON object with "type": "benchmark", "task", "run" or "result" (see the @reactor/ext-benchmarks README)',
      extension: 'benchmarks',
    });
    this.name = 'ImportError';
    this.issues = issues;
  }
}

interface Parsed<T> {
  readonly line: number;
  readonly record: T;
}

/** Parses and validates each line's shape; blank lines are skipped. References are checked by {@link importJsonl}. */
export function parseJsonl(text: string): { records: Array<Parsed<ImportRecord>>; issues: ImportIssue[]; lines: number } {
  const records: Array<Parsed<ImportRecord>> = [];
  const issues: ImportIssue[] = [];
  let lines = 0;
  // A byte-order mark (common in files written on Windows) would make the first line invalid JSON.
  text.replace(/^\uFEFF/, '').split(/\r?\n/).forEach((raw, index) => {
    const line = index + 1;
    if (raw.trim() === '') return;
    lines++;
    let value: unknown;
    try {
      value = JSON.parse(raw);
    } catch (error) {
      issues.push({ line, message: `not valid JSON (${errorMessageOf(error)})` });
      return;
    }
    const result = importRecordSchema.safeParse(value);
    if (result.success) records.push({ line, record: result.data });
    else issues.push({ line, message: describeIssues(value, result.error) });
  });
  return { records, issues, lines };
}

function describeIssues(value: unknown, error: z.ZodError): string {
  const type = (value as { type?: unknown } | null)?.type;
  const id = (value as { id?: unknown } | null)?.id;
  const label = typeof type === 'string' ? `${type}${typeof id === 'string' ? ` ${JSON.stringify(id)}` : ''}: ` : '';
  const parts = error.issues.slice(0, 3).map((issue) => {
    const path = issue.path.map(String).join('.');
    if (issue.code === 'invalid_union' && path === 'type') return 'type: expected "benchmark", "task", "run" or "result"';
    return path === '' ? issue.message : `${path}: ${issue.message}`;
  });
  return label + parts.join('; ');
}

/** Validates and imports JSONL text in one transaction. Throws {@link ImportError} listing every bad line. */
export function importJsonl(db: Database.Database, text: string, options: { source?: string; /** @internal the package's own sample */ sample?: boolean } = {}): ImportSummary {
  const source = options.source ?? '(text)';
  const { records, issues, lines } = parseJsonl(text);
  const byType = {
    benchmark: records.filter((r): r is Parsed<BenchmarkRecord> => r.record.type === 'benchmark'),
    task: records.filter((r): r is Parsed<TaskRecord> => r.record.type === 'task'),
    run: records.filter((r): r is Parsed<RunRecord> => r.record.type === 'run'),
    result: records.filter((r): r is Parsed<ResultRecord> => r.record.type === 'result'),
  };
  issues.push(...checkReferences(db, byType));
  if (issues.length > 0) throw new ImportError(source, issues.sort((a, b) => a.line - b.line));
  const before = counts(db);
  db.transaction(() => {
    write(db, byType);
    // Someone's own data is in it now: the sample refresh must never replace it.
    if (options.sample !== true) forgetSampleMark(db);
  })();
  const after = counts(db);
  return {
    source,
    lines,
    written: { benchmarks: byType.benchmark.length, tasks: byType.task.length, runs: byType.run.length, results: byType.result.length },
    added: {
      benchmarks: after.benchmarks - before.benchmarks,
      tasks: after.tasks - before.tasks,
      runs: after.runs - before.runs,
      results: after.results - before.results,
    },
  };
}

/** Reads a file and imports it (see {@link importJsonl}). */
export function importFile(db: Database.Database, path: string): ImportSummary {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    throw new ReactorError(ErrorCodes.OPTION_INVALID, {
      subject: `benchmarks import file "${path}"`,
      problem: `cannot be read (${errorMessageOf(error)})`,
      expected: 'a readable JSONL file',
      hint: 'check the path',
      extension: 'benchmarks',
    });
  }
  return importJsonl(db, text, { source: path });
}

type ByType = {
  benchmark: Array<Parsed<BenchmarkRecord>>;
  task: Array<Parsed<TaskRecord>>;
  run: Array<Parsed<RunRecord>>;
  result: Array<Parsed<ResultRecord>>;
};

/** References may point into the file (in any order) or into the database. */
function checkReferences(db: Database.Database, by: ByType): ImportIssue[] {
  const issues: ImportIssue[] = [];
  const benchmarkInDb = db.prepare('SELECT 1 AS found FROM benchmarks WHERE id = ?');
  const runInDb = db.prepare('SELECT benchmark_id AS benchmark FROM runs WHERE id = ?');
  const taskInDb = db.prepare('SELECT 1 AS found FROM tasks WHERE benchmark_id = ? AND id = ?');
  const fileBenchmarks = new Set(by.benchmark.map((b) => b.record.id));
  const fileTasks = new Set(by.task.map((t) => `${t.record.benchmark}\u0000${t.record.id}`));
  const fileRuns = new Map(by.run.map((r) => [r.record.id, r.record.benchmark]));
  const benchmarkKnown = (id: string) => fileBenchmarks.has(id) || benchmarkInDb.get(id) !== undefined;
  for (const { line, record } of [...by.task, ...by.run]) {
    if (!benchmarkKnown(record.benchmark)) {
      issues.push({ line, message: `${record.type} ${JSON.stringify(record.id)}: benchmark ${JSON.stringify(record.benchmark)} is neither in this file nor in the database` });
    }
  }
  for (const { line, record } of by.run) {
    const existing = runInDb.get(record.id) as { benchmark: string } | undefined;
    if (existing && existing.benchmark !== record.benchmark) {
      issues.push({ line, message: `run ${JSON.stringify(record.id)}: already imported for benchmark ${JSON.stringify(existing.benchmark)}, not ${JSON.stringify(record.benchmark)}` });
    }
  }
  for (const { line, record } of by.result) {
    const benchmark = fileRuns.get(record.run) ?? (runInDb.get(record.run) as { benchmark: string } | undefined)?.benchmark;
    if (benchmark === undefined) {
      issues.push({ line, message: `result for task ${JSON.stringify(record.task)}: run ${JSON.stringify(record.run)} is neither in this file nor in the database` });
    } else if (!fileTasks.has(`${benchmark}\u0000${record.task}`) && taskInDb.get(benchmark, record.task) === undefined) {
      issues.push({ line, message: `result of run ${JSON.stringify(record.run)}: task ${JSON.stringify(record.task)} is not a task of benchmark ${JSON.stringify(benchmark)}` });
    }
  }
  return issues;
}

function write(db: Database.Database, by: ByType): void {
  const benchmark = db.prepare(`INSERT INTO benchmarks (id, title, description, version) VALUES (?, ?, ?, ?)
    ON CONFLICT (id) DO UPDATE SET title = excluded.title, description = excluded.description, version = excluded.version`);
  const task = db.prepare(`INSERT INTO tasks (benchmark_id, id, title, prompt, grading_method, grading, weight, tags, position)
    VALUES (?, ?, ?, ?, ?, ?, ?, ?, (SELECT COALESCE(MAX(position), 0) + 1 FROM tasks WHERE benchmark_id = ?))
    ON CONFLICT (benchmark_id, id) DO UPDATE SET title = excluded.title, prompt = excluded.prompt, grading_method = excluded.grading_method,
      grading = excluded.grading, weight = excluded.weight, tags = excluded.tags`);
  const run = db.prepare(`INSERT INTO runs (id, benchmark_id, model, config, started_at, finished_at, notes) VALUES (?, ?, ?, ?, ?, ?, ?)
    ON CONFLICT (id) DO UPDATE SET model = excluded.model, config = excluded.config, started_at = excluded.started_at,
      finished_at = excluded.finished_at, notes = excluded.notes`);
  const result = db.prepare(`INSERT INTO task_results (run_id, task_id, score, passed, output, feedback, duration_ms, steps) VALUES (?, ?, ?, ?, ?, ?, ?, ?)
    ON CONFLICT (run_id, task_id) DO UPDATE SET score = excluded.score, passed = excluded.passed, output = excluded.output,
      feedback = excluded.feedback, duration_ms = excluded.duration_ms, steps = excluded.steps`);
  const thresholdOf = db.prepare(`SELECT t.grading AS grading FROM tasks t JOIN runs r ON r.benchmark_id = t.benchmark_id WHERE r.id = ? AND t.id = ?`);
  for (const { record: b } of by.benchmark) benchmark.run(b.id, b.title ?? null, b.description ?? null, b.version ?? null);
  for (const { record: t } of by.task) {
    const { method, ...details } = t.grading;
    task.run(t.benchmark, t.id, t.title ?? null, t.prompt, method, JSON.stringify(details), t.weight ?? 1, JSON.stringify(t.tags ?? []), t.benchmark);
  }
  for (const { record: r } of by.run) {
    run.run(r.id, r.benchmark, r.model, JSON.stringify(r.config ?? {}), r.startedAt, r.finishedAt ?? null, r.notes ?? null);
  }
  for (const { record: r } of by.result) {
    let passed = r.passed;
    if (passed === undefined) {
      // Tasks are written above, so the threshold is read from the database whether the task came from this file or an earlier one.
      const row = thresholdOf.get(r.run, r.task) as { grading: string } | undefined;
      const threshold = row ? ((JSON.parse(row.grading) as { passThreshold?: number }).passThreshold ?? 1) : 1;
      passed = r.score >= threshold;
    }
    result.run(r.run, r.task, r.score, passed ? 1 : 0, r.output ?? null, r.feedback ?? null, r.durationMs ?? null, JSON.stringify(r.trajectory ?? []));
  }
}

function counts(db: Database.Database): RecordCounts {
  const row = db
    .prepare(`SELECT (SELECT COUNT(*) FROM benchmarks) AS benchmarks, (SELECT COUNT(*) FROM tasks) AS tasks,
      (SELECT COUNT(*) FROM runs) AS runs, (SELECT COUNT(*) FROM task_results) AS results`)
    .get() as RecordCounts;
  return { benchmarks: row.benchmarks, tasks: row.tasks, runs: row.runs, results: row.results };
}
