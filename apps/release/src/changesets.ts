/**
 * The release steps a maintainer runs, on a scratch copy: write a changeset,
 * `changeset version`, `changeset publish` (which publishes with `pnpm
 * publish`, so `workspace:` ranges become real versions). Each runs the copy's
 * own `@changesets/cli`, the version the repository locks.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { run, type RunResult } from './run.js';

/** A version bump, as a changeset writes it. */
export type Bump = 'patch' | 'minor' | 'major';

/** Writes `.changeset/<id>.md` bumping `bumps` with `summary`, as `pnpm changeset` would. */
export function writeChangeset(root: string, id: string, bumps: Readonly<Record<string, Bump>>, summary: string): void {
  const front = Object.entries(bumps).map(([name, bump]) => `"${name}": ${bump}`);
  writeFileSync(join(root, '.changeset', `${id}.md`), `---\n${front.join('\n')}\n---\n\n${summary}\n`);
}

const changeset = (root: string, args: readonly string[], env: NodeJS.ProcessEnv): Promise<RunResult> =>
  run(join(root, 'node_modules', '.bin', 'changeset'), args, { cwd: root, env, timeoutMs: 300_000 });

/** `changeset version`: consumes the pending changesets, bumps versions, writes CHANGELOG.md files. */
export function changesetVersion(root: string, env: NodeJS.ProcessEnv): Promise<RunResult> {
  return changeset(root, ['version'], env);
}

/** `changeset publish`: publishes every public package whose version the registry does not have yet, and tags it. */
export function changesetPublish(root: string, env: NodeJS.ProcessEnv): Promise<RunResult> {
  return changeset(root, ['publish'], env);
}

/**
 * `pnpm publish` of one package under a dist-tag other than `latest`: how a
 * release that must not become the default (a major the extensions have not
 * caught up with) goes out.
 */
export function publishTagged(packageDir: string, tag: string, env: NodeJS.ProcessEnv): Promise<RunResult> {
  return run('pnpm', ['publish', '--no-git-checks', '--access', 'public', '--tag', tag], { cwd: packageDir, env, timeoutMs: 120_000 });
}
