/**
 * `@reactor/ext-benchmarks`: read what benchmark runs did. The default export
 * is the extension with default options, as `reactorMcp` in package.json
 * names it; `createBenchmarksExtension(options)` makes one with others.
 */
import { createBenchmarksExtension } from './extension.js';

export { createBenchmarksExtension, EXTENSION_NAME, BENCHMARKS_TOOLSETS, FIXTURES_DIR, MAX_RESPONSE_CHARS_ENV, MIN_RESPONSE_CHARS, MAX_RESPONSE_TOKENS_ENV, MIN_RESPONSE_TOKENS } from './extension.js';
export type { BenchmarksExtension, BenchmarksOptions } from './extension.js';
export { DATA_DIR_ENV, DEFAULT_DATABASE_FILE, defaultDataDir, fallbackDataDir, resolveLocation, prepareLocation, openDatabase } from './database.js';
export type { DatabaseLocation, DatabaseOptions } from './database.js';
export { SCHEMA_VERSION, migrate } from './schema.js';
export { importJsonl, importFile, parseJsonl, ImportError } from './importer.js';
export { runImportCommand, USAGE as IMPORT_USAGE } from './importCommand.js';
export type { CommandIo } from './importCommand.js';
export type { ImportIssue, ImportSummary, RecordCounts } from './importer.js';
export {
  importRecordSchema,
  benchmarkRecordSchema,
  taskRecordSchema,
  runRecordSchema,
  resultRecordSchema,
  gradingSchema,
  stepSchema,
} from './records.js';
export type { ImportRecord, BenchmarkRecord, TaskRecord, RunRecord, ResultRecord, Grading, Step } from './records.js';
export { BenchmarkStore } from './store.js';
export type { BenchmarkSummary, BenchmarkDetail, TaskInfo, RunSummary, RunDetail, TaskOutcome, Trajectory, RunFilter } from './store.js';
export { compareRuns, bestRun } from './compare.js';
export type { RunComparison, BestRun, BestRunSteps, TaskDelta, TaskChange, SettingDifference, Behaviour } from './compare.js';
export { createBenchmarkTools, BENCHMARKS_TOOLSET, BENCHMARK_TOOL_NAMES } from './tools.js';
export { boundAnswer, cutMiddle, DEFAULT_MAX_RESPONSE_CHARS, STRING_FLOOR } from './deprecated.js';
export type { Truncation } from '@reactor/host';
export {
  createReadFileExtension,
  annotateResult,
  annotationFor,
  runIdsIn,
  readFileOutputSchema,
  READ_FILE_TOOL,
  READ_FILE_NOTE,
  readFileDescription,
  READ_FILE_EXTENSION_ORDER,
} from './readFileExtension.js';
export type { BenchmarkAnnotation } from './readFileExtension.js';

/** The extension with default options: what the host imports when a URL asks for `benchmarks`. */
const benchmarks = createBenchmarksExtension();
export default benchmarks;
