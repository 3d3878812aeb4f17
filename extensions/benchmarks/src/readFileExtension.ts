/**
 * An extension of spaces' `read_file` tool: when the file read is a JSONL
 * artefact whose lines are run or result records, the result gains a
 * `benchmark` field naming the runs it contains (with their benchmark, model
 * and score, when the database knows them), so a model reading a results file
 * learns which tools to call next.
 *
 * It only adds: a result of another shape, a file that is not JSONL, or one
 * without run records passes through unchanged (the same object). A failure
 * while annotating is logged and the original result is returned, since a
 * missing annotation widens nothing. Applying it fails closed: `wrap` throws
 * if it is not given a handler, and the host then leaves `read_file` out.
 */
import { answerBudget, capAnswer, fitAnswer, largestFitting, type AnswerBudget, type AnyToolHandler, type Logger, type SchemaLike, type ToolExtension } from '@reactor/host';
import { z } from 'zod';
import { defaultBudget } from './budget.js';
import { errorMessageOf } from './errors.js';
import type { BenchmarkStore } from './store.js';

/** The tool it extends (offered by `@reactor/ext-spaces`). */
export const READ_FILE_TOOL = 'read_file';

/** Its place among extensions of `read_file`: after (inside) order-0 ones such as redaction, before (inside) later ones. */
export const READ_FILE_EXTENSION_ORDER = 10;

/** What benchmarks adds to `read_file`'s own description once awake. */
export const READ_FILE_NOTE =
  'Benchmark artefacts (.jsonl run records) are annotated with the runs they contain: the result then has a "benchmark" field ' +
  'naming each run, its benchmark, model and score; open them with get_run, compare_runs or best_run.';

/** `read_file`'s description once benchmarks is awake: the tool's own, then {@link READ_FILE_NOTE}. */
export function readFileDescription(original: string): string {
  return `${original.trimEnd()} ${READ_FILE_NOTE}`;
}

/** Lines read per file at most: an annotation must stay cheap on a large page. */
const MAX_LINES = 10_000;

/** What the `benchmark` field says. */
export interface BenchmarkAnnotation {
  /** Lines recognised as run or result records. */
  records: number;
  /** Runs named in the file that the database knows, with their aggregate score. */
  runs: Array<{ id: string; benchmark: string; model: string; score: number; passed: number; total: number }>;
  /** Runs named in the file that the database does not know (not imported yet). */
  unknownRuns: string[];
  /** The benchmarks of the known runs. */
  benchmarks: string[];
  hint: string;
  /** True when runs were left out to keep `read_file`'s answer within the size cap (see `omitted`). */
  truncated?: boolean;
  omitted?: string[];
}

const annotationSchema = z.object({
  records: z.number().int(),
  runs: z.array(z.object({ id: z.string(), benchmark: z.string(), model: z.string(), score: z.number(), passed: z.number().int(), total: z.number().int() })),
  unknownRuns: z.array(z.string()),
  benchmarks: z.array(z.string()),
  hint: z.string(),
  truncated: z.boolean().optional().describe('True when runs were left out to keep the answer within its size cap.'),
  omitted: z.array(z.string()).optional(),
});

/** The `benchmark` field `read_file`'s result gains. */
const benchmarkField = annotationSchema.optional().describe('present when the file holds benchmark run or result records');

/**
 * `read_file`'s output schema once extended: the tool's own — every field
 * spaces declares, as it declares it — plus the optional `benchmark`
 * annotation, so the two cannot drift. A zod object is extended, a raw shape
 * or a JSON Schema object gains the property; a tool without an output schema
 * (or with a schema of another kind, which cannot be extended) keeps it.
 */
