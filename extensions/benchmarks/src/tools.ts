/**
 * The `benchmarks` toolset: read-only tools over the benchmarks database.
 * Each reaches the database through `store()`, which throws until the
 * extension has started, so nothing touches SQLite before `onStart`.
 */
import { capAnswer, defineTool, type AnswerBudget, type ToolAnnotations, type ToolSpec } from '@reactor/host';
import { z } from 'zod';
import { defaultBudget } from './budget.js';
import { bestRun, compareRuns } from './compare.js';
import {
  bestRunOutput,
  compareRunsOutput,
  getBenchmarkOutput,
  getRunOutput,
  listBenchmarksOutput,
  listRunsOutput,
  trajectoryOutput,
} from './outputs.js';
import type { BenchmarkStore } from './store.js';

/** The toolset these tools belong to. */
export const BENCHMARKS_TOOLSET = 'benchmarks';

/** The names of the tools, in list order. */
export const BENCHMARK_TOOL_NAMES = ['list_benchmarks', 'get_benchmark', 'list_runs', 'get_run', 'get_trajectory', 'compare_runs', 'best_run'] as const;

// They only read a local database: nothing changes, the same call answers the same, nothing outside is reached.
const READ_ONLY: ToolAnnotations = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false };

const runId = z.string().min(1).describe('a run id, as list_runs returns');
const benchmarkId = z.string().min(1).describe('a benchmark id, as list_benchmarks returns');

/**
 * Makes the tools over a store getter (which throws while the extension is
 * not started). Every answer is kept within `budget` (10,000 tokens by
 * default) and says `truncated` (see `capAnswer` in `@reactor/host`).
 */
export function createBenchmarkTools(store: () => BenchmarkStore, budget: AnswerBudget = defaultBudget()): Array<ToolSpec<never>> {
  const bound = <T extends object>(answer: T) => capAnswer(answer, budget);
  const tools = [
    defineTool({
      name: 'list_benchmarks',
      title: 'List benchmarks',
      description: 'List the benchmarks that have recorded runs: id, title, number of tasks and runs, and the grading methods their tasks use. Start here.',
      outputSchema: listBenchmarksOutput,
      annotations: READ_ONLY,
      handler: () => bound({ benchmarks: store().listBenchmarks() }),
    }),
    defineTool({
      name: 'get_benchmark',
      title: 'Get a benchmark',
      description: "A benchmark's tasks and how each is graded: the prompt, the grading method (exact-match, unit-tests, …), the expected answer or tests, the rubric and the pass threshold.",
      inputSchema: z.object({ benchmark: benchmarkId }),
      outputSchema: getBenchmarkOutput,
      annotations: READ_ONLY,
      handler: (args) => bound(store().getBenchmark(args.benchmark)),
    }),
    defineTool({
      name: 'list_runs',
      title: 'List runs',
      description:
        'List benchmark runs with their model, configuration and aggregate score (weighted mean over all tasks, 0–1; a task without a result counts 0). Filter by benchmark and by model (case-insensitive substring); newest first, or best first with sort "score".',
      inputSchema: z.object({
        benchmark: benchmarkId.optional(),
        model: z.string().optional().describe('part of the model name, e.g. "gpt-4o"'),
        sort: z.enum(['recent', 'score']).default('recent'),
        limit: z.number().int().min(1).max(500).default(50),
      }),
      outputSchema: listRunsOutput,
      annotations: READ_ONLY,
      handler: (args) => bound({ runs: store().listRuns(args) }),
    }),
    defineTool({
      name: 'get_run',
      title: 'Get a run',
      description: "One run's score per task (passed, failed, or missing when the task has no result), with the output, the grader's feedback and the trajectory length of each.",
      inputSchema: z.object({ run: runId }),
      outputSchema: getRunOutput,
      annotations: READ_ONLY,
      handler: (args) => bound(store().getRun(args.run)),
    }),
    defineTool({
      name: 'get_trajectory',
      title: 'Get a trajectory',
      description: 'What a run did on one task, step by step (thoughts, tool calls with their input, observations, the answer), with the task, how it was graded and the score.',
      inputSchema: z.object({ run: runId, task: z.string().min(1).describe('a task id of the run\'s benchmark, as get_run returns') }),
      outputSchema: trajectoryOutput,
      annotations: READ_ONLY,
      handler: (args) => bound(store().getTrajectory(args.run, args.task)),
    }),
    defineTool({
      name: 'compare_runs',
      title: 'Compare two runs',
      description:
        'Compare two runs of one benchmark: per-task score deltas (candidate minus baseline), tasks that flipped (fixed: fail→pass, broken: pass→fail), the aggregate difference, the model and config settings that differ, and tool use.',
      inputSchema: z.object({ baseline: runId.describe('the run to compare against'), candidate: runId.describe('the run compared with the baseline') }),
      outputSchema: compareRunsOutput,
      annotations: READ_ONLY,
      handler: (args) => bound(compareRuns(store(), args.baseline, args.candidate)),
    }),
    defineTool({
      name: 'best_run',
      title: 'Best and worst runs',
      description:
        "A benchmark's runs ranked by aggregate score, its best and worst runs, and how they differ: the tasks the best fixes, the settings that differ and how the agents behaved.",
      inputSchema: z.object({ benchmark: benchmarkId }),
      outputSchema: bestRunOutput,
      annotations: READ_ONLY,
      handler: (args) => bound(bestRun(store(), args.benchmark)),
    }),
  ];
  return tools;
}
