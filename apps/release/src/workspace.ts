/**
 * The packages a release publishes: every workspace package that is not
 * private, as pnpm itself lists them (so the globs of pnpm-workspace.yaml
 * decide, and a package added later is covered without editing this file).
 */
import { readFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { cleanEnv } from './integrator.js';
import { run } from './run.js';

/** A public workspace package. */
export interface PublicPackage {
  readonly name: string;
  readonly version: string;
  /** Absolute directory. */
  readonly dir: string;
  /** The directory relative to the repository root, with `/` separators (`packages/host`). */
  readonly path: string;
  /** Its package.json as written in the repository. */
  readonly manifest: Record<string, unknown>;
}

interface ListedProject {
  name?: string;
  path: string;
  private?: boolean;
}

/** Every non-private workspace package under `root`, sorted by path. */
export async function publicPackages(root: string): Promise<PublicPackage[]> {
  const { stdout } = await run('pnpm', ['ls', '--recursive', '--depth', '-1', '--json'], { cwd: root, env: cleanEnv() });
  const projects = JSON.parse(stdout) as ListedProject[];
  return projects
    .filter((p) => p.private !== true && p.path !== root)
    .map((p) => {
      const manifest = JSON.parse(readFileSync(join(p.path, 'package.json'), 'utf8')) as Record<string, unknown>;
      return {
        name: String(manifest['name']),
        version: String(manifest['version']),
        dir: p.path,
        path: relative(root, p.path).split(sep).join('/'),
        manifest,
      };
    })
    .sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}
