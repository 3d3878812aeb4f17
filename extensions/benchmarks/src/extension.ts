/**
 * The benchmarks extension: an opt-in toolset, held until a URL asks for
 * `benchmarks`. Listing it (manifest and `toolsets()`) touches nothing; the
 * database is opened in `onStart` — seeded from the sample fixtures when
 * empty, refreshed when a sample database it filled is older than its fixtures — and
 * closed in `onStop`.
 */
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import type Database from 'libsql';
import { createStderrLogger, DEFAULT_ANSWER_TOKENS, defineExtension, readLimit, type AnswerBudget, type Logger, type McpExtension, type Toolset } from '@reactor/host';
import { openDatabase, prepareLocation, resolveLocation, type DatabaseLocation, type DatabaseOptions } from './database.js';
import { notStarted } from './errors.js';
import { ensureSample } from './sample.js';
import { createReadFileExtension, READ_FILE_TOOL } from './readFileExtension.js';
import { BenchmarkStore } from './store.js';
import { defaultBudget } from './budget.js';
import { BENCHMARKS_TOOLSET, createBenchmarkTools } from './tools.js';

/** The extension's name (also its package.json `reactorMcp` key). */
export const EXTENSION_NAME = 'benchmarks';

/** The toolset, exactly as package.json declares it (the host refuses a mismatch). */
export const BENCHMARKS_TOOLSETS: readonly Toolset[] = Object.freeze([
  {
    name: BENCHMARKS_TOOLSET,
    title: 'Benchmarks',
    description: 'Read what benchmark runs did.',
    default: false,
    instructions:
      'Benchmarks hold tasks (each with a grading method), runs (a model and a config) and per-task results with trajectories. ' +
      'Start with list_benchmarks; get_benchmark shows how tasks are graded; list_runs and best_run rank runs by aggregate score; ' +
      'get_run shows a run per task (get_runs several at once); compare_runs explains the difference between two runs; get_trajectory shows what a run did on one task. ' +
      'list_runs finds runs by task and status (the runs that failed a task). An answer with a nextCursor left items out: call again with cursor = nextCursor.',
  },
]);

// Read from package.json (one level above src/ and dist/) so a release bump needs no code edit, and the
// manifest declares the same host range as the peer dependency discovery reads.
const pkg = createRequire(import.meta.url)('../package.json') as { version: string; peerDependencies: Record<string, string> };

/** The folder of the sample fixtures (`fixtures/*.jsonl`), beside `src/` and `dist/`. */
export const FIXTURES_DIR = fileURLToPath(new URL('../fixtures/', import.meta.url));

/** Options of {@link createBenchmarksExtension}. */
export interface BenchmarksOptions extends DatabaseOptions {
  /** Import the sample fixtures into an empty database on start. Default `true`. */
  readonly sample?: boolean;
  /** Where warnings go. Default: JSON lines to stderr at `warn`. */
  readonly logger?: Logger;
  /** The environment to read `REACTOR_BENCHMARKS_DATA`, `REACTOR_BENCHMARKS_MAX_RESPONSE_TOKENS` and `REACTOR_BENCHMARKS_MAX_RESPONSE_CHARS` from. Default `process.env`. */
  readonly env?: NodeJS.ProcessEnv;
  /**
   * The most tokens (o200k_base) one tool answer carries, what a model reads:
   * its text, and separately its structured copy. Longer answers have long
   * texts cut (head and tail kept), then array items dropped, and say
   * `truncated: true` with what was `omitted`. Default
   * `REACTOR_BENCHMARKS_MAX_RESPONSE_TOKENS`, else 10 000; at least 1 000.
   */
  readonly maxResponseTokens?: number;
  /**
   * @deprecated Use `maxResponseTokens`; accepted until the next major
   * release. When given (or `REACTOR_BENCHMARKS_MAX_RESPONSE_CHARS` is set),
   * an answer also stays within this many characters of JSON; at least 2 000.
   */
  readonly maxResponseChars?: number;
}

/** The environment variable that sets `maxResponseTokens` when the option is not given. */
export const MAX_RESPONSE_TOKENS_ENV = 'REACTOR_BENCHMARKS_MAX_RESPONSE_TOKENS';

