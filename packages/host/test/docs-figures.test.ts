/**
 * Every figure on docs/reliability.md, docs/performance.md, docs/observability.md, docs/scaling.md and the lab
 * notes under docs/internals/ names the command
 * that reproduces it: each section (heading to heading) that states a measured
 * figure — a number with a unit (ms, s, MiB, calls/s, %, ×) or a percentile —
 * names in the same section a command someone can rerun: `pnpm <script>` of the
 * root package.json, `npx vitest run <path>`, `node <file>`, or a test file.
 * And each command named anywhere on the pages must exist: the script, the
 * file, the test.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const scripts = Object.keys((JSON.parse(readFileSync(path.join(repo, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts);

const FIGURE = /\b\d[\d,.]*\s?(?:ms|s|MiB|KiB|GiB|MB|KB|calls\/s|req\/s|%|×)(?![\w/])|\bp(?:50|90|99)\b/;

interface Section {
  readonly heading: string;
  readonly text: string;
}

function sections(file: string): Section[] {
  const out: Section[] = [];
  let heading = '(top of page)';
  let lines: string[] = [];
  for (const line of readFileSync(path.join(repo, file), 'utf8').split('\n')) {
    if (/^#{1,4} /.test(line)) {
      out.push({ heading, text: lines.join('\n') });
      heading = line.replace(/^#+ /, '');
      lines = [];
    } else lines.push(line);
  }
  out.push({ heading, text: lines.join('\n') });
  return out;
}

/** Test files named anywhere in the repo's packages, by base name. */
const testFiles = new Set<string>();
for (const root of ['packages', 'extensions', 'apps']) {
  for (const pkg of readdirSync(path.join(repo, root))) {
    for (const sub of ['src', 'test']) {
      const dir = path.join(repo, root, pkg, sub);
      if (!existsSync(dir)) continue;
      for (const f of readdirSync(dir, { recursive: true, encoding: 'utf8' })) if (f.endsWith('.test.ts')) testFiles.add(path.basename(f));
    }
  }
}

/** The commands a section names, each checked to exist; returns the ones that do. */
function commandsIn(text: string): { real: string[]; missing: string[] } {
  const real: string[] = [];
  const missing: string[] = [];
  for (const [, script] of text.matchAll(/\bpnpm (?:run )?([a-z][\w:-]*)/g)) {
    if (script === 'exec' || script === 'install' || script === 'add') continue;
    (scripts.includes(script!) ? real : missing).push(`pnpm ${script}`);
  }
  for (const [, target] of text.matchAll(/\bnpx vitest run ([^\s`]+)/g)) {
    const dir = path.join(repo, path.dirname(target!));
    const pattern = new RegExp(`^${path.basename(target!).replaceAll('.', '\\.').replaceAll('*', '.*')}$`);
    const exists = existsSync(dir) && readdirSync(dir).some((f) => pattern.test(f));
    (exists ? real : missing).push(`npx vitest run ${target}`);
  }
  for (const [, file] of text.matchAll(/\bnode ((?:scripts|\.ci|packages|apps)\/[^\s`]+)/g)) {
    // A built file (`…/dist/x.js`) is checked by its source, which exists whatever state a build is in.
    const source = file!.includes('/dist/') ? file!.replace('/dist/', '/src/').replace(/\.js$/, '.ts') : file!;
    (existsSync(path.join(repo, source)) ? real : missing).push(`node ${file}`);
  }
  for (const [, file] of text.matchAll(/([\w.-]+\.test\.ts)/g)) (testFiles.has(file!) ? real : missing).push(file!);
  return { real, missing };
}

describe.each(['docs/reliability.md', 'docs/performance.md', 'docs/observability.md', 'docs/scaling.md', 'docs/internals/performance-notes.md', 'docs/internals/observability-overhead.md'])('%s', (file) => {
  it.each(sections(file).filter((s) => FIGURE.test(s.text)).map((s) => [s.heading, s] as const))('section "%s" names a command that reproduces its figures', (_heading, section) => {
    const { real } = commandsIn(section.text);
    expect(real, `figures such as "${FIGURE.exec(section.text)?.[0]}" need a rerunnable command beside them`).not.toEqual([]);
  });

  it('every command it names exists (script, file or test)', () => {
    expect(commandsIn(readFileSync(path.join(repo, file), 'utf8')).missing).toEqual([]);
  });
});
