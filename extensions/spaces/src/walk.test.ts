import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTempSpaces, type TempSpaces } from '../test/tempSpaces.js';
import { resolveFolder, spaceRealDir } from './safePath.js';
import { walk } from './walk.js';

let temp: TempSpaces;
beforeAll(async () => {
  temp = await makeTempSpaces();
});
afterAll(async () => {
  await temp.cleanup();
});

describe('walk', () => {
  it('lists a folder in tree order, skipping hidden entries, broken links and links leading outside', async () => {
    const root = { relative: '', absolute: await spaceRealDir(temp.alpha) };
    const { entries, truncated } = await walk(temp.alpha, root);
    expect(truncated).toBe(false);
    expect(entries.map((e) => `${e.type === 'directory' ? 'd' : 'f'} ${e.path}`)).toEqual([
      'd %2e%2e',
      'f %2e%2e/literal.txt',
      'f blob.dat',
      'd data',
      'd data/nested',
      'f data/nested/deep.txt',
      'f data/values.csv',
      'f link-inside.csv',
      'f notes.md',
    ]);
  });

  it('visits each real folder once, so a link cycle or a second link to a folder adds nothing', async () => {
    const root = { relative: '', absolute: await spaceRealDir(temp.alpha) };
    const { entries } = await walk(temp.alpha, root);
    expect(entries.some((e) => e.path.startsWith('data/loop'))).toBe(false);
    expect(entries.some((e) => e.path.startsWith('link-dir-inside'))).toBe(false);
  });

  it('lists one level unless recursive, and can leave folders out', async () => {
    const data = await resolveFolder(temp.alpha, 'data');
    expect((await walk(temp.alpha, data, { recursive: false })).entries.map((e) => e.path)).toEqual(['data/nested', 'data/values.csv']);
    expect((await walk(temp.alpha, data, { includeDirectories: false })).entries.map((e) => e.path)).toEqual(['data/nested/deep.txt', 'data/values.csv']);
  });

  it('lists a folder reached through a link inside the space under the link\'s name', async () => {
    const linked = await resolveFolder(temp.alpha, 'link-dir-inside');
    expect((await walk(temp.alpha, linked, { recursive: false })).entries.map((e) => e.path)).toEqual(['link-dir-inside/nested', 'link-dir-inside/values.csv']);
  });

  it('stops at maxEntries and says so', async () => {
    const root = { relative: '', absolute: await spaceRealDir(temp.alpha) };
    const { entries, truncated } = await walk(temp.alpha, root, { maxEntries: 3 });
    expect(entries).toHaveLength(3);
    expect(truncated).toBe(true);
  });

  it('stops when its signal is aborted', async () => {
    const root = { relative: '', absolute: await spaceRealDir(temp.alpha) };
    await expect(walk(temp.alpha, root, { signal: AbortSignal.abort(new Error('cancelled')) })).rejects.toThrow('cancelled');
  });

  it('gives sizes and modification times', async () => {
    const data = await resolveFolder(temp.alpha, 'data');
    const values = (await walk(temp.alpha, data, { recursive: false })).entries.find((e) => e.name === 'values.csv');
    expect(values?.size).toBe(12);
    expect(Number.isNaN(Date.parse(values?.modified ?? ''))).toBe(false);
  });
});
