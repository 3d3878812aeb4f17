/**
 * The examples of docs/adopting-a-server.md and of this package's README run
 * as tests: every ```ts block not marked `no-test` is written to a module in
 * this package (so `@reactor/adopt`, `@reactor/host` and the adopted servers
 * resolve as an application's would) and imported. Examples assert what they
 * claim with node:assert, so a stale example fails here.
 */
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, describe, it } from 'vitest';

const here = dirname(fileURLToPath(import.meta.url));
const repoRoot = resolve(here, '../../..');
const out = join(here, '.doc-examples');
const sources = [join(repoRoot, 'docs', 'adopting-a-server.md'), join(here, '..', 'README.md')];

function examplesOf(file: string): Array<{ line: number; code: string }> {
  const lines = readFileSync(file, 'utf8').split('\n');
  const examples: Array<{ line: number; code: string }> = [];
  for (let i = 0; i < lines.length; i++) {
    const open = /^```ts(.*)$/.exec(lines[i]!);
    if (!open || open[1]!.includes('no-test')) continue;
    let end = i + 1;
    while (end < lines.length && lines[end] !== '```') end++;
    examples.push({ line: i + 2, code: lines.slice(i + 1, end).join('\n') });
    i = end;
  }
  return examples;
}

mkdirSync(out, { recursive: true });
afterAll(() => rmSync(out, { recursive: true, force: true }));

for (const file of sources) {
  describe(file.slice(repoRoot.length + 1), () => {
    examplesOf(file).forEach((example, index) => {
      it(`example at line ${example.line} runs`, async () => {
        const module = join(out, `${file.slice(repoRoot.length + 1).replaceAll(/[/.]/g, '_')}_${index}.ts`);
        writeFileSync(module, example.code);
        await import(pathToFileURL(module).href);
      });
    });
  });
}
