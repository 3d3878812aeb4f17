import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { findReactorMonorepo, scaffold } from './scaffold.js';

const work = mkdtempSync(join(tmpdir(), 'reactor-scaffold-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));
const answers = { packageName: 'my-ext', extensionName: 'my-ext', toolset: 'my-ext', byDefault: true, toolName: 'my_ext_greet', description: 'Mine.', hostVersion: '1.0.0', layout: 'standalone' as const };

describe('scaffold', () => {
  it('writes the files into a new directory', async () => {
    const written = await scaffold(join(work, 'fresh'), answers);
    expect(written.files).toContain('src/index.ts');
    expect(JSON.parse(readFileSync(join(work, 'fresh', 'package.json'), 'utf8'))).toMatchObject({ name: 'my-ext' });
  });

  it('refuses a directory that is not empty, writing nothing', async () => {
    mkdirSync(join(work, 'taken'));
    writeFileSync(join(work, 'taken', 'keep.txt'), 'mine');
    await expect(scaffold(join(work, 'taken'), answers)).rejects.toThrow('is not empty');
  });
});

describe('findReactorMonorepo', () => {
  it('finds this repository from any directory inside it, and nothing outside', () => {
    const repo = findReactorMonorepo(new URL('.', import.meta.url).pathname);
    expect(repo && readFileSync(join(repo, 'pnpm-workspace.yaml'), 'utf8')).toContain('extensions/*');
    expect(findReactorMonorepo(work)).toBeUndefined();
  });
});
