import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTempSpaces, type TempSpaces } from '../test/tempSpaces.js';
import { checkRoots, findSpace, listSpaces, parseRootSpec, resolveRoots, SAMPLE_ROOT, scanSpaces, SPACES_ROOT_ENV } from './spaceRoots.js';

let temp: TempSpaces;
beforeAll(async () => {
  temp = await makeTempSpaces();
  await fs.mkdir(path.join(temp.root, '.hidden-space'));
  await fs.writeFile(path.join(temp.root, 'stray-file.txt'), 'not a space');
});
afterAll(async () => {
  await temp.cleanup();
});

describe('parseRootSpec', () => {
  it('reads "name=dir" as one named space and anything else as a folder of spaces', () => {
    expect(parseRootSpec('work=/data/work')).toEqual({ kind: 'space', name: 'work', dir: '/data/work' });
    expect(parseRootSpec('/data/spaces')).toEqual({ kind: 'collection', dir: '/data/spaces' });
    expect(parseRootSpec('/data/a=b')).toEqual({ kind: 'collection', dir: '/data/a=b' });
    expect(parseRootSpec('rel/dir', '/base')).toEqual({ kind: 'collection', dir: '/base/rel/dir' });
  });
});

describe('resolveRoots: options, then the environment, then the sample', () => {
  it('uses the sample when nothing is configured', () => {
    expect(resolveRoots(undefined, {})).toEqual({ entries: [{ kind: 'collection', dir: SAMPLE_ROOT }], source: 'sample' });
    expect(resolveRoots(undefined, { [SPACES_ROOT_ENV]: '  ' }).source).toBe('sample');
  });

  it('reads several roots from the environment, split on the path delimiter', () => {
    const env = { [SPACES_ROOT_ENV]: ['/data/spaces', 'mine=/home/me/work', ''].join(path.delimiter) };
    expect(resolveRoots(undefined, env)).toEqual({
      entries: [{ kind: 'collection', dir: '/data/spaces' }, { kind: 'space', name: 'mine', dir: '/home/me/work' }],
      source: 'env',
    });
  });

  it('prefers the options to the environment, as an array or a record', () => {
    const env = { [SPACES_ROOT_ENV]: '/ignored' };
    expect(resolveRoots(['/a'], env)).toEqual({ entries: [{ kind: 'collection', dir: '/a' }], source: 'options' });
    expect(resolveRoots({ one: '/x/one' }, env)).toEqual({ entries: [{ kind: 'space', name: 'one', dir: '/x/one' }], source: 'options' });
  });

  it('refuses invalid options with REACTOR_OPTION_INVALID', () => {
    expect(() => resolveRoots([''])).toThrow(expect.objectContaining({ code: 'REACTOR_OPTION_INVALID' }) as Error);
    expect(() => resolveRoots({ '../up': '/x' })).toThrow(/option "roots" of extension "spaces": is invalid/);
    expect(() => resolveRoots({ ok: 3 } as unknown as Record<string, string>)).toThrow(/a folder path for space "ok"/);
  });
});

describe('listSpaces and findSpace', () => {
  it('lists the visible subfolders of a folder of spaces, by name', async () => {
    expect(await listSpaces([{ kind: 'collection', dir: temp.root }])).toEqual([temp.alpha, temp.beta]);
  });

  it('lists the shipped sample', async () => {
    expect((await listSpaces([{ kind: 'collection', dir: SAMPLE_ROOT }])).map((s) => s.name)).toEqual(['benchmark-notes', 'climate-lab']);
  });

  it('keeps the first of two spaces with one name, and skips missing roots', async () => {
    const spaces = await listSpaces([
      { kind: 'space', name: 'beta', dir: temp.alpha.dir },
      { kind: 'collection', dir: path.join(os.tmpdir(), 'reactor-spaces-does-not-exist') },
      { kind: 'collection', dir: temp.root },
    ]);
    expect(spaces).toEqual([{ name: 'beta', dir: temp.alpha.dir }, temp.alpha]);
  });

  it('names the available spaces when one is not found', async () => {
    const entries = [{ kind: 'collection', dir: temp.root }] as const;
    expect(await findSpace(entries, 'beta')).toEqual(temp.beta);
    await expect(findSpace(entries, 'gamma')).rejects.toThrow('space "gamma": not found; expected one of: alpha, beta; hint: call list_spaces to see every space');
    await expect(findSpace(entries, '../root')).rejects.toThrow(/not found/);
    await expect(findSpace(entries, '.hidden-space')).rejects.toThrow(/not found/);
  });

  it('reports roots that are not readable folders', async () => {
    const missing = path.join(temp.root, 'nope');
    expect(await checkRoots([{ kind: 'collection', dir: temp.root }])).toEqual([]);
    expect(await checkRoots([{ kind: 'collection', dir: missing }, { kind: 'space', name: 'x', dir: path.join(temp.root, 'stray-file.txt') }])).toEqual([
      `root ${missing} is not a readable folder`,
      `space "x": ${path.join(temp.root, 'stray-file.txt')} is not a readable folder`,
    ]);
  });
});

describe('top-level symbolic links of a folder of spaces', () => {
  // A folder of spaces beside the shared one: a real space, a link to it, and links that lead out.
  let root: string;
  let entries: readonly [{ kind: 'collection'; dir: string }];
  beforeAll(async () => {
    root = path.join(path.dirname(temp.root), 'linked-root');
    await fs.mkdir(path.join(root, 'real'), { recursive: true });
    await fs.symlink(path.join(root, 'real'), path.join(root, 'alias'));
    await fs.symlink(temp.outside, path.join(root, 'escape'));
    await fs.symlink('../outside', path.join(root, 'relative-escape'));
    await fs.symlink(root, path.join(root, 'itself'));
    await fs.symlink(path.join(temp.outside, 'secret.txt'), path.join(root, 'file-outside'));
    entries = [{ kind: 'collection', dir: root }];
  });

  it('serves a link to a folder inside the root as a space, like a link inside a space', async () => {
    expect(await findSpace(entries, 'alias')).toEqual({ name: 'alias', dir: path.join(root, 'alias') });
  });

  it('refuses a link whose real path leads outside the root, or is the root itself', async () => {
    expect((await listSpaces(entries)).map((s) => s.name)).toEqual(['alias', 'real']);
    for (const name of ['escape', 'relative-escape', 'itself']) await expect(findSpace(entries, name)).rejects.toThrow(`space "${name}": not found`);
  });

  it('says which links it refused, and where they lead', async () => {
    expect((await scanSpaces(entries)).refused).toEqual([
      { name: 'escape', root, target: temp.outside, reason: 'a symbolic link leading outside its folder of spaces' },
      { name: 'itself', root, target: root, reason: 'a symbolic link to its folder of spaces itself' },
      { name: 'relative-escape', root, target: temp.outside, reason: 'a symbolic link leading outside its folder of spaces' },
    ]);
  });
});
