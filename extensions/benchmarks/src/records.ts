/**
 * The JSONL import format: one JSON object per line, discriminated by `type`
 * (`benchmark`, `task`, `run`, `result`). These zod schemas are the format's
 * definition; the README documents it with an example.
 */
import { z } from 'zod';

/** Ids name benchmarks, tasks and runs in URLs, tool arguments and files: keep them printable and short. */
const id = z
  .string()
  .min(1)
  .max(200)
  .regex(/^[^\s]+$/, 'an id without whitespace, e.g. "gsm8k-mini"');

/** ISO 8601 timestamps, kept as given (SQLite sorts them as text). */
const timestamp = z.iso.datetime({ offset: true });

/** How a task is graded: the method, plus what that method needs. */
export const gradingSchema = z.object({
  /** e.g. `exact-match`, `unit-tests`, `rubric`, `llm-judge`, `numeric-tolerance`. */
  method: z.string().min(1),
  /** The reference answer (exact-match, numeric-tolerance). */
  expected: z.string().optional(),
  /** What a grader looks for (rubric, llm-judge), or how answers are normalised. */
  rubric: z.string().optional(),
  /** The unit tests that decide the task (unit-tests). */
  tests: z.array(z.string().min(1)).optional(),
  /** Score at or above which the task counts as passed. Default 1. */
  passThreshold: z.number().min(0).max(1).optional(),
});

/** One step of an agent's trajectory on a task. */
export const stepSchema = z.object({
  kind: z.enum(['thought', 'tool_call', 'observation', 'answer', 'message', 'error']),
  content: z.string().optional(),
  /** The tool called (tool_call) or that produced the observation. */
  tool: z.string().optional(),
  /** The tool call's arguments. */
  input: z.unknown().optional(),
});

/** A `benchmark` line: a named set of tasks. */
export const benchmarkRecordSchema = z.strictObject({
  type: z.literal('benchmark'),
  id,
  title: z.string().min(1).optional(),
  description: z.string().optional(),
  version: z.string().optional(),
});

/** A `task` line: one task of a benchmark and how it is graded. */
export const taskRecordSchema = z.strictObject({
  type: z.literal('task'),
  benchmark: id,
  id,
  title: z.string().optional(),
  prompt: z.string(),
  grading: gradingSchema,
  /** Weight in the run's aggregate score. Default 1. */
  weight: z.number().positive().optional(),
  tags: z.array(z.string()).optional(),
});

/** A `run` line: one model with one configuration over a benchmark. */
export const runRecordSchema = z.strictObject({
  type: z.literal('run'),
  id,
  benchmark: id,
  model: z.string().min(1),
  /** The settings of the run: prompting, temperature, tools, limits… compared key by key. */
  config: z.record(z.string(), z.unknown()).optional(),
  startedAt: timestamp,
  finishedAt: timestamp.optional(),
  notes: z.string().optional(),
});

/** A `result` line: what a run scored on one task, and the trajectory that got there. */
export const resultRecordSchema = z.strictObject({
  type: z.literal('result'),
  run: id,
  task: id,
  /** Between 0 and 1. */
  score: z.number().min(0).max(1),
  /** Default: score ≥ the task's passThreshold (1 unless set). */
  passed: z.boolean().optional(),
  /** The final answer or patch the model produced. */
  output: z.string().optional(),
  /** What the grader said: "expected 42, got 38", "2/3 tests passed". */
  feedback: z.string().optional(),
  durationMs: z.number().int().nonnegative().optional(),
  trajectory: z.array(stepSchema).optional(),
});

/** Any one line of an import file. */
export const importRecordSchema = z.discriminatedUnion('type', [benchmarkRecordSchema, taskRecordSchema, runRecordSchema, resultRecordSchema]);

/** How a task is graded. */
export type Grading = z.infer<typeof gradingSchema>;
/** One trajectory step. */
export type Step = z.infer<typeof stepSchema>;
/** A `benchmark` line. */
export type BenchmarkRecord = z.infer<typeof benchmarkRecordSchema>;
/** A `task` line. */
export type TaskRecord = z.infer<typeof taskRecordSchema>;
/** A `run` line. */
export type RunRecord = z.infer<typeof runRecordSchema>;
/** A `result` line. */
export type ResultRecord = z.infer<typeof resultRecordSchema>;
/** Any line of an import file. */
export type ImportRecord = z.infer<typeof importRecordSchema>;
