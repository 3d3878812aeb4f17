import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTempSpaces, type TempSpaces } from '../test/tempSpaces.js';
import { isInside, normalizeSpacePath, resolveFile, resolveFolder, resolveInSpace } from './safePath.js';

let temp: TempSpaces;
beforeAll(async () => {
  temp = await makeTempSpaces();
});
afterAll(async () => {
  await temp.cleanup();
});

describe('normalizeSpacePath: lexical checks, before the disk is touched', () => {
  it.each([
    ['data/values.csv', 'data/values.csv'],
    ['./data//values.csv', 'data/values.csv'],
    ['data/nested/../values.csv', 'data/values.csv'],
    ['data\\values.csv', 'data/values.csv'],
    ['', ''],
    ['.', ''],
    ['data/', 'data'],
  ])('normalises %j to %j', (input, expected) => {
    expect(normalizeSpacePath('alpha', input)).toBe(expected);
  });

  it.each([
    ['..', /escapes the space/],
    ['../beta/analysis.ipynb', /escapes the space/],
    ['../..', /escapes the space/],
    ['../../outside/secret.txt', /escapes the space/],
    ['data/../../beta', /escapes the space/],
    ['data/nested/../../..', /escapes the space/],
    ['..\\..\\outside', /escapes the space/],
    ['/etc/passwd', /escapes the space: it is absolute/],
    ['//server/share', /escapes the space: it is absolute/],
    ['\\\\server\\share', /escapes the space: it is absolute/],
    ['C:/Windows', /escapes the space: it is absolute/],
    ['C:\\Windows', /escapes the space: it is absolute/],
    ['data/values.csv\0.png', /NUL byte/],
    ['.env', /is hidden/],
    ['.cache/x.txt', /is hidden/],
    ['data/.git/config', /is hidden/],
  ])('refuses %j', (input, message) => {
    expect(() => normalizeSpacePath('alpha', input)).toThrow(message);
  });

  it('names the space and the path in the refusal, with a hint', () => {
    expect(() => normalizeSpacePath('alpha', '../x')).toThrow('path "../x" in space "alpha": path escapes the space');
    expect(() => normalizeSpacePath('alpha', '../x')).toThrow(/hint: give a path relative to the space/);
  });

  it('treats percent-encoding literally: "%2e%2e" is a name, not ".."', () => {
    expect(normalizeSpacePath('alpha', '%2e%2e/literal.txt')).toBe('%2e%2e/literal.txt');
    expect(normalizeSpacePath('alpha', '%2e%2e%2f%2e%2e%2fetc')).toBe('%2e%2e%2f%2e%2e%2fetc');
  });
});

describe('resolveInSpace: checks on disk', () => {
  it('resolves a file inside the space to its real path', async () => {
    const resolved = await resolveInSpace(temp.alpha, 'data/values.csv');
    expect(resolved.relative).toBe('data/values.csv');
    expect(resolved.stats.isFile()).toBe(true);
    expect(resolved.absolute.endsWith('/alpha/data/values.csv')).toBe(true);
  });

  it('allows a symbolic link whose target stays inside the space', async () => {
    const file = await resolveFile(temp.alpha, 'link-inside.csv');
    expect(file.relative).toBe('link-inside.csv');
    expect(file.absolute.endsWith('/alpha/data/values.csv')).toBe(true);
    const folder = await resolveFolder(temp.alpha, 'link-dir-inside/nested');
    expect(folder.absolute.endsWith('/alpha/data/nested')).toBe(true);
  });

  it.each([
    ['link-outside.txt'],
    ['relative-link-outside.txt'],
    ['link-dir-outside'],
    ['link-dir-outside/secret.txt'],
  ])('refuses %j: a symbolic link that leads outside the space', async (input) => {
    await expect(resolveInSpace(temp.alpha, input)).rejects.toThrow(/path escapes the space: a symbolic link points outside it/);
  });

  it('follows a link back to the space itself without escaping', async () => {
    const resolved = await resolveInSpace(temp.alpha, 'data/loop/notes.md');
    expect(resolved.absolute.endsWith('/alpha/notes.md')).toBe(true);
  });

  it('says "not found" for a missing path, a broken link, and an encoded ".." (which is just a name)', async () => {
    await expect(resolveInSpace(temp.alpha, 'nope.txt')).rejects.toThrow(/"nope.txt" in space "alpha": not found/);
    await expect(resolveInSpace(temp.alpha, 'broken-link.txt')).rejects.toThrow(/not found/);
    await expect(resolveInSpace(temp.alpha, '%2e%2e%2f%2e%2e%2foutside')).rejects.toThrow(/not found/);
    await expect(resolveInSpace(temp.alpha, 'notes.md/child')).rejects.toThrow(/not found/);
  });

  it('resolves a folder literally named "%2e%2e" inside the space', async () => {
    const file = await resolveFile(temp.alpha, '%2e%2e/literal.txt');
    expect(file.absolute.endsWith('/alpha/%2e%2e/literal.txt')).toBe(true);
  });

  it('tells a file from a folder', async () => {
    await expect(resolveFile(temp.alpha, 'data')).rejects.toThrow(/is a folder, not a file/);
    await expect(resolveFolder(temp.alpha, 'notes.md')).rejects.toThrow(/is a file, not a folder/);
    expect((await resolveFolder(temp.alpha, '')).relative).toBe('');
  });
});

describe('isInside', () => {
  it('accepts the folder itself and paths below it, nothing else', () => {
    expect(isInside('/a/b', '/a/b')).toBe(true);
    expect(isInside('/a/b', '/a/b/c/d')).toBe(true);
    expect(isInside('/a/b', '/a/b/..c')).toBe(true);
    expect(isInside('/a/b', '/a/bc')).toBe(false);
    expect(isInside('/a/b', '/a')).toBe(false);
    expect(isInside('/a/b', '/x/y')).toBe(false);
  });
});
