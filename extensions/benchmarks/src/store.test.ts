import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'libsql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bestRun, compareRuns } from './compare.js';
import { FIXTURES_DIR } from './extension.js';
import { importJsonl } from './importer.js';
import { migrate } from './schema.js';
import { BenchmarkStore } from './store.js';

let db: Database.Database;
let store: BenchmarkStore;
beforeAll(() => {
  db = new Database(':memory:');
  migrate(db, ':memory:');
  importJsonl(db, readFileSync(join(FIXTURES_DIR, 'sample.jsonl'), 'utf8'));
  store = new BenchmarkStore(db);
});
afterAll(() => db.close());

function thrown(fn: () => unknown): { code?: string; message: string } {
  try {
    fn();
  } catch (error) {
    return error as { code?: string; message: string };
  }
  throw new Error('expected a throw');
}

describe('benchmarks and their tasks', () => {
  it('lists benchmarks with their task and run counts and grading methods', () => {
    expect(store.listBenchmarks().map((b) => [b.id, b.taskCount, b.runCount, b.gradingMethods])).toEqual([
      ['code-repair', 5, 2, ['unit-tests']],
      ['gsm8k-mini', 12, 6, ['exact-match']],
    ]);
  });

  it('keeps a grading method that holds a comma whole', () => {
    const own = new Database(':memory:');
    try {
      migrate(own, ':memory:');
      importJsonl(own, [
        { type: 'benchmark', id: 'essays', title: 'Essays' },
        { type: 'task', benchmark: 'essays', id: 'essays/1', prompt: 'Argue for one side.', grading: { method: 'rubric, weighted', rubric: 'clarity, evidence' } },
        { type: 'task', benchmark: 'essays', id: 'essays/2', prompt: 'Sum up.', grading: { method: 'exact-match', expected: 'x' } },
      ].map((r) => JSON.stringify(r)).join('\n'));
      expect(new BenchmarkStore(own).listBenchmarks()[0]?.gradingMethods).toEqual(['exact-match', 'rubric, weighted']);
    } finally {
      own.close();
    }
  });

  it('shows how each task is graded, in the order the tasks were imported', () => {
    const gsm = store.getBenchmark('gsm8k-mini');
    expect(gsm.tasks.map((t) => t.id)).toEqual(Array.from({ length: 12 }, (_, i) => `gsm8k-mini/${String(i + 1).padStart(4, '0')}`));
    expect(gsm.tasks[9]!.grading).toMatchObject({ method: 'exact-match', expected: '121' });
    const repair = store.getBenchmark('code-repair');
    expect(repair.tasks[0]!.grading).toMatchObject({ method: 'unit-tests', tests: ['test_first_page', 'test_last_page_partial', 'test_empty_list'] });
  });

  it('names the known benchmarks when asked for an unknown one', () => {
    const error = thrown(() => store.getBenchmark('gsm8k'));
    expect(error.code).toBe('REACTOR_TOOL_FAILED');
    expect(error.message).toContain('benchmark "gsm8k": is not in the benchmarks database');
    expect(error.message).toContain('"gsm8k-mini"');
    expect(error.message).toContain('list_benchmarks');
  });
});