export function readFileOutputSchema(original: SchemaLike | undefined): SchemaLike | undefined {
  if (original === undefined || typeof original !== 'object') return original;
  if (typeof (original as { extend?: unknown }).extend === 'function' && '~standard' in original) {
    return (original as z.ZodObject).extend({ benchmark: benchmarkField });
  }
  if ('~standard' in original) return original;
  const values = Object.values(original);
  if (values.every((v) => typeof v === 'object' && v !== null && '~standard' in v)) return { ...original, benchmark: benchmarkField };
  const json = original as { properties?: Record<string, unknown> };
  return { ...json, properties: { ...json.properties, benchmark: z.toJSONSchema(benchmarkField, { io: 'output' }) } };
}

/**
 * Finds the run ids a JSONL text names: `run` records' `id`, `result` records'
 * `run` (this package's format, counted in `native`), or any other harness's
 * `run_id`/`runId` field.
 */
export function runIdsIn(text: string): { runIds: string[]; records: number; native: number } {
  const runIds = new Set<string>();
  let records = 0;
  let native = 0;
  for (const line of text.split('\n', MAX_LINES)) {
    const trimmed = line.trim();
    if (!trimmed.startsWith('{')) continue;
    let value: unknown;
    try {
      value = JSON.parse(trimmed);
    } catch {
      continue; // a page may cut a line in two; the cut line is simply not counted
    }
    const found = runIdOf(value as Record<string, unknown>);
    if (found === undefined) continue;
    records++;
    if (found.native) native++;
    runIds.add(found.id);
  }
  return { runIds: [...runIds], records, native };
}

function runIdOf(record: Record<string, unknown>): { id: string; native: boolean } | undefined {
  const text = (v: unknown) => (typeof v === 'string' && v !== '' ? v : undefined);
  const nativeId = record.type === 'run' ? text(record.id) : record.type === 'result' ? text(record.run) : undefined;
  if (nativeId !== undefined) return { id: nativeId, native: true };
  const foreign = text(record.run_id) ?? text(record.runId);
  return foreign === undefined ? undefined : { id: foreign, native: false };
}

/** The annotation of a JSONL text, or undefined when it names no run. */
export function annotationFor(text: string, store: BenchmarkStore): BenchmarkAnnotation | undefined {
  const { runIds, records, native } = runIdsIn(text);
  if (runIds.length === 0) return undefined;
  const known = store.knownRuns(runIds);
  const knownIds = new Set(known.map((r) => r.id));
  const unknownRuns = runIds.filter((id) => !knownIds.has(id));
  let hint = 'get_run { run } shows a run per task; compare_runs { baseline, candidate } compares two; best_run { benchmark } ranks a benchmark\'s runs (toolset "benchmarks").';
  if (known.length === 0) {
    hint =
      native > 0
        ? 'These runs are not in the benchmarks database; import the file with reactor-benchmarks-import <file.jsonl> to query them.'
        : 'These runs are not in the benchmarks database; to query them, convert the records to the JSONL format of @reactor/ext-benchmarks (benchmark, task, run and result lines) and import them with reactor-benchmarks-import.';
  }
  return {
    records,
    runs: known.map((r) => ({ id: r.id, benchmark: r.benchmark, model: r.model, score: r.score, passed: r.passed, total: r.total })),
    unknownRuns,
    benchmarks: [...new Set(known.map((r) => r.benchmark))].sort(),
    hint,
  };
}

type FileResult = { path: string; text: string } & Record<string, unknown>;

function isJsonlFile(value: unknown): value is FileResult {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const { path, text } = value as { path?: unknown; text?: unknown };
  return typeof path === 'string' && typeof text === 'string' && /\.(jsonl|ndjson)$/i.test(path);
}

/** The least an annotation keeps, in tokens, however full the page beside it: a few runs and the hint. */
const ANNOTATION_FLOOR = 500;

