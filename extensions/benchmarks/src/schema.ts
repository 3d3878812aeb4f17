/**
 * The SQLite schema: benchmarks, their tasks (with how each is graded), runs,
 * and one row per (run, task) with the score and the trajectory. Versioned
 * with `PRAGMA user_version` so a newer database is refused, not misread.
 */
import type Database from 'libsql';
import { ErrorCodes, ReactorError } from '@reactor/host';

/** The schema version this code reads and writes. */
export const SCHEMA_VERSION = 1;

const DDL = `
CREATE TABLE IF NOT EXISTS benchmarks (
  id          TEXT PRIMARY KEY,
  title       TEXT,
  description TEXT,
  version     TEXT
);
CREATE TABLE IF NOT EXISTS tasks (
  benchmark_id   TEXT NOT NULL REFERENCES benchmarks(id) ON DELETE CASCADE,
  id             TEXT NOT NULL,
  title          TEXT,
  prompt         TEXT NOT NULL,
  grading_method TEXT NOT NULL,
  grading        TEXT NOT NULL,            -- JSON: expected, rubric, tests, passThreshold
  weight         REAL NOT NULL DEFAULT 1,
  tags           TEXT NOT NULL DEFAULT '[]',
  position       INTEGER NOT NULL,         -- the order tasks were first imported in
  PRIMARY KEY (benchmark_id, id)
);
CREATE TABLE IF NOT EXISTS runs (
  id           TEXT PRIMARY KEY,
  benchmark_id TEXT NOT NULL REFERENCES benchmarks(id) ON DELETE CASCADE,
  model        TEXT NOT NULL,
  config       TEXT NOT NULL DEFAULT '{}', -- JSON object
  started_at   TEXT NOT NULL,              -- ISO 8601
  finished_at  TEXT,
  notes        TEXT
);
CREATE INDEX IF NOT EXISTS runs_by_benchmark ON runs (benchmark_id, started_at);
CREATE INDEX IF NOT EXISTS runs_by_model ON runs (model);
CREATE TABLE IF NOT EXISTS task_results (
  run_id      TEXT NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
  task_id     TEXT NOT NULL,
  score       REAL NOT NULL,
  passed      INTEGER NOT NULL,            -- 0 or 1
  output      TEXT,
  feedback    TEXT,
  duration_ms INTEGER,
  steps       TEXT NOT NULL DEFAULT '[]',  -- JSON array of trajectory steps
  PRIMARY KEY (run_id, task_id)
);
CREATE INDEX IF NOT EXISTS task_results_by_task ON task_results (task_id);
`;

/**
 * Creates the tables on a new database and checks the version of an existing
 * one. Throws `REACTOR_OPTION_INVALID` for a database written by a newer version.
 */
export function migrate(db: Database.Database, location: string): void {
  db.exec('PRAGMA foreign_keys = ON');
  const row = db.prepare('PRAGMA user_version').get() as { user_version?: number } | undefined;
  const version = row?.user_version ?? 0;
  if (version > SCHEMA_VERSION) {
    throw new ReactorError(ErrorCodes.OPTION_INVALID, {
      subject: `benchmarks database "${location}"`,
      problem: 'was written by a newer version of @reactor/ext-benchmarks',
      expected: `schema version ${SCHEMA_VERSION} or lower`,
      received: `schema version ${version}`,
      hint: 'upgrade @reactor/ext-benchmarks, or point dataDir at another folder',
      extension: 'benchmarks',
    });
  }
  if (version < SCHEMA_VERSION) {
    db.exec(DDL);
    db.exec(`PRAGMA user_version = ${SCHEMA_VERSION}`);
  }
}
