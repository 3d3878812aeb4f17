import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'libsql';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FIXTURES_DIR } from './extension.js';
import { ImportError, importJsonl, parseJsonl } from './importer.js';
import { migrate } from './schema.js';

const jsonl = (...records: object[]) => records.map((r) => JSON.stringify(r)).join('\n');
const benchmark = { type: 'benchmark', id: 'arith', title: 'Arithmetic' };
const task = (id: string, extra: object = {}) => ({ type: 'task', benchmark: 'arith', id, prompt: `What is ${id}?`, grading: { method: 'exact-match', expected: '4' }, ...extra });
const run = (id: string, extra: object = {}) => ({ type: 'run', id, benchmark: 'arith', model: 'm-1', startedAt: '2025-01-01T00:00:00Z', ...extra });
const result = (runId: string, taskId: string, score: number, extra: object = {}) => ({ type: 'result', run: runId, task: taskId, score, ...extra });

let db: Database.Database;
beforeEach(() => {
  db = new Database(':memory:');
  migrate(db, ':memory:');
});
afterEach(() => db.close());

const dump = () =>
  ['benchmarks', 'tasks', 'runs', 'task_results'].map((table) => db.prepare(`SELECT * FROM ${table} ORDER BY 1, 2`).all());
const count = (table: string) => (db.prepare(`SELECT COUNT(*) AS n FROM ${table}`).get() as { n: number }).n;

function importError(text: string): ImportError {
  try {
    importJsonl(db, text, { source: 'bad.jsonl' });
  } catch (error) {
    if (error instanceof ImportError) return error;
    throw error;
  }
  throw new Error('expected the import to be rejected');
}

describe('importing the JSONL format', () => {
  it('imports the sample fixtures: two benchmarks, seventeen tasks, eight runs, eighty-two results', () => {
    const summary = importJsonl(db, readFileSync(join(FIXTURES_DIR, 'sample.jsonl'), 'utf8'), { source: 'sample.jsonl' });
    expect(summary.written).toEqual({ benchmarks: 2, tasks: 17, runs: 8, results: 82 });
    expect(summary.added).toEqual(summary.written);
    expect(summary.lines).toBe(109);
  });

  it('accepts records in any order in the file and skips blank lines', () => {
    const text = `${jsonl(result('r1', 't1', 1), run('r1'))}\n\n${jsonl(task('t1'), benchmark)}\n`;
    const summary = importJsonl(db, text);
    expect(summary.written).toEqual({ benchmarks: 1, tasks: 1, runs: 1, results: 1 });
    expect(summary.lines).toBe(4);
  });

  it('reads files written with CRLF line ends and a byte-order mark', () => {
    const summary = importJsonl(db, `\uFEFF${jsonl(benchmark, task('t1')).replace('\n', '\r\n')}\r\n`);
    expect(summary.written).toMatchObject({ benchmarks: 1, tasks: 1 });
  });

  it('resolves references to benchmarks, runs and tasks imported earlier', () => {
    importJsonl(db, jsonl(benchmark, task('t1'), task('t2')));
    importJsonl(db, jsonl(run('r1')));
    const summary = importJsonl(db, jsonl(result('r1', 't1', 1), result('r1', 't2', 0)));
    expect(summary.added.results).toBe(2);
  });

  it('derives passed from the task\'s pass threshold when a result leaves it out, and keeps it when given', () => {
    importJsonl(
      db,
      jsonl(
        benchmark,
        task('strict'),
        task('lenient', { grading: { method: 'rubric', passThreshold: 0.5 } }),
        task('judged'),
        run('r1'),
        result('r1', 'strict', 0.8),
        result('r1', 'lenient', 0.8),
        result('r1', 'judged', 0.2, { passed: true }),
      ),
    );
    const rows = db.prepare('SELECT task_id AS task, passed FROM task_results ORDER BY task_id').all();
    expect(rows).toEqual([
      { task: 'judged', passed: 1 },
      { task: 'lenient', passed: 1 },
      { task: 'strict', passed: 0 },
    ]);
  });
});