/** The smallest `maxResponseTokens` accepted: room for a run summary with its notes. */
export const MIN_RESPONSE_TOKENS = 1000;

/** @deprecated The environment variable of the deprecated `maxResponseChars`. */
export const MAX_RESPONSE_CHARS_ENV = 'REACTOR_BENCHMARKS_MAX_RESPONSE_CHARS';

/** The smallest (deprecated) `maxResponseChars` accepted. */
export const MIN_RESPONSE_CHARS = 2000;

// The option wins, else the environment (a discovered extension gets no options); both checked alike.
function responseBudget(options: BenchmarksOptions): AnswerBudget {
  const env = options.env ?? process.env;
  const maxTokens = readLimit({ extension: EXTENSION_NAME, option: 'maxResponseTokens', value: options.maxResponseTokens, variable: MAX_RESPONSE_TOKENS_ENV, env, default: DEFAULT_ANSWER_TOKENS, min: MIN_RESPONSE_TOKENS });
  const maxChars = readLimit({ extension: EXTENSION_NAME, option: 'maxResponseChars', value: options.maxResponseChars, variable: MAX_RESPONSE_CHARS_ENV, env, default: 0, min: MIN_RESPONSE_CHARS });
  return defaultBudget(maxTokens, maxChars === 0 ? undefined : maxChars);
}

/** The extension, plus what a test or an embedding application may want to see. */
export interface BenchmarksExtension extends McpExtension {
  /** The open store; throws `REACTOR_START_FAILED` before `onStart` (and after `onStop`). */
  store(): BenchmarkStore;
  /** Where the database is, once started. */
  location(): DatabaseLocation | undefined;
}

/**
 * Creates the benchmarks extension. Nothing is read or opened until `onStart`;
 * the data folder is resolved then (option, else `REACTOR_BENCHMARKS_DATA`,
 * else `<cache>/reactor-mcp/benchmarks`).
 */
export function createBenchmarksExtension(options: BenchmarksOptions = {}): BenchmarksExtension {
  const logger = options.logger ?? createStderrLogger('warn', { extension: EXTENSION_NAME });
  // Checked at once: a bad cap fails the extension where it is made, not on its first call.
  const budget = responseBudget(options);
  let db: Database.Database | undefined;
  let store: BenchmarkStore | undefined;
  let location: DatabaseLocation | undefined;
  // One instance may serve several hosts in a process (the default export is shared): open once, close after the last stop.
  let starts = 0;

  const open = () => {
    const chosen = prepareLocation(resolveLocation(options, options.env ?? process.env), (from, to, reason) =>
      logger.warn({ from, to }, `benchmarks data folder "${from}" cannot be created (${reason}); using "${to}" instead`),
    );
    const opened = openDatabase(chosen);
    const opening = new BenchmarkStore(opened);
    try {
      if (options.sample !== false) {
        const done = ensureSample(opened, FIXTURES_DIR, opening.isEmpty());
        if (done === 'refreshed') logger.info({ database: chosen.file }, 'the sample benchmarks database was refreshed from newer fixtures');
      }
    } catch (error) {
      opened.close();
      throw error;
    }
    db = opened;
    store = opening;
    location = chosen;
  };

  return defineExtension({
    manifest: {
      name: EXTENSION_NAME,
      version: pkg.version,
      title: 'Benchmarks',
      description: 'Read what benchmark runs did: benchmarks, tasks and grading, runs, scores, trajectories, comparisons.',
      activationEvents: [`onToolset:${BENCHMARKS_TOOLSET}`],
      host: pkg.peerDependencies['@reactor/host'],
    },
    toolsets: () => BENCHMARKS_TOOLSETS.map((t) => ({ ...t })),
    tools: () => createBenchmarkTools(() => store ?? raise(), budget),
    toolExtensions: () => [[READ_FILE_TOOL, createReadFileExtension(() => store, logger, budget)]],
    onStart() {
      if (starts === 0) open();
      starts++;
    },
    onStop() {
      if (starts === 0) return;
      starts--;
      if (starts > 0) return;
      db?.close();
      db = undefined;
      store = undefined;
    },
    store: () => store ?? raise(),
    location: () => location,
  });
}

function raise(): never {
  throw notStarted();
}

