/**
 * One install story. Until the packages are on the public npm registry, a line that
 * installs `@reactor/*` from it answers E404 outside this repository. The rule: the
 * README's "Installing before a release" section says what works today, and every page
 * that shows such a line links to it — so no page tells a newcomer a story the README
 * contradicts.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const SECTION = '## Installing before a release';
const LINK = '#installing-before-a-release';

/** A line that installs a @reactor package from the default registry (not a tarball, not another registry). */
const PUBLIC_INSTALL = /\b(?:npm (?:install|i|create)|pnpm (?:add|create)|yarn add)\b[^\n]*@reactor\/(?!host-)/;
const installsFromPublicRegistry = (line: string) => PUBLIC_INSTALL.test(line) && !/--registry|\.tgz\b/.test(line);

function pages(): string[] {
  const found = [path.join(repo, 'README.md')];
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (entry.name.endsWith('.md')) found.push(full);
    }
  };
  walk(path.join(repo, 'docs'));
  for (const root of ['packages', 'extensions', 'apps']) {
    for (const pkg of readdirSync(path.join(repo, root))) {
      const readme = path.join(repo, root, pkg, 'README.md');
      if (existsSync(readme)) found.push(readme);
    }
  }
  return found;
}

describe('the install story', () => {
  it('is told once, in the README', () => {
    expect(readFileSync(path.join(repo, 'README.md'), 'utf8')).toContain(SECTION);
  });

  const withInstallLines = pages().filter((file) => readFileSync(file, 'utf8').split('\n').some(installsFromPublicRegistry));

  it('is found on the pages that show an install line (a guard on the guard)', () => {
    expect(withInstallLines.length).toBeGreaterThanOrEqual(8);
  });

  it.each(withInstallLines.map((file) => [path.relative(repo, file), file] as const))('%s links to it beside its install line', (_name, file) => {
    expect(readFileSync(file, 'utf8')).toContain(LINK);
  });
});