describe('rejecting bad files', () => {
  it('reports every bad line with its number and writes nothing', () => {
    const text = [
      JSON.stringify(benchmark),
      '{ not json',
      JSON.stringify({ type: 'task', benchmark: 'arith', id: 't1', prompt: 'p' }),
      JSON.stringify({ type: 'trial', id: 'x' }),
      JSON.stringify(result('r1', 't1', 1.5)),
      JSON.stringify(run('r2', { benchmark: 'nosuch' })),
    ].join('\n');
    const error = importError(text);
    expect(error.code).toBe('REACTOR_OPTION_INVALID');
    expect(error.issues.map((i) => i.line)).toEqual([2, 3, 4, 5, 6]);
    expect(error.issues[0]!.message).toMatch(/not valid JSON/);
    expect(error.issues[1]!.message).toMatch(/^task "t1": grading/);
    expect(error.issues[2]!.message).toMatch(/type: expected "benchmark", "task", "run" or "result"/);
    expect(error.issues[3]!.message).toMatch(/score/);
    expect(error.issues[4]!.message).toMatch(/benchmark "nosuch" is neither in this file nor in the database/);
    expect(error.message).toContain('bad.jsonl');
    expect(error.message).toContain('line 2: not valid JSON');
    expect(error.message).toContain('nothing was imported');
    expect(count('benchmarks')).toBe(0);
  });

  it('rejects results of unknown runs and tasks of another benchmark', () => {
    importJsonl(db, jsonl(benchmark, task('t1'), { type: 'benchmark', id: 'other' }, { ...task('o1'), benchmark: 'other' }, run('r1')));
    const error = importError(jsonl(result('r1', 'o1', 1), result('ghost', 't1', 1)));
    expect(error.issues).toEqual([
      { line: 1, message: 'result of run "r1": task "o1" is not a task of benchmark "arith"' },
      { line: 2, message: 'result for task "t1": run "ghost" is neither in this file nor in the database' },
    ]);
  });

  it('refuses to move an imported run to another benchmark', () => {
    importJsonl(db, jsonl(benchmark, { type: 'benchmark', id: 'other' }, run('r1')));
    const error = importError(jsonl(run('r1', { benchmark: 'other' })));
    expect(error.issues[0]!.message).toMatch(/already imported for benchmark "arith"/);
  });

  it('rejects unknown fields, so a typo is not silently dropped', () => {
    const error = importError(jsonl(benchmark, { ...run('r1'), modle: 'x' }));
    expect(error.issues[0]).toMatchObject({ line: 2 });
    expect(error.issues[0]!.message).toMatch(/modle/);
  });

  it('parses without touching a database', () => {
    const { records, issues, lines } = parseJsonl(`${JSON.stringify(benchmark)}\n\n[1]`);
    expect(records).toHaveLength(1);
    expect(lines).toBe(2);
    expect(issues).toHaveLength(1);
    expect(issues[0]!.line).toBe(3);
  });
});

describe('idempotency', () => {
  it('importing a file twice leaves the database as importing it once', () => {
    const text = readFileSync(join(FIXTURES_DIR, 'sample.jsonl'), 'utf8');
    importJsonl(db, text);
    const once = dump();
    const again = importJsonl(db, text);
    expect(again.added).toEqual({ benchmarks: 0, tasks: 0, runs: 0, results: 0 });
    expect(dump()).toEqual(once);
  });

  it('a re-import replaces changed records and keeps the task order', () => {
    importJsonl(db, jsonl(benchmark, task('t1'), task('t2'), run('r1'), result('r1', 't1', 0)));
    importJsonl(db, jsonl(task('t2', { title: 'renamed' }), task('t1'), result('r1', 't1', 1)));
    expect(db.prepare('SELECT id, title, position FROM tasks ORDER BY position').all()).toEqual([
      { id: 't1', title: null, position: 1 },
      { id: 't2', title: 'renamed', position: 2 },
    ]);
    expect(db.prepare('SELECT score, passed FROM task_results').all()).toEqual([{ score: 1, passed: 1 }]);
  });
});
