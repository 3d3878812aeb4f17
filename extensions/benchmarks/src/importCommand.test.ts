import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openDatabase, resolveLocation } from './database.js';
import { FIXTURES_DIR } from './extension.js';
import { runImportCommand } from './importCommand.js';
import { BenchmarkStore } from './store.js';

let tmp: string;
let out: string;
let err: string;
const io = () => ({ out: (t: string) => void (out += t), err: (t: string) => void (err += t), env: {} });
beforeEach(() => {
  tmp = mkdtempSync(join(tmpdir(), 'benchmarks-cli-'));
  out = '';
  err = '';
});
afterEach(() => rmSync(tmp, { recursive: true, force: true }));

describe('reactor-benchmarks-import', () => {
  it('imports a file into the data folder and prints what it wrote', () => {
    const code = runImportCommand([join(FIXTURES_DIR, 'sample.jsonl'), '--data-dir', tmp], io());
    expect(code).toBe(0);
    expect(err).toBe('');
    expect(out).toContain(`database: ${join(tmp, 'benchmarks.db')}`);
    expect(out).toContain('2 benchmarks (2 new), 17 tasks (17 new), 8 runs (8 new), 82 results (82 new)');
    const db = openDatabase(resolveLocation({ dataDir: tmp }, {}));
    expect(new BenchmarkStore(db).listRuns().length).toBe(8);
    db.close();
  });

  it('reports nothing new when the same file is imported again', () => {
    runImportCommand([join(FIXTURES_DIR, 'sample.jsonl'), '--data-dir', tmp], io());
    out = '';
    expect(runImportCommand([join(FIXTURES_DIR, 'sample.jsonl'), `--data-dir=${tmp}`, '--database', 'other.db'], io())).toBe(0);
    expect(out).toContain('(2 new)');
    expect(existsSync(join(tmp, 'other.db'))).toBe(true);
    out = '';
    expect(runImportCommand([join(FIXTURES_DIR, 'sample.jsonl'), `--data-dir=${tmp}`, '--database', 'other.db'], io())).toBe(0);
    expect(out).toContain('2 benchmarks (0 new), 17 tasks (0 new), 8 runs (0 new), 82 results (0 new)');
  });

  it('exits 1 naming each bad line, and keeps importing the other files', () => {
    const bad = join(tmp, 'bad.jsonl');
    writeFileSync(bad, '{"type":"benchmark","id":"b"}\n{"type":"run","id":"r","benchmark":"b"}\n');
    const code = runImportCommand([bad, join(FIXTURES_DIR, 'sample.jsonl'), '--data-dir', tmp], io());
    expect(code).toBe(1);
    expect(err).toContain('bad.jsonl');
    expect(err).toContain('line 2: run "r": model');
    expect(out).toContain('imported');
  });

  it('exits 2 with the usage when no file is given or a flag is unknown, and 0 for --help', () => {
    expect(runImportCommand(['--data-dir', tmp], io())).toBe(2);
    expect(err).toContain('no file given');
    expect(runImportCommand(['x.jsonl', '--force'], io())).toBe(2);
    expect(err).toContain("Unknown option '--force'");
    expect(runImportCommand(['--help'], io())).toBe(0);
    expect(out).toContain('Usage: reactor-benchmarks-import');
  });

  it('exits 1 when the file cannot be read', () => {
    expect(runImportCommand([join(tmp, 'missing.jsonl'), '--data-dir', tmp], io())).toBe(1);
    expect(err).toMatch(/missing\.jsonl.*cannot be read/);
  });
});
