/**
 * The `benchmarks` toolset: read-only tools over the benchmarks database.
 * Each reaches the database through `store()`, which throws until the
 * extension has started, so nothing touches SQLite before `onStart`.
 */
import { capAnswer, cursorMismatch, decodeCursor, defineTool, encodeCursor, type AnswerBudget, type ToolAnnotations, type ToolSpec } from '@reactor/host';
import { z } from 'zod';
import { defaultBudget } from './budget.js';
import { bestRun, compareRuns } from './compare.js';
import {
  bestRunOutput,
  compareRunsOutput,
  getBenchmarkOutput,
  getRunOutput,
  getRunsOutput,
  listBenchmarksOutput,
  listRunsOutput,
  trajectoryOutput,
} from './outputs.js';
import type { BenchmarkStore } from './store.js';
import { COMPARE_RUNS_VIEW } from './views.js';

/** The toolset these tools belong to. */
export const BENCHMARKS_TOOLSET = 'benchmarks';

/** The names of the tools, in list order. */
export const BENCHMARK_TOOL_NAMES = ['list_benchmarks', 'get_benchmark', 'list_runs', 'get_run', 'get_runs', 'get_trajectory', 'compare_runs', 'best_run'] as const;

// They only read a local database: nothing changes, the same call answers the same, nothing outside is reached.
const READ_ONLY: ToolAnnotations = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false };

const runId = z.string().min(1).describe('a run id, as list_runs returns');
const benchmarkId = z.string().min(1).describe('a benchmark id, as list_benchmarks returns');
const cursorArg = z.string().min(1).optional().describe('the nextCursor of the previous answer, with the same other arguments; omit to start from the beginning');
const statusArg = z.enum(['passed', 'failed', 'missing']);

/** What a cursor carries: the tool, the call it continues (its identifying arguments), and where to go on. */
const cursorState = z.object({ tool: z.string(), of: z.string(), at: z.number().int().min(0) });

/**
 * A paged call: where it starts (0, or where `cursor` says; a cursor of another
 * tool or another call is refused, saying to start over), and the nextCursor
 * for an answer that showed `shown` items from there out of `total`.
 */
