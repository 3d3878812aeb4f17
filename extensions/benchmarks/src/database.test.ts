import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'libsql';
import { afterEach, beforeEach, describe, expect, it, onTestFinished } from 'vitest';
import { DATA_DIR_ENV, fallbackDataDir, openDatabase, prepareLocation, resolveLocation } from './database.js';
import { SCHEMA_VERSION } from './schema.js';

let tmp: string;
beforeEach(() => {
  tmp = mkdtempSync(join(tmpdir(), 'benchmarks-db-'));
});
afterEach(() => rmSync(tmp, { recursive: true, force: true }));

describe('where the database lives', () => {
  it('prefers the option, then REACTOR_BENCHMARKS_DATA, then the per-user cache folder', () => {
    const env = { [DATA_DIR_ENV]: join(tmp, 'from-env'), XDG_CACHE_HOME: join(tmp, 'cache') };
    expect(resolveLocation({ dataDir: join(tmp, 'opt') }, env)).toEqual({ dataDir: join(tmp, 'opt'), file: join(tmp, 'opt', 'benchmarks.db'), isDefault: false });
    expect(resolveLocation({}, env).dataDir).toBe(join(tmp, 'from-env'));
    expect(resolveLocation({}, { XDG_CACHE_HOME: join(tmp, 'cache') })).toEqual({
      dataDir: join(tmp, 'cache', 'reactor-mcp', 'benchmarks'),
      file: join(tmp, 'cache', 'reactor-mcp', 'benchmarks', 'benchmarks.db'),
      isDefault: true,
    });
  });

  it('reads the database file relative to the data folder unless it is absolute or :memory:', () => {
    expect(resolveLocation({ dataDir: tmp, database: 'evals.sqlite' }, {}).file).toBe(join(tmp, 'evals.sqlite'));
    expect(resolveLocation({ dataDir: tmp, database: '/srv/b.db' }, {}).file).toBe('/srv/b.db');
    expect(resolveLocation({ database: ':memory:' }, {}).file).toBe(':memory:');
  });

  it('creates the data folder, and falls back to the temporary folder only for the default one', () => {
    // os.tmpdir() reads TMPDIR on each call: the fallback then lands inside this test's folder.
    const savedTmp = process.env.TMPDIR;
    process.env.TMPDIR = join(tmp, 'os-tmp');
    onTestFinished(() => {
      if (savedTmp === undefined) delete process.env.TMPDIR;
      else process.env.TMPDIR = savedTmp;
    });
    expect(fallbackDataDir()).toBe(join(tmp, 'os-tmp', 'reactor-mcp', 'benchmarks'));
    const blocker = join(tmp, 'a-file');
    writeFileSync(blocker, '');
    const nested = { dataDir: join(blocker, 'sub'), file: join(blocker, 'sub', 'benchmarks.db') };
    const moves: string[] = [];
    const used = prepareLocation({ ...nested, isDefault: true }, (from, to) => moves.push(`${from} -> ${to}`));
    expect(used.dataDir).toBe(fallbackDataDir());
    expect(moves).toEqual([`${nested.dataDir} -> ${fallbackDataDir()}`]);
    expect(() => prepareLocation({ ...nested, isDefault: false })).toThrow(/cannot be created/);
    const fresh = prepareLocation({ dataDir: join(tmp, 'new', 'dir'), file: join(tmp, 'new', 'dir', 'benchmarks.db'), isDefault: false });
    expect(existsSync(fresh.dataDir)).toBe(true);
  });
});

describe('opening', () => {
  it('creates the schema on a new file and opens it again as is', () => {
    const location = { dataDir: tmp, file: join(tmp, 'b.db'), isDefault: false };
    const db = openDatabase(location);
    expect((db.prepare('PRAGMA user_version').get() as { user_version: number }).user_version).toBe(SCHEMA_VERSION);
    db.prepare("INSERT INTO benchmarks (id) VALUES ('kept')").run();
    db.close();
    const again = openDatabase(location);
    expect(again.prepare('SELECT id FROM benchmarks').all()).toEqual([{ id: 'kept' }]);
    again.close();
  });

  it('refuses a database written by a newer version', () => {
    const file = join(tmp, 'newer.db');
    const db = new Database(file);
    db.exec(`PRAGMA user_version = ${SCHEMA_VERSION + 1}`);
    db.close();
    expect(() => openDatabase({ dataDir: tmp, file, isDefault: false })).toThrow(/written by a newer version/);
  });

  it('says which file cannot be opened, and why', () => {
    const file = join(tmp, 'not-a-db.db');
    writeFileSync(file, 'this is a text file, not SQLite: long enough that SQLite reads a whole header from it.');
    expect(() => openDatabase({ dataDir: tmp, file, isDefault: false })).toThrow(/"[^"]*not-a-db\.db": cannot be opened \(file is not a database\)/);
  });
});