describe('runs', () => {
  it('filters runs by benchmark and by part of the model name, newest first', () => {
    expect(store.listRuns({ benchmark: 'gsm8k-mini' }).map((r) => r.id)).toEqual([
      'gsm8k-sonnet-cot-python',
      'gsm8k-llama31-8b-cot',
      'gsm8k-gpt4o-direct',
      'gsm8k-gpt4o-cot-python',
      'run-0143',
      'run-0142',
    ]);
    expect(store.listRuns({ model: 'GPT-4O' }).map((r) => r.id).sort()).toEqual(['gsm8k-gpt4o-cot-python', 'gsm8k-gpt4o-direct', 'repair-gpt4o-agent']);
    expect(store.listRuns({ benchmark: 'code-repair', model: 'llama' }).map((r) => r.id)).toEqual(['repair-llama31-70b-agent']);
  });

  it('ranks runs by aggregate score with sort "score" and honours the limit', () => {
    const ranked = store.listRuns({ benchmark: 'gsm8k-mini', sort: 'score', limit: 2 });
    expect(ranked.map((r) => [r.id, r.score, r.passed, r.total])).toEqual([
      ['gsm8k-sonnet-cot-python', 1, 12, 12],
      ['gsm8k-gpt4o-cot-python', 0.9167, 11, 12],
    ]);
  });

  it('scores a run over every task of its benchmark, so a missing result counts 0', () => {
    const local = new Database(':memory:');
    migrate(local, ':memory:');
    importJsonl(
      local,
      [
        { type: 'benchmark', id: 'b' },
        { type: 'task', benchmark: 'b', id: 'heavy', prompt: 'p', grading: { method: 'rubric' }, weight: 3 },
        { type: 'task', benchmark: 'b', id: 'light', prompt: 'p', grading: { method: 'rubric' } },
        { type: 'run', id: 'r', benchmark: 'b', model: 'm', startedAt: '2025-01-01T00:00:00Z' },
        { type: 'result', run: 'r', task: 'light', score: 1 },
      ]
        .map((r) => JSON.stringify(r))
        .join('\n'),
    );
    const run = new BenchmarkStore(local).getRun('r');
    expect(run).toMatchObject({ score: 0.25, passed: 1, total: 2, completed: 1 });
    expect(run.results.map((r) => [r.task, r.status])).toEqual([
      ['heavy', 'missing'],
      ['light', 'passed'],
    ]);
    expect(thrown(() => new BenchmarkStore(local).getTrajectory('r', 'heavy')).message).toContain('run "r" has no result for this task');
    local.close();
  });

  it('gives a run\'s score per task with feedback and trajectory size', () => {
    const run = store.getRun('gsm8k-gpt4o-cot-python');
    expect(run).toMatchObject({ benchmark: 'gsm8k-mini', model: 'gpt-4o-2024-08-06', score: 0.9167, passed: 11, total: 12, completed: 12 });
    expect(run.config).toEqual({ prompting: 'cot-v2', temperature: 0, tools: ['python'], maxSteps: 6 });
    const clothes = run.results.find((r) => r.task === 'gsm8k-mini/0008')!;
    expect(clothes).toMatchObject({ status: 'failed', score: 0, output: '57', steps: 2, toolCalls: 0 });
    expect(clothes.feedback).toBe('expected 41, got 57 (ignored the $16 left over)');
    expect(run.results.find((r) => r.task === 'gsm8k-mini/0001')).toMatchObject({ status: 'passed', steps: 4, toolCalls: 1 });
  });

  it('returns a trajectory step by step, with the task and how it was graded', () => {
    const t = store.getTrajectory('repair-llama31-70b-agent', 'cr-003');
    expect(t).toMatchObject({ benchmark: 'code-repair', status: 'failed', score: 0, output: null, grading: { method: 'unit-tests' } });
    expect(t.steps.map((s) => s.kind)).toEqual(['thought', 'tool_call', 'observation', 'tool_call', 'observation', 'error']);
    expect(t.steps[1]).toEqual({ kind: 'tool_call', tool: 'read_file', input: { path: 'cache/store.py' } });
  });

  it('says whether the run or the task is what is unknown', () => {
    expect(thrown(() => store.getRun('nope')).message).toContain('run "nope": is not in the benchmarks database');
    expect(thrown(() => store.getTrajectory('gsm8k-gpt4o-direct', 'cr-001')).message).toMatch(/task "cr-001".*get_benchmark \{ benchmark: "gsm8k-mini" \}/);
  });

  it('finds which of a list of run ids it knows', () => {
    expect(store.knownRuns(['ghost', 'gsm8k-gpt4o-direct', 'gsm8k-gpt4o-direct']).map((r) => r.id)).toEqual(['gsm8k-gpt4o-direct']);
  });
});

