/**
 * Writes a new extension package: into an empty (or new) directory when
 * standalone, or as `extensions/<dir>` of the Reactor MCP monorepo when run
 * inside it. Refuses to overwrite anything.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { packageFiles, type ScaffoldAnswers } from './templates.js';

/** What {@link scaffold} wrote. */
export interface Scaffolded {
  readonly dir: string;
  readonly files: readonly string[];
}

/** Writes the package's files into `dir`, which must not exist or be empty. */
export async function scaffold(dir: string, answers: ScaffoldAnswers): Promise<Scaffolded> {
  const target = path.resolve(dir);
  if (existsSync(target) && readdirSync(target).length > 0) {
    throw new Error(`${target} is not empty; choose a new directory name (nothing was written)`);
  }
  const files = packageFiles(answers);
  for (const [file, content] of Object.entries(files)) {
    const at = path.join(target, ...file.split('/'));
    await mkdir(path.dirname(at), { recursive: true });
    await writeFile(at, content, { flag: 'wx' });
  }
  return { dir: target, files: Object.keys(files).sort() };
}

/**
 * The root of the Reactor MCP monorepo holding `from`, if any: a directory
 * with pnpm-workspace.yaml whose packages/host is `@reactor/host`.
 */
export function findReactorMonorepo(from: string): string | undefined {
  for (let dir = path.resolve(from); ; dir = path.dirname(dir)) {
    const host = path.join(dir, 'packages', 'host', 'package.json');
    if (existsSync(path.join(dir, 'pnpm-workspace.yaml')) && existsSync(host)) {
      try {
        if ((JSON.parse(readFileSync(host, 'utf8')) as { name?: unknown }).name === '@reactor/host') return dir;
      } catch {
        // not ours
      }
    }
    if (path.dirname(dir) === dir) return undefined;
  }
}
