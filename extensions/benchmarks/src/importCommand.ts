/**
 * `reactor-benchmarks-import <file.jsonl>… [--data-dir DIR] [--database FILE]`:
 * validates and imports JSONL files into the database the extension reads.
 * Kept apart from the bin so it can be run in tests with its output captured.
 */
import { parseArgs } from 'node:util';
import { openDatabase, prepareLocation, resolveLocation, DATA_DIR_ENV } from './database.js';
import { errorMessageOf } from './errors.js';
import { importFile, ImportError, type ImportSummary } from './importer.js';

/** Where the command writes: a summary to `out`, problems to `err`. */
export interface CommandIo {
  out(text: string): void;
  err(text: string): void;
  readonly env?: NodeJS.ProcessEnv;
}

/** The command's usage text. */
export const USAGE = `Usage: reactor-benchmarks-import <file.jsonl>... [--data-dir DIR] [--database FILE]

Validates each file (every bad line is reported with its number) and imports it
in one transaction; importing a file again replaces its records, never duplicates.

  --data-dir DIR    the data folder (default: $${DATA_DIR_ENV}, else ~/.cache/reactor-mcp/benchmarks)
  --database FILE   the database file, relative to the data folder (default: benchmarks.db)
  -h, --help        this text
`;

/** Runs the command; resolves to the exit code (0 ok, 1 invalid input or import failure, 2 usage). */
export function runImportCommand(argv: readonly string[], io: CommandIo): number {
  let parsed;
  try {
    parsed = parseArgs({
      args: [...argv],
      allowPositionals: true,
      options: { 'data-dir': { type: 'string' }, database: { type: 'string' }, help: { type: 'boolean', short: 'h' } },
    });
  } catch (error) {
    io.err(`reactor-benchmarks-import: ${errorMessageOf(error)}\n\n${USAGE}`);
    return 2;
  }
  if (parsed.values.help === true) {
    io.out(USAGE);
    return 0;
  }
  if (parsed.positionals.length === 0) {
    io.err(`reactor-benchmarks-import: no file given\n\n${USAGE}`);
    return 2;
  }
  let db;
  try {
    const location = prepareLocation(resolveLocation({ dataDir: parsed.values['data-dir'], database: parsed.values.database }, io.env ?? process.env), (from, to) =>
      io.err(`reactor-benchmarks-import: cannot create "${from}"; using "${to}"\n`),
    );
    db = openDatabase(location);
    io.out(`database: ${location.file}\n`);
  } catch (error) {
    io.err(`reactor-benchmarks-import: ${errorMessageOf(error)}\n`);
    return 1;
  }
  let code = 0;
  try {
    for (const file of parsed.positionals) {
      try {
        io.out(`${describe(importFile(db, file))}\n`);
      } catch (error) {
        code = 1;
        io.err(`reactor-benchmarks-import: ${error instanceof ImportError ? error.message : errorMessageOf(error)}\n`);
      }
    }
  } finally {
    db.close();
  }
  return code;
}

function describe(s: ImportSummary): string {
  const part = (name: keyof ImportSummary['written']) => `${s.written[name]} ${name} (${s.added[name]} new)`;
  return `imported ${s.source}: ${part('benchmarks')}, ${part('tasks')}, ${part('runs')}, ${part('results')}`;
}
