/**
 * Where the benchmarks database lives and how it is opened. The data folder
 * comes from the option, else `REACTOR_BENCHMARKS_DATA`, else a per-user cache
 * folder (`$XDG_CACHE_HOME` or `~/.cache`, then `reactor-mcp/benchmarks`); when
 * that default cannot be created (a read-only or missing home on a fresh
 * container), the OS temporary folder is used instead, since the default only
 * ever holds the re-creatable sample.
 */
import { mkdirSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { dirname, isAbsolute, join, resolve } from 'node:path';
import Database from 'libsql';
import { ErrorCodes, errorMessageOf, ReactorError } from './errors.js';
import { migrate } from './schema.js';

/** The environment variable naming the data folder. */
export const DATA_DIR_ENV = 'REACTOR_BENCHMARKS_DATA';
/** The database file name inside the data folder, unless `database` says otherwise. */
export const DEFAULT_DATABASE_FILE = 'benchmarks.db';

/** Where to find (or create) the database. */
export interface DatabaseOptions {
  /** The data folder. Default: `$REACTOR_BENCHMARKS_DATA`, else `<cache>/reactor-mcp/benchmarks`. */
  readonly dataDir?: string;
  /** The database file: absolute, relative to the data folder, or `:memory:`. Default `benchmarks.db`. */
  readonly database?: string;
}

/** A resolved location. */
export interface DatabaseLocation {
  /** The data folder. */
  readonly dataDir: string;
  /** The database file path, or `:memory:`. */
  readonly file: string;
  /** True when the folder came from neither the option nor the environment (so it may fall back). */
  readonly isDefault: boolean;
}

/** The per-user default data folder (before any fallback). */
export function defaultDataDir(env: NodeJS.ProcessEnv = process.env): string {
  const cache = env.XDG_CACHE_HOME !== undefined && env.XDG_CACHE_HOME !== '' ? env.XDG_CACHE_HOME : join(homedir(), '.cache');
  return join(cache, 'reactor-mcp', 'benchmarks');
}

/** The folder used when the default cannot be created. */
export function fallbackDataDir(): string {
  return join(tmpdir(), 'reactor-mcp', 'benchmarks');
}

/** Resolves the data folder and database file from options and the environment. */
export function resolveLocation(options: DatabaseOptions = {}, env: NodeJS.ProcessEnv = process.env): DatabaseLocation {
  const fromEnv = env[DATA_DIR_ENV];
  const chosen = options.dataDir ?? (fromEnv !== undefined && fromEnv !== '' ? fromEnv : undefined);
  const dataDir = resolve(chosen ?? defaultDataDir(env));
  const database = options.database ?? DEFAULT_DATABASE_FILE;
  const file = database === ':memory:' ? database : isAbsolute(database) ? database : join(dataDir, database);
  return { dataDir, file, isDefault: chosen === undefined };
}

/**
 * Creates the folder of a location; a default location that cannot be created
 * falls back to the temporary folder. Returns the location actually used.
 */
export function prepareLocation(location: DatabaseLocation, onFallback?: (from: string, to: string, reason: string) => void): DatabaseLocation {
  if (location.file === ':memory:') return location;
  try {
    mkdirSync(dirname(location.file), { recursive: true });
    return location;
  } catch (error) {
    if (!location.isDefault) {
      throw new ReactorError(ErrorCodes.OPTION_INVALID, {
        subject: `benchmarks data folder "${location.dataDir}"`,
        problem: `cannot be created (${errorMessageOf(error)})`,
        expected: 'a writable folder',
        hint: `pass another dataDir, or set ${DATA_DIR_ENV}`,
        extension: 'benchmarks',
      });
    }
    const dataDir = fallbackDataDir();
    const fallback = { dataDir, file: join(dataDir, DEFAULT_DATABASE_FILE), isDefault: true };
    mkdirSync(dataDir, { recursive: true });
    onFallback?.(location.dataDir, dataDir, errorMessageOf(error));
    return fallback;
  }
}

/** Opens (creating if needed) the database at a prepared location, with its schema in place. */
export function openDatabase(location: DatabaseLocation): Database.Database {
  let db: Database.Database;
  try {
    db = new Database(location.file, { timeout: 5000 });
  } catch (error) {
    throw cannotOpen(location, error);
  }
  try {
    // WAL lets the import command write while a server reads.
    if (location.file !== ':memory:') db.exec('PRAGMA journal_mode = WAL');
    migrate(db, location.file);
    return db;
  } catch (error) {
    db.close();
    // SQLite only reads the file on the first statement: "file is not a database" arrives here.
    throw error instanceof ReactorError ? error : cannotOpen(location, error);
  }
}

function cannotOpen(location: DatabaseLocation, error: unknown): ReactorError {
  return new ReactorError(ErrorCodes.OPTION_INVALID, {
    subject: `benchmarks database "${location.file}"`,
    problem: `cannot be opened (${errorMessageOf(error)})`,
    expected: 'a SQLite database file, or a path where one can be created',
    hint: `check the file and its permissions, or pass another dataDir (or set ${DATA_DIR_ENV})`,
    extension: 'benchmarks',
  });
}
