/**
 * A folder of spaces made in a temp dir at test time, with the traps a real
 * one can hold: hidden files, a binary without an extension, symbolic links
 * inside the space, to its parent, and to a folder outside it.
 */
import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Space } from '../src/spaceRoots.js';

/** The made folders. */
export interface TempSpaces {
  /** The folder of spaces (a root). */
  readonly root: string;
  /** The space `alpha`, full of traps. */
  readonly alpha: Space;
  /** The space `beta`, with one notebook. */
  readonly beta: Space;
  /** A folder beside the root, outside every space, holding `secret.txt`. */
  readonly outside: string;
  /** Removes everything. */
  cleanup(): Promise<void>;
}

/** Makes the folders; call `cleanup()` in `afterAll`. */
export async function makeTempSpaces(): Promise<TempSpaces> {
  const base = await fs.mkdtemp(path.join(os.tmpdir(), 'reactor-spaces-'));
  const root = path.join(base, 'root');
  const outside = path.join(base, 'outside');
  const alphaDir = path.join(root, 'alpha');
  const betaDir = path.join(root, 'beta');
  const write = async (file: string, data: string | Uint8Array) => {
    await fs.mkdir(path.dirname(file), { recursive: true });
    await fs.writeFile(file, data);
  };
  await write(path.join(outside, 'secret.txt'), 'TOP SECRET: outside the space\n');
  await write(path.join(alphaDir, 'notes.md'), '# Alpha notes\n\nThe alpha space holds test data.\nSee data/values.csv for values.\n');
  await write(path.join(alphaDir, 'data', 'values.csv'), 'x,y\n1,2\n3,4\n');
  await write(path.join(alphaDir, 'data', 'nested', 'deep.txt'), 'deep text with a Needle inside\n');
  await write(path.join(alphaDir, '.env'), 'TOKEN=should-never-be-served\n');
  await write(path.join(alphaDir, '.cache', 'x.txt'), 'hidden folder content\n');
  await write(path.join(alphaDir, 'blob.dat'), Buffer.from([0x50, 0x4b, 0x00, 0x01, 0x02, 0x03]));
  await write(path.join(alphaDir, '%2e%2e', 'literal.txt'), 'a folder literally named %2e%2e\n');
  await fs.symlink(path.join(alphaDir, 'data', 'values.csv'), path.join(alphaDir, 'link-inside.csv'));
  await fs.symlink(path.join(alphaDir, 'data'), path.join(alphaDir, 'link-dir-inside'));
  await fs.symlink(path.join(outside, 'secret.txt'), path.join(alphaDir, 'link-outside.txt'));
  await fs.symlink(outside, path.join(alphaDir, 'link-dir-outside'));
  await fs.symlink('../../outside/secret.txt', path.join(alphaDir, 'relative-link-outside.txt'));
  await fs.symlink(alphaDir, path.join(alphaDir, 'data', 'loop'));
  await fs.symlink(path.join(alphaDir, 'missing.txt'), path.join(alphaDir, 'broken-link.txt'));
  await write(path.join(betaDir, 'analysis.ipynb'), JSON.stringify({
    nbformat: 4,
    nbformat_minor: 5,
    metadata: { kernelspec: { name: 'python3', display_name: 'Python 3', language: 'python' } },
    cells: [
      { cell_type: 'markdown', metadata: {}, source: ['# Beta analysis\n', 'Reads `measurements.csv`.'] },
      { cell_type: 'code', metadata: {}, execution_count: 1, source: 'print("hello beta")', outputs: [{ output_type: 'stream', name: 'stdout', text: ['hello beta\n'] }] },
    ],
  }));
  return {
    root,
    alpha: { name: 'alpha', dir: alphaDir },
    beta: { name: 'beta', dir: betaDir },
    outside,
    cleanup: () => fs.rm(base, { recursive: true, force: true }),
  };
}
