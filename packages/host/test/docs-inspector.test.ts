/**
 * The MCP Inspector in the docs is pinned: `npx @modelcontextprotocol/inspector`
 * unpinned runs whatever copy npx has cached (0.15.0 takes `--transport stdio`
 * after `--` for itself and leaves an HTTP server on :4040). Every mention of the
 * package in the README, docs/ and the packages' READMEs names an exact version,
 * the same one everywhere, and each file that names it says which Node it needs.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');

/** README.md, docs/**\/*.md, and the README of every package, app and extension. */
function docFiles(): string[] {
  const files = [join(repoRoot, 'README.md')];
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      if (entry.isDirectory()) walk(join(dir, entry.name));
      else if (entry.name.endsWith('.md')) files.push(join(dir, entry.name));
    }
  };
  walk(join(repoRoot, 'docs'));
  for (const group of ['packages', 'apps', 'extensions']) {
    for (const name of readdirSync(join(repoRoot, group))) {
      const readme = join(repoRoot, group, name, 'README.md');
      if (existsSync(readme)) files.push(readme);
    }
  }
  return files;
}

interface Mention {
  readonly file: string;
  readonly line: number;
  /** What follows the package name: `@2.12.0`, or '' when unpinned. */
  readonly version: string;
}

// The npm package (an `@` before the scope); the GitHub URL `github.com/modelcontextprotocol/inspector` is not one.
const PACKAGE = /@modelcontextprotocol\/inspector(@[^\s`'"),\]]*)?/g;

function mentionsIn(file: string): Mention[] {
  const mentions: Mention[] = [];
  readFileSync(file, 'utf8')
    .split('\n')
    .forEach((text, index) => {
      for (const match of text.matchAll(PACKAGE)) mentions.push({ file: file.slice(repoRoot.length + 1), line: index + 1, version: match[1] ?? '' });
    });
  return mentions;
}

describe('the MCP Inspector in the docs', () => {
  const files = docFiles();
  const mentions = files.flatMap(mentionsIn);

  it('is named in the docs (so the checks below check something)', () => {
    expect(mentions.length).toBeGreaterThan(0);
  });

  it('is pinned to one exact version everywhere', () => {
    const unpinned = mentions.filter((m) => !/^@\d+\.\d+\.\d+$/.test(m.version)).map((m) => `${m.file}:${m.line} "${m.version}"`);
    expect(unpinned).toEqual([]);
    expect(new Set(mentions.map((m) => m.version)).size).toBe(1);
  });

  it('says it needs Node 22.19 or later, in every file that names it', () => {
    const silent = [...new Set(mentions.map((m) => m.file))].filter((file) => !/Node 22\.19/.test(readFileSync(join(repoRoot, file), 'utf8')));
    expect(silent).toEqual([]);
  });
});
