/**
 * The docs' examples run as tests: every ```ts block in the host README and in
 * docs/*.md that is not marked `no-test` is written to a temporary module
 * (imports of `@reactor/host` pointed at the sources) and imported. Examples
 * assert what they claim with node:assert, so a stale example fails here.
 */
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, describe, it } from 'vitest';

const here = dirname(fileURLToPath(import.meta.url));
const packageRoot = resolve(here, '..');
const repoRoot = resolve(packageRoot, '../..');
const out = join(here, '.doc-examples');

// Guides whose examples need another package are run by that package's own docs test.
const RUN_ELSEWHERE = new Set([
  'adopting-a-server.md', // packages/adopt/test/docs.test.ts
  'connecting-agents.md', // apps/interop: its snippets are the interop suite's code (test/docs.test.ts), run by pnpm test:interop
]);

// No try/catch: a docs folder that cannot be read must fail here, never run zero guides quietly.
function listDocs(dir: string): string[] {
  return readdirSync(dir).filter((f) => f.endsWith('.md') && !RUN_ELSEWHERE.has(f)).map((f) => join(dir, f));
}

const sources = [join(packageRoot, 'README.md'), ...listDocs(join(repoRoot, 'docs')), ...listDocs(join(repoRoot, 'docs', 'internals'))];

interface Example {
  file: string;
  line: number;
  code: string;
}

function examplesOf(file: string): Example[] {
  const lines = readFileSync(file, 'utf8').split('\n');
  const examples: Example[] = [];
  for (let i = 0; i < lines.length; i++) {
    const open = /^```ts(.*)$/.exec(lines[i]!);
    if (!open || open[1]!.includes('no-test')) continue;
    const start = i + 1;
    let end = start;
    while (end < lines.length && lines[end] !== '```') end++;
    examples.push({ file, line: start, code: lines.slice(start, end).join('\n') });
    i = end;
  }
  return examples;
}

const sourceOf = (name: string) => pathToFileURL(join(packageRoot, 'src', name)).href;
// Only module specifiers are rewritten: an example may mention '@reactor/host' as data too.
function rewriteImports(code: string): string {
  return code.replace(/(from\s+|import\s*\(\s*)'@reactor\/host(\/testing)?'/g, (_m, lead: string, sub: string | undefined) =>
    `${lead}'${sourceOf(sub ? 'testing/index.ts' : 'index.ts')}'`,
  );
}

mkdirSync(out, { recursive: true });
afterAll(() => rmSync(out, { recursive: true, force: true }));

for (const file of sources) {
  const examples = examplesOf(file);
  if (examples.length === 0) continue;
  describe(file.slice(repoRoot.length + 1), () => {
    examples.forEach((example, index) => {
      it(`example at line ${example.line} runs`, async () => {
        const module = join(out, `${file.slice(repoRoot.length + 1).replaceAll(/[/.]/g, '_')}_${index}.ts`);
        writeFileSync(module, rewriteImports(example.code));
        await import(pathToFileURL(module).href);
      });
    });
  });
}

// A guard on the guard: the guides are found, so a broken listing cannot pass by running nothing.
describe('the docs examples', () => {
  it('come from the host README and every guide under docs/', () => {
    const guides = sources.filter((f) => f.includes(`${join(repoRoot, 'docs')}`));
    if (guides.length < 8) throw new Error(`expected the guides under docs/, found ${guides.length}`);
  });
});
