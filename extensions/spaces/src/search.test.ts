import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTempSpaces, type TempSpaces } from '../test/tempSpaces.js';
import { DEFAULT_LIMITS } from './runtime.js';
import { findNotebooks, SEARCH_PROGRESS_EVERY, searchText, snippetAround } from './search.js';
import { SAMPLE_ROOT, type Space } from './spaceRoots.js';

const climate: Space = { name: 'climate-lab', dir: `${SAMPLE_ROOT}/climate-lab` };
const benchmarks: Space = { name: 'benchmark-notes', dir: `${SAMPLE_ROOT}/benchmark-notes` };
const limits = DEFAULT_LIMITS;

let temp: TempSpaces;
beforeAll(async () => {
  temp = await makeTempSpaces();
});
afterAll(async () => {
  await temp.cleanup();
});

describe('searchText', () => {
  it('finds a phrase in text files with file, line and column, ignoring case', async () => {
    const result = await searchText(climate, 'BUCKET MEASUREMENTS', { maxResults: 10, limits });
    expect(result.matches).toEqual([{ path: 'notes/methods.md', line: 7, column: 1, text: 'bucket measurements to engine-intake readings during the war years.' }]);
    expect(result.truncated).toBe(false);
  });

  it('searches notebooks cell by cell, naming the cell and whether the hit is in an output', async () => {
    const result = await searchText(climate, 'ConvergenceWarning', { glob: '*.ipynb', maxResults: 10, limits });
    expect(result.matches.map((m) => [m.path, m.cell, m.inOutput ?? false])).toEqual([
      ['iris_classifier.ipynb', 4, true],
      ['iris_classifier.ipynb', 8, false],
    ]);
  });

  it('never searches binary files or the raw base64 of notebook images', async () => {
    const result = await searchText(climate, 'iVBORw0KGgo', { maxResults: 10, limits });
    expect(result.matches).toEqual([]);
    expect(result.filesSearched).toBe(8);
  });

  it('narrows by glob or extension', async () => {
    const csv = await searchText(climate, '1993', { glob: 'csv', maxResults: 50, limits });
    expect(new Set(csv.matches.map((m) => m.path))).toEqual(new Set(['data/global_temperatures.csv', 'data/sea_level.csv']));
    const md = await searchText(climate, 'sea level', { glob: '*.md', maxResults: 50, limits });
    expect(md.matches.every((m) => m.path.endsWith('.md'))).toBe(true);
  });

  it('stops at maxResults and says it was truncated', async () => {
    const result = await searchText(climate, 'setosa', { maxResults: 3, limits });
    expect(result.matches).toHaveLength(3);
    expect(result.truncated).toBe(true);
  });

  it('can match case exactly, and treats the query literally', async () => {
    expect((await searchText(temp.alpha, 'needle', { maxResults: 10, limits, caseSensitive: true })).matches).toEqual([]);
    expect((await searchText(temp.alpha, 'Needle', { maxResults: 10, limits, caseSensitive: true })).matches).toEqual([{ path: 'data/nested/deep.txt', line: 1, column: 18, text: 'deep text with a Needle inside' }]);
    expect((await searchText(temp.alpha, 'x,y', { maxResults: 10, limits })).matches.map((m) => m.path)).toEqual(['data/values.csv', 'link-inside.csv']);
    expect((await searchText(temp.alpha, '.*', { maxResults: 10, limits })).matches).toEqual([]);
  });

  it('never finds what lies in hidden files or behind links leading outside', async () => {
    expect((await searchText(temp.alpha, 'should-never-be-served', { maxResults: 10, limits })).matches).toEqual([]);
    expect((await searchText(temp.alpha, 'TOP SECRET', { maxResults: 10, limits })).matches).toEqual([]);
    expect((await searchText(temp.alpha, 'hidden folder', { maxResults: 10, limits })).matches).toEqual([]);
  });

  it('skips files over the size limit and counts them', async () => {
    const result = await searchText(climate, 'setosa', { maxResults: 50, limits: { ...limits, maxFileBytes: 1000 } });
    expect(result.matches.map((m) => m.path)).toEqual(['data/iris.csv', 'data/iris.csv', 'data/iris.csv', 'data/iris.csv', 'data/iris.csv', 'data/iris.csv', 'data/iris.csv', 'data/iris.csv', 'data/iris.csv', 'data/iris.csv']);
    expect(result.filesSkipped).toBeGreaterThan(0);
  });

  it('reports how far it got every SEARCH_PROGRESS_EVERY files, so a long search run as a task shows progress', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'reactor-search-progress-'));
    try {
      const files = SEARCH_PROGRESS_EVERY * 2 + 7;
      mkdirSync(join(dir, 'many'));
      for (let i = 0; i < files; i++) writeFileSync(join(dir, 'many', `f${i}.txt`), i === files - 1 ? 'the needle\n' : 'hay\n');
      const reports: Array<[number, number]> = [];
      const result = await searchText({ name: 'many', dir }, 'needle', { maxResults: 10, limits, onProgress: (visited, total) => reports.push([visited, total]) });
      expect(result.matches).toHaveLength(1);
      expect(reports).toEqual([[SEARCH_PROGRESS_EVERY, files], [SEARCH_PROGRESS_EVERY * 2, files]]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('findNotebooks', () => {
  it('finds the one notebook that reads global_temperatures.csv', async () => {
    const result = await findNotebooks([climate, benchmarks], 'global_temperatures.csv', { maxResults: 10, limits });
    expect(result.notebooks.map((n) => `${n.space}/${n.path}`)).toEqual(['climate-lab/temperature_trends.ipynb']);
    const [hit] = result.notebooks;
    expect(hit?.title).toBe('Global temperature trends');
    expect(hit?.matchedIn).toEqual(['source']);
    expect(hit?.snippets[0]).toEqual({ cell: 0, where: 'source', text: expect.stringContaining('data/global_temperatures.csv') });
  });

  it('requires every word, from the name or any cell, and ranks name matches first', async () => {
    const both = await findNotebooks([climate, benchmarks], 'sea level', { maxResults: 10, limits });
    expect(both.notebooks.map((n) => n.path)).toContain('sea_level_exploration.ipynb');
    const named = await findNotebooks([climate, benchmarks], 'iris', { maxResults: 10, limits });
    expect(named.notebooks[0]?.path).toBe('iris_classifier.ipynb');
    expect(named.notebooks[0]?.matchedIn).toContain('name');
    expect((await findNotebooks([climate, benchmarks], 'iris zebra', { maxResults: 10, limits })).notebooks).toEqual([]);
  });

  it('matches cell outputs too', async () => {
    const result = await findNotebooks([benchmarks], "KeyError", { maxResults: 10, limits });
    expect(result.notebooks).toHaveLength(1);
    expect(result.notebooks[0]?.matchedIn).toEqual(['source', 'output']);
  });

  it('lists every notebook for an empty query, and truncates at maxResults', async () => {
    const all = await findNotebooks([climate, benchmarks], '', { maxResults: 10, limits });
    expect(all.notebooks.map((n) => n.path).sort()).toEqual(['gsm8k-mini-runs.ipynb', 'iris_classifier.ipynb', 'sea_level_exploration.ipynb', 'temperature_trends.ipynb']);
    const two = await findNotebooks([climate, benchmarks], '', { maxResults: 2, limits });
    expect(two.notebooks).toHaveLength(2);
    expect(two.truncated).toBe(true);
  });
});

describe('snippetAround', () => {
  it('shortens a long line around the match', () => {
    const line = `${'a'.repeat(300)}NEEDLE${'b'.repeat(300)}`;
    const snippet = snippetAround(line, 300, 6, 40);
    expect(snippet).toMatch(/^…a+NEEDLEb+…$/);
    expect(snippet.length).toBe(42);
  });
});
