/**
 * The sample database: filled from the package's `fixtures/*.jsonl` when the
 * database is empty, and refreshed when the fixtures changed since — but only
 * a database the package itself filled. The fixtures' content hash is stored
 * in it (`sample_fixtures`); any other import removes that mark, so a database
 * someone imported their own runs into is never touched again.
 */
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type Database from 'libsql';
import { importJsonl } from './importer.js';

const MARK_TABLE = 'CREATE TABLE IF NOT EXISTS sample_fixtures (hash TEXT NOT NULL)';

/** The fixtures, in name order, and one hash of their names and contents. */
export function readFixtures(dir: string): { files: Array<{ name: string; text: string }>; hash: string } {
  const files = readdirSync(dir).filter((f) => f.endsWith('.jsonl')).sort().map((name) => ({ name, text: readFileSync(join(dir, name), 'utf8') }));
  const digest = createHash('sha256');
  for (const file of files) digest.update(`${file.name}\u0000${file.text}\u0000`);
  return { files, hash: digest.digest('hex') };
}

/** The fixtures hash a package-filled database carries; undefined for any other database. */
export function sampleHash(db: Database.Database): string | undefined {
  db.exec(MARK_TABLE);
  return (db.prepare('SELECT hash FROM sample_fixtures LIMIT 1').get() as { hash?: string } | undefined)?.hash;
}

/** Called by every import that is not the sample's: the database is now someone's own. */
export function forgetSampleMark(db: Database.Database): void {
  db.exec(MARK_TABLE);
  db.exec('DELETE FROM sample_fixtures');
}

/**
 * Fills an empty database from the fixtures, or re-fills a package-filled one
 * whose fixtures hash differs. Returns what it did.
 */
export function ensureSample(db: Database.Database, fixturesDir: string, isEmpty: boolean): 'seeded' | 'refreshed' | 'unchanged' | 'not a sample database' {
  const current = sampleHash(db);
  if (!isEmpty && current === undefined) return 'not a sample database';
  const fixtures = readFixtures(fixturesDir);
  if (!isEmpty && current === fixtures.hash) return 'unchanged';
  // libsql has no nested transactions and each import is one: mark the database as a
  // sample being (re)filled first, so a crash half-way is refilled on the next start.
  setMark(db, '');
  // Foreign keys cascade: benchmarks take their tasks, runs and results with them.
  if (!isEmpty) db.exec('DELETE FROM benchmarks');
  for (const file of fixtures.files) importJsonl(db, file.text, { source: file.name, sample: true });
  setMark(db, fixtures.hash);
  return isEmpty ? 'seeded' : 'refreshed';
}

function setMark(db: Database.Database, hash: string): void {
  db.exec('DELETE FROM sample_fixtures');
  db.prepare('INSERT INTO sample_fixtures (hash) VALUES (?)').run(hash);
}