// An annotation that would take the answer over its budget keeps fewer runs (and says so), within what the page leaves (at least the floor).
function bounded(annotation: BenchmarkAnnotation, result: unknown, budget: AnswerBudget): BenchmarkAnnotation {
  const text = JSON.stringify(result);
  const room = budget.maxTokens - (budget.tokens(text) || Math.ceil(Buffer.byteLength(text, 'utf8') / 3)) - 10;
  const chars = budget.maxChars === undefined ? undefined : Math.max(800, budget.maxChars - text.length - '"benchmark":,'.length);
  const within = answerBudget({ maxTokens: Math.max(ANNOTATION_FLOOR, room), maxChars: chars, counter: budget.counter });
  return within.fits(annotation) ? annotation : capAnswer(annotation, within);
}

// The page with its annotation within the budget: when the annotation's floor does not fit beside a full page, the page ends sooner (nextOffset says where to go on).
function fitPage(result: FileResult, annotation: BenchmarkAnnotation, budget: AnswerBudget): FileResult {
  const whole = { ...result, benchmark: annotation };
  const offset = result.offset;
  if (typeof offset !== 'number' || budget.fits(whole)) return whole;
  const page = (n: number) => ({ ...result, text: result.text.slice(0, n), nextOffset: offset + n, truncated: true, benchmark: annotation });
  return fitAnswer(budget, (maxChars) => (JSON.stringify(whole).length <= maxChars ? whole : page(Math.max(1, largestFitting(1, result.text.length - 1, (n) => JSON.stringify(page(n)).length <= maxChars)))));
}

/**
 * Annotates a `read_file` result, or returns it as is (the same object) when
 * it is not a benchmark artefact. The answer stays within `budget`: the
 * annotation keeps what the page leaves, and the page ends sooner when even
 * the annotation's floor does not fit beside it.
 */
export function annotateResult(result: unknown, store: BenchmarkStore, budget: AnswerBudget = defaultBudget()): unknown {
  if (isJsonlFile(result)) {
    const annotation = annotationFor(result.text, store);
    return annotation === undefined ? result : fitPage(result, bounded(annotation, result, budget), budget);
  }
  // A tool that already answers a CallToolResult: annotate its structured content, and tell the model in a text item.
  const call = result as { content?: unknown; structuredContent?: unknown } | null;
  if (typeof call === 'object' && call !== null && Array.isArray(call.content) && isJsonlFile(call.structuredContent)) {
    const found = annotationFor(call.structuredContent.text, store);
    if (found === undefined) return result;
    const annotation = bounded(found, call.structuredContent, budget);
    return {
      ...call,
      structuredContent: { ...call.structuredContent, benchmark: annotation },
      content: [...(call.content as unknown[]), { type: 'text', text: JSON.stringify({ benchmark: annotation }) }],
    };
  }
  return result;
}

/**
 * The tool extension. `store()` answers the open store, or undefined while the
 * extension is not started (the result then passes through).
 */
export function createReadFileExtension(store: () => BenchmarkStore | undefined, logger: Logger, budget: AnswerBudget = defaultBudget()): ToolExtension {
  return {
    order: READ_FILE_EXTENSION_ORDER,
    // The description points at get_run, compare_runs and best_run: only where benchmarks' toolset is active are they served.
    when: 'active',
    // Derived from read_file's own, never retyped: whatever spaces says and declares stays.
    description: readFileDescription,
    outputSchema: readFileOutputSchema,
    meta: { 'reactor/benchmarks': { annotates: 'benchmark artefacts (.jsonl run records)' } },
    wrap(original: AnyToolHandler): AnyToolHandler {
      if (typeof original !== 'function') {
        // Thrown while the host applies extensions: read_file is then left out, never served half-extended.
        throw new TypeError(`benchmarks cannot extend "${READ_FILE_TOOL}": expected its handler to be a function`);
      }
      return async (args, ctx) => {
        const result: unknown = await original(args, ctx);
        const open = store();
        if (open === undefined) return result;
        try {
          return annotateResult(result, open, budget);
        } catch (error) {
          logger.warn({ tool: READ_FILE_TOOL, err: error instanceof Error ? error : undefined }, `could not annotate a read_file result: ${errorMessageOf(error)}; returned it unannotated`);
          return result;
        }
      };
    },
  };
}
