/**
 * docs/writing-an-extension.md shows a package's files ("The package in
 * depth") for an author who writes them by hand: they are the files this
 * scaffolder writes for the same answers, so what the guide shows builds,
 * tests and packs exactly as the scaffolded package does
 * (apps/demo/test/author.test.ts runs that with npm from an empty folder).
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { packageFiles } from './templates.js';

const guide = readFileSync(new URL('../../../docs/writing-an-extension.md', import.meta.url), 'utf8');
const start = guide.indexOf('## The package in depth');
const section = guide.slice(start, guide.indexOf('\n## ', start + 5));
const blocks = [...section.matchAll(/^```(json|ts)\n([\s\S]*?)^```$/gm)].map((m) => ({ lang: m[1]!, code: m[2]! }));

const files = packageFiles({
  packageName: '@acme/reactor-sandboxes',
  extensionName: 'sandboxes',
  toolset: 'sandboxes',
  byDefault: false,
  toolName: 'launch_sandbox',
  description: 'Run code in sandboxes.',
  hostVersion: '1.0.0',
  layout: 'standalone',
});

describe('the guide\'s package in depth', () => {
  it('shows package.json, tsconfig.json, tsconfig.build.json and vitest.config.ts, in that order', () => {
    expect(start).toBeGreaterThan(0);
    expect(blocks.map((b) => b.lang)).toEqual(['json', 'json', 'json', 'ts']);
  });

  it.each([
    ['package.json', 0],
    ['tsconfig.json', 1],
    ['tsconfig.build.json', 2],
  ] as const)('%s is what the scaffolder writes', (file, index) => {
    expect(JSON.parse(blocks[index]!.code)).toEqual(JSON.parse(files[file]!));
  });

  it('vitest.config.ts is what the scaffolder writes', () => {
    expect(blocks[3]!.code).toBe(files['vitest.config.ts']);
  });

  it('keeps tests out of the build and of the tarball, and names @types/node for TypeScript 6', () => {
    const pkg = JSON.parse(blocks[0]!.code) as { files: string[]; scripts: Record<string, string>; devDependencies: Record<string, string> };
    expect(pkg.files).toContain('!dist/**/*.test.*');
    expect(JSON.parse(blocks[2]!.code)).toMatchObject({ exclude: ['src/**/*.test.ts'] });
    expect(pkg.scripts).toMatchObject({ build: 'tsc -p tsconfig.build.json', test: 'vitest run' });
    expect(Object.keys(pkg.devDependencies)).toEqual(expect.arrayContaining(['@types/node', 'typescript', 'vitest']));
    expect(pkg.devDependencies['typescript']).toMatch(/^6\./);
    expect(JSON.parse(blocks[1]!.code)).toMatchObject({ compilerOptions: { types: ['node'] } });
  });
});
