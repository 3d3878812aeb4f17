/**
 * The sample database: filled from the package's `fixtures/*.jsonl` when the
 * database is empty, and refreshed when the fixtures changed since — but only
 * a database the package itself filled. The fixtures' content hash is stored
 * in it (`sample_fixtures`, see sampleMark.ts); any other import removes that
 * mark, so a database someone imported their own runs into is never touched
 * again.
 */
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type Database from 'libsql';
import { importJsonl } from './importer.js';
import { sampleHash, setSampleMark } from './sampleMark.js';

// Where the sample's own tests (and readers) have always found it.
export { sampleHash } from './sampleMark.js';

/** The fixtures, in name order, and one hash of their names and contents. */
export function readFixtures(dir: string): { files: Array<{ name: string; text: string }>; hash: string } {
  const files = readdirSync(dir).filter((f) => f.endsWith('.jsonl')).sort().map((name) => ({ name, text: readFileSync(join(dir, name), 'utf8') }));
  const digest = createHash('sha256');
  for (const file of files) digest.update(`${file.name}\u0000${file.text}\u0000`);
  return { files, hash: digest.digest('hex') };
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
  setSampleMark(db, '');
  // Foreign keys cascade: benchmarks take their tasks, runs and results with them.
  if (!isEmpty) db.exec('DELETE FROM benchmarks');
  for (const file of fixtures.files) importJsonl(db, file.text, { source: file.name, sample: true });
  setSampleMark(db, fixtures.hash);
  return isEmpty ? 'seeded' : 'refreshed';
}
