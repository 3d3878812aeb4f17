/**
 * One table of every extension's environment variables (docs/serving-reference.md).
 * Each variable a first-party extension names in its source — a string literal
 * `REACTOR_<EXTENSION>_…`, or kernels' `REACTOR_JUPYTER…` — has a row there, so a new
 * variable cannot ship undocumented.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const table = readFileSync(path.join(repo, 'docs/serving-reference.md'), 'utf8');
const ENV_NAME = /['"`](REACTOR_(?:SPACES|BENCHMARKS|KERNELS|JUPYTER)(?:_[A-Z0-9]+)*)['"`]/g;

function variablesNamedIn(extension: string): string[] {
  const src = path.join(repo, 'extensions', extension, 'src');
  const names = new Set<string>();
  for (const file of readdirSync(src, { recursive: true, encoding: 'utf8' })) {
    if (!file.endsWith('.ts') || file.endsWith('.test.ts')) continue;
    for (const [, name] of readFileSync(path.join(src, file), 'utf8').matchAll(ENV_NAME)) names.add(name!);
  }
  return [...names].sort();
}

describe('the extensions\' environment variables table', () => {
  const all = ['spaces', 'benchmarks', 'kernels'].flatMap((extension) => variablesNamedIn(extension).map((name) => [extension, name] as const));

  it('finds the variables in the sources (a guard on the guard)', () => {
    expect(all.length).toBeGreaterThanOrEqual(8);
  });

  it.each(all)('%s: %s has a row', (_extension, name) => {
    expect(table).toContain(`| \`${name}\` |`);
  });
});
