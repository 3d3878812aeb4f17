/**
 * Runs the ```ts examples of a Markdown file as vitest tests, for packages
 * whose README examples import the package itself (or its siblings): each
 * block not marked `no-test` is written to a module under the package's own
 * folder — so `@reactor/…` imports resolve exactly as that package's tests
 * do, to the sources — and imported. Examples assert what they claim with
 * node:assert, so a stale example fails. `packages/host/test/docs.test.ts`
 * does the same for the host README and the guides under docs/.
 */
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { basename, join, relative } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

/** One ```ts block: where it starts (1-based line of its first line of code) and its code. */
export interface MarkdownExample {
  readonly line: number;
  readonly code: string;
  /** Marked `no-test`: shown, never run. */
  readonly skipped: boolean;
}

/** Every ```ts block of a Markdown text, in order. */
export function markdownExamples(text: string): MarkdownExample[] {
  const lines = text.split('\n');
  const examples: MarkdownExample[] = [];
  for (let i = 0; i < lines.length; i++) {
    const open = /^```ts(.*)$/.exec(lines[i] ?? '');
    if (!open) continue;
    let end = i + 1;
    while (end < lines.length && lines[end] !== '```') end++;
    examples.push({ line: i + 2, code: lines.slice(i + 1, end).join('\n'), skipped: (open[1] ?? '').includes('no-test') });
    i = end;
  }
  return examples;
}

/** Options of {@link describeMarkdownExamples}. */
export interface DescribeExamplesOptions {
  /** A folder inside the package whose imports the examples use; made and removed by the tests. */
  readonly outDir: string;
  /** How many runnable examples the file must hold: fewer fails (a broken fence must not run nothing quietly). Default 1. */
  readonly atLeast?: number;
}

/** Declares one test per runnable example of `file`, and one that fails when there are fewer than `atLeast`. */
export function describeMarkdownExamples(file: string, options: DescribeExamplesOptions): void {
  const all = markdownExamples(readFileSync(file, 'utf8'));
  const runnable = all.filter((e) => !e.skipped);
  const label = relative(process.cwd(), file) || basename(file);
  describe(`${label}: its ts examples`, () => {
    mkdirSync(options.outDir, { recursive: true });
    afterAll(() => rmSync(options.outDir, { recursive: true, force: true }));
    it(`hold at least ${options.atLeast ?? 1} runnable example(s)`, () => {
      expect(runnable.length).toBeGreaterThanOrEqual(options.atLeast ?? 1);
    });
    runnable.forEach((example, index) => {
      it(`example at line ${example.line} runs`, async () => {
        const module = join(options.outDir, `${basename(file, '.md')}_${index}.ts`);
        writeFileSync(module, example.code);
        await import(pathToFileURL(module).href);
      });
    });
  });
}
