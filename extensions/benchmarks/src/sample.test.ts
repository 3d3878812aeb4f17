import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openDatabase } from './database.js';
import { importJsonl } from './importer.js';
import { ensureSample, sampleHash } from './sample.js';

const SAMPLE = readFileSync(new URL('../fixtures/sample.jsonl', import.meta.url), 'utf8');
/** The lines of one run (its record and its results). */
const isRun = (id: string) => (line: string) => line.includes(`"type":"run","id":"${id}"`) || line.includes(`"run":"${id}"`);
const lines = SAMPLE.split('\n').filter((l) => l.trim() !== '');
const withoutRun = (id: string) => `${lines.filter((l) => !isRun(id)(l)).join('\n')}\n`;
const onlyRun = (id: string) => `${lines.filter(isRun(id)).join('\n')}\n`;

let tmp: string;
beforeEach(() => {
  tmp = mkdtempSync(join(tmpdir(), 'reactor-sample-'));
});
afterEach(() => rmSync(tmp, { recursive: true, force: true }));

function fixtures(text: string): string {
  const dir = join(tmp, `fixtures-${Math.random().toString(36).slice(2)}`);
  mkdirSync(dir);
  writeFileSync(join(dir, 'sample.jsonl'), text);
  return dir;
}
const runIds = (db: ReturnType<typeof openDatabase>) => (db.prepare('SELECT id FROM runs ORDER BY id').all() as Array<{ id: string }>).map((r) => r.id);

describe('the sample database', () => {
  it('is filled when empty, left alone while the fixtures are unchanged, and refreshed when they change', () => {
    const db = openDatabase({ dataDir: tmp, file: join(tmp, 'b.db'), isDefault: false });
    const older = fixtures(withoutRun('run-0143'));
    expect(ensureSample(db, older, true)).toBe('seeded');
    expect(runIds(db)).not.toContain('run-0143');
    expect(ensureSample(db, older, false)).toBe('unchanged');
    const newer = fixtures(SAMPLE);
    expect(ensureSample(db, newer, false)).toBe('refreshed');
    expect(runIds(db)).toContain('run-0143');
    expect(runIds(db)).toHaveLength(8);
    expect(sampleHash(db)).toMatch(/^[0-9a-f]{64}$/);
    db.close();
  });

  it('never touches a database someone imported into, even a sample one', () => {
    const db = openDatabase({ dataDir: tmp, file: join(tmp, 'b.db'), isDefault: false });
    expect(ensureSample(db, fixtures(withoutRun('run-0143')), true)).toBe('seeded');
    importJsonl(db, onlyRun('run-0143'), { source: 'mine.jsonl' });
    expect(sampleHash(db)).toBeUndefined();
    db.prepare("UPDATE runs SET notes = 'my note' WHERE id = 'run-0143'").run();
    expect(ensureSample(db, fixtures(SAMPLE.replace('GSM8K mini', 'GSM8K mini (v2)')), false)).toBe('not a sample database');
    expect(db.prepare("SELECT notes FROM runs WHERE id = 'run-0143'").get()).toMatchObject({ notes: 'my note' });
    db.close();
  });
});