function paging(tool: string, of: unknown, cursor: string | undefined, what: string) {
  const key = JSON.stringify(of);
  let start = 0;
  if (cursor !== undefined) {
    const state = decodeCursor(cursor, cursorState, { tool, extension: 'benchmarks' });
    if (state.tool !== tool || state.of !== key) throw cursorMismatch(cursor, { tool, extension: 'benchmarks', expected: `a nextCursor of ${tool} for ${what}` });
    start = state.at;
  }
  const at = (position: number) => encodeCursor({ tool, of: key, at: position });
  return {
    start,
    /** The longest cursor this call can answer: held in the answer while it is bounded, so the real one fits too. */
    placeholder: at(Number.MAX_SAFE_INTEGER),
    next: (shown: number, more: boolean) => (more ? at(start + shown) : null),
  };
}

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
      description:
        "A benchmark's tasks and how each is graded: the prompt, the grading method (exact-match, unit-tests, …), the expected answer or tests, the rubric and the pass threshold. Tasks come in pages (limit): continue with cursor = nextCursor until it is null.",
      inputSchema: z.object({
        benchmark: benchmarkId,
        limit: z.number().int().min(1).max(500).default(50).describe('the most tasks in one answer (default 50)'),
        cursor: cursorArg,
      }),
      outputSchema: getBenchmarkOutput,
      annotations: READ_ONLY,
      handler: (args) => {
        const detail = store().getBenchmark(args.benchmark);
        const page = paging('get_benchmark', [detail.id], args.cursor, `benchmark "${detail.id}"`);
        const tasks = detail.tasks.slice(page.start, page.start + args.limit);
        const answer = bound({ ...detail, tasks, nextCursor: page.placeholder });
        return { ...answer, nextCursor: page.next(answer.tasks.length, page.start + answer.tasks.length < detail.tasks.length) };
      },
    }),
    defineTool({
      name: 'list_runs',
      title: 'List runs',
      description:
        'List benchmark runs with their model, configuration and aggregate score (weighted mean over all tasks, 0–1; a task without a result counts 0). Filter by benchmark, by model (case-insensitive substring), by task and status (e.g. task "gsm8k-mini/0007" with status "failed": the runs that failed it); newest first, or best first with sort "score". Continue with cursor = nextCursor until it is null.',
      inputSchema: z.object({
        benchmark: benchmarkId.optional(),
        model: z.string().optional().describe('part of the model name, e.g. "gpt-4o"'),
        task: z.string().min(1).optional().describe('only runs of the benchmark holding this task id (as get_benchmark returns)'),
        status: statusArg.optional().describe('with task: runs whose outcome on it is this; without: runs with at least one task of this status ("missing": runs that left a task without a result)'),
        sort: z.enum(['recent', 'score']).default('recent'),
        limit: z.number().int().min(1).max(500).default(50),
        cursor: cursorArg,
      }),
      outputSchema: listRunsOutput,
      annotations: READ_ONLY,
      handler: (args) => {
        const { cursor, limit, ...filter } = args;
        const page = paging('list_runs', filter, cursor, 'the same filters and sort');
        const found = store().pageRuns({ ...filter, limit }, page.start);
        const answer = bound({ runs: found.runs, nextCursor: page.placeholder });
        return { ...answer, nextCursor: page.next(answer.runs.length, found.more || answer.runs.length < found.runs.length) };
      },
    }),
    defineTool({
      name: 'get_run',
      title: 'Get a run',
      description:
        "One run's score per task (passed, failed, or missing when the task has no result), with the output, the grader's feedback and the trajectory length of each. Narrow to one status (e.g. \"failed\"); results come in pages (limit): continue with cursor = nextCursor until it is null.",
      inputSchema: z.object({
        run: runId,
        status: statusArg.optional().describe('only the tasks with this outcome'),
        limit: z.number().int().min(1).max(500).default(100).describe('the most results in one answer (default 100)'),
        cursor: cursorArg,
      }),
      outputSchema: getRunOutput,
      annotations: READ_ONLY,
      handler: (args) => {
        const run = store().getRun(args.run);
        const page = paging('get_run', [run.id, args.status ?? null], args.cursor, `run "${run.id}"${args.status === undefined ? '' : ` and status "${args.status}"`}`);
        const all = args.status === undefined ? run.results : run.results.filter((r) => r.status === args.status);
        const answer = bound({ ...run, results: all.slice(page.start, page.start + args.limit), nextCursor: page.placeholder });
        return { ...answer, nextCursor: page.next(answer.results.length, page.start + answer.results.length < all.length) };
      },
    }),
    defineTool({
      name: 'get_runs',
      title: 'Get several runs',
      description:
        "Several runs at once (up to 20), each with its score per task as get_run gives it; ids not in the database are listed in unknown. A long answer is cut (truncated): read a run whole with get_run and its cursor.",
      inputSchema: z.object({ runs: z.array(runId).min(1).max(20).describe('run ids, as list_runs returns') }),
      outputSchema: getRunsOutput,
      annotations: READ_ONLY,
      handler: (args) => {
        const db = store();
        const ids = [...new Set(args.runs)];
        const known = new Set(db.knownRuns(ids).map((r) => r.id));
        return bound({ runs: ids.filter((id) => known.has(id)).map((id) => db.getRun(id)), unknown: ids.filter((id) => !known.has(id)) });
      },
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
      view: COMPARE_RUNS_VIEW,
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
      // The benchmarks tool with the most work (every run of a benchmark, then a full comparison): a client that opts in gets a task.
      task: 'optional',
      handler: (args, ctx) => bound(bestRun(store(), args.benchmark, { signal: ctx.signal, ...(ctx.task !== undefined ? { onStep: (message: string) => ctx.task?.status(message) } : {}) })),
    }),
  ];
  return tools;
}
