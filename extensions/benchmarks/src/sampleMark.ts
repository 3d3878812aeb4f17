/**
 * The mark of a database the package filled from its fixtures: the fixtures'
 * content hash, kept in `sample_fixtures`. The sample refresh (sample.ts)
 * reads and sets it; every other import (importer.ts) removes it.
 */
import type Database from 'libsql';

const MARK_TABLE = 'CREATE TABLE IF NOT EXISTS sample_fixtures (hash TEXT NOT NULL)';

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

/** Marks the database as filled from the fixtures with this hash (`''`: being filled). */
export function setSampleMark(db: Database.Database, hash: string): void {
  db.exec('DELETE FROM sample_fixtures');
  db.prepare('INSERT INTO sample_fixtures (hash) VALUES (?)').run(hash);
}