describe('comparing runs', () => {
  it('lists per-task deltas and the tasks that flipped either way', () => {
    const c = compareRuns(store, 'gsm8k-gpt4o-direct', 'gsm8k-gpt4o-cot-python');
    expect(c.scoreDelta).toBe(0.1667);
    expect(c.passedDelta).toBe(2);
    expect(c.fixed).toEqual(['gsm8k-mini/0003', 'gsm8k-mini/0005', 'gsm8k-mini/0009']);
    expect(c.broken).toEqual(['gsm8k-mini/0008']);
    expect(c.tasks.find((t) => t.task === 'gsm8k-mini/0008')).toMatchObject({ baseline: { status: 'passed', score: 1 }, candidate: { status: 'failed', score: 0 }, delta: -1, change: 'broken' });
    expect(c.differences.map((d) => d.setting)).toEqual(['config.maxSteps', 'config.prompting', 'config.tools']);
    expect(c.behaviour.candidate.toolCalls).toBe(11);
    expect(c.behaviour.baseline.toolCalls).toBe(0);
  });

  it('counts partial credit that did not flip a task as improved or regressed', () => {
    const c = compareRuns(store, 'repair-llama31-70b-agent', 'repair-gpt4o-agent');
    expect(c.fixed).toEqual(['cr-002', 'cr-004']);
    expect(c.improved).toEqual(['cr-003']);
    expect(c.summary).toContain('Partial credit rose on: cr-003');
  });

  it('shows run-0143 differs from run-0142 only by temperature, which cost it two problems', () => {
    const c = compareRuns(store, 'run-0142', 'run-0143');
    expect(c.differences).toEqual([{ setting: 'config.temperature', baseline: 0, candidate: 0.7 }]);
    expect(c.broken).toEqual(['gsm8k-mini/0007', 'gsm8k-mini/0011']);
    expect(c.fixed).toEqual([]);
    expect([c.baseline.score, c.candidate.score, c.scoreDelta]).toEqual([0.8333, 0.6667, -0.1666]); // deltas are differences of the shown scores
  });

  it('refuses to compare runs of different benchmarks', () => {
    const error = thrown(() => compareRuns(store, 'gsm8k-gpt4o-direct', 'repair-gpt4o-agent'));
    expect(error.code).toBe('REACTOR_TOOL_FAILED');
    expect(error.message).toContain('belong to different benchmarks');
  });

  it('finds the best and worst runs of gsm8k-mini and how they differ', () => {
    const b = bestRun(store, 'gsm8k-mini');
    expect(b.best.id).toBe('gsm8k-sonnet-cot-python');
    expect(b.worst.id).toBe('gsm8k-llama31-8b-cot');
    expect(b.ranking.map((r) => r.id)).toEqual(['gsm8k-sonnet-cot-python', 'gsm8k-gpt4o-cot-python', 'run-0142', 'gsm8k-gpt4o-direct', 'run-0143', 'gsm8k-llama31-8b-cot']);
    expect(b.difference.scoreDelta).toBe(0.5);
    expect(b.difference.fixed).toEqual(['0003', '0005', '0007', '0009', '0010', '0011'].map((n) => `gsm8k-mini/${n}`));
    expect(b.difference.broken).toEqual([]);
    expect(b.difference.differences).toEqual([
      { setting: 'model', baseline: 'llama-3.1-8b-instruct', candidate: 'claude-3-5-sonnet-20241022' },
      { setting: 'config.maxSteps', baseline: 4, candidate: 6 },
      { setting: 'config.temperature', baseline: 0.2, candidate: 0 },
      { setting: 'config.tools', baseline: [], candidate: ['python'] },
    ]);
    expect(b.difference.summary).toMatch(/^On gsm8k-mini, gsm8k-sonnet-cot-python \(claude-3-5-sonnet-20241022\) scores 1 against 0.5/);
  });

  it('says what it does before each step (a task\'s status), and stops between steps once cancelled', () => {
    const steps: string[] = [];
    bestRun(store, 'gsm8k-mini', { onStep: (message) => steps.push(message) });
    expect(steps).toEqual(['ranking the runs of benchmark "gsm8k-mini"', 'comparing the best run ("gsm8k-sonnet-cot-python") with the worst ("gsm8k-llama31-8b-cot") of 6']);
    const cancelled = new AbortController();
    cancelled.abort(new Error('the task was cancelled'));
    expect(() => bestRun(store, 'gsm8k-mini', { signal: cancelled.signal, onStep: () => assert.fail('no step after cancellation') })).toThrow('the task was cancelled');
  });
});
