/**
 * The output schemas of the benchmarks tools: each tool answers structured
 * content a client can check, and the same JSON as text for a model.
 */
import { z } from 'zod';
import { gradingSchema, stepSchema } from './records.js';

const benchmarkSummary = {
  id: z.string(),
  title: z.string(),
  description: z.string().nullable(),
  version: z.string().nullable(),
  taskCount: z.number().int(),
  runCount: z.number().int(),
  gradingMethods: z.array(z.string()),
};

const task = z.object({
  id: z.string(),
  title: z.string().nullable(),
  prompt: z.string(),
  grading: gradingSchema,
  weight: z.number(),
  tags: z.array(z.string()),
});

/** A run with its aggregate score. */
export const runSummary = z.object({
  id: z.string(),
  benchmark: z.string(),
  model: z.string(),
  config: z.record(z.string(), z.unknown()),
  startedAt: z.string(),
  finishedAt: z.string().nullable(),
  notes: z.string().nullable(),
  score: z.number().describe('weighted mean over all tasks of the benchmark, 0–1; a task without a result counts 0'),
  passed: z.number().int(),
  total: z.number().int(),
  completed: z.number().int(),
});

const status = z.enum(['passed', 'failed', 'missing']);

const taskOutcome = z.object({
  task: z.string(),
  title: z.string().nullable(),
  status,
  score: z.number().nullable(),
  output: z.string().nullable(),
  feedback: z.string().nullable(),
  durationMs: z.number().nullable(),
  steps: z.number().int(),
  toolCalls: z.number().int(),
});

const behaviour = z.object({ meanSteps: z.number(), toolCalls: z.number().int(), meanDurationMs: z.number().nullable() });

/** `compare_runs`' answer (and `best_run`'s `difference`). */
export const comparisonOutput = z.object({
  benchmark: z.string(),
  baseline: runSummary,
  candidate: runSummary,
  scoreDelta: z.number(),
  passedDelta: z.number().int(),
  fixed: z.array(z.string()),
  broken: z.array(z.string()),
  improved: z.array(z.string()),
  regressed: z.array(z.string()),
  differences: z.array(z.object({ setting: z.string(), baseline: z.unknown(), candidate: z.unknown() })),
  behaviour: z.object({ baseline: behaviour, candidate: behaviour }),
  tasks: z.array(
    z.object({
      task: z.string(),
      title: z.string().nullable(),
      baseline: z.object({ status, score: z.number().nullable() }),
      candidate: z.object({ status, score: z.number().nullable() }),
      delta: z.number(),
      change: z.enum(['fixed', 'broken', 'improved', 'regressed', 'unchanged']),
    }),
  ),
  summary: z.string(),
});

/** The fields every answer carries: whether anything was left out to keep it within the extension's `maxResponseChars`. */
const truncation = {
  truncated: z.boolean().describe('True when something was left out of this answer to keep it within its size cap (see omitted); narrow the request (one run, one task) to see it.'),
  omitted: z.array(z.string()).optional().describe('What was left out: long texts cut (head and tail kept), array items dropped.'),
};

/** The cursor of a paged answer. */
const paging = {
  nextCursor: z.string().nullable().describe('Pass as cursor (with the same other arguments) to get the items this answer left out, whether by limit or by its size cap; null when none are left.'),
};

/** `compare_runs`' answer: the comparison, bounded. */
export const compareRunsOutput = comparisonOutput.extend(truncation);

/** `list_benchmarks`' answer. */
export const listBenchmarksOutput = z.object({ benchmarks: z.array(z.object(benchmarkSummary)), ...truncation });

/** `get_benchmark`'s answer. */
export const getBenchmarkOutput = z.object({ ...benchmarkSummary, tasks: z.array(task), ...paging, ...truncation });

/** `list_runs`' answer. */
export const listRunsOutput = z.object({ runs: z.array(runSummary), ...paging, ...truncation });

/** `get_run`'s answer. */
export const getRunOutput = runSummary.extend({ results: z.array(taskOutcome), ...paging, ...truncation });

/** `get_runs`' answer: several runs with their results, and the ids not found. */
export const getRunsOutput = z.object({
  runs: z.array(runSummary.extend({ results: z.array(taskOutcome) })),
  unknown: z.array(z.string()).describe('The ids asked for that are not in the database.'),
  ...truncation,
});

/** `get_trajectory`'s answer. */
export const trajectoryOutput = z.object({
  run: z.string(),
  benchmark: z.string(),
  model: z.string(),
  task: z.string(),
  title: z.string().nullable(),
  prompt: z.string(),
  grading: gradingSchema,
  status: z.enum(['passed', 'failed']),
  score: z.number(),
  output: z.string().nullable(),
  feedback: z.string().nullable(),
  durationMs: z.number().nullable(),
  steps: z.array(stepSchema),
  ...truncation,
});

/** `best_run`'s answer. */
export const bestRunOutput = z.object({
  benchmark: z.string(),
  runCount: z.number().int(),
  ranking: z.array(z.object({ id: z.string(), model: z.string(), score: z.number(), passed: z.number().int(), total: z.number().int() })),
  best: runSummary,
  worst: runSummary,
  difference: comparisonOutput,
  ...truncation,
});
