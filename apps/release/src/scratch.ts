/**
 * A scratch copy of the repository to release from, so versioning and
 * publishing never touch the working tree: the files git tracks (and new ones
 * it does not ignore), the built `dist/` of every public package (publishing
 * ships what `pnpm build` made; rebuilding here would only cost minutes), a
 * fresh git history (changesets tags releases), and the repository's own root
 * `node_modules` linked in, for `@changesets/cli` and its changelog module.
 * Nothing else needs installing: `pnpm publish` rewrites `workspace:` ranges
 * from the workspace's package.json files, not from node_modules — and a real
 * install would copy hundreds of megabytes per run.
 */
import { cpSync, existsSync, mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { cleanEnv } from './integrator.js';
import { run } from './run.js';
import type { PublicPackage } from './workspace.js';

const GIT_IDENTITY = { GIT_AUTHOR_NAME: 'Reactor release rehearsal', GIT_AUTHOR_EMAIL: 'release@localhost', GIT_COMMITTER_NAME: 'Reactor release rehearsal', GIT_COMMITTER_EMAIL: 'release@localhost' };

/** Fails, naming the packages, when a public package has no `dist/`: the tarballs carry it. */
export function requireDist(packages: readonly PublicPackage[]): void {
  const missing = packages.filter((p) => !existsSync(join(p.dir, 'dist')));
  if (missing.length > 0) {
    throw new Error(`not built: ${missing.map((p) => `${p.path}/dist`).join(', ')} missing; run \`pnpm build\` first (\`pnpm release:local\` and \`pnpm test\` build before they run)`);
  }
}

/** Copies `repoRoot` to `dest` as described above; returns `dest`. */
export async function scratchCopy(repoRoot: string, dest: string, packages: readonly PublicPackage[]): Promise<string> {
  requireDist(packages);
  const listed = await run('git', ['ls-files', '--cached', '--others', '--exclude-standard', '-z'], { cwd: repoRoot, env: cleanEnv() });
  for (const file of listed.stdout.split('\0')) {
    if (file === '' || !existsSync(join(repoRoot, file))) continue; // deleted but not yet staged
    mkdirSync(dirname(join(dest, file)), { recursive: true });
    cpSync(join(repoRoot, file), join(dest, file), { dereference: false });
  }
  for (const pkg of packages) cpSync(join(pkg.dir, 'dist'), join(dest, pkg.path, 'dist'), { recursive: true });
  await git(dest, ['init', '--quiet', '--initial-branch=main']);
  await commitAll(dest, 'The repository as the rehearsal found it');
  // Removing the scratch copy removes the link, not its target. Git's `node_modules/` pattern matches
  // directories only, and a link is not one: exclude it by name, or the next commit would add it.
  writeFileSync(join(dest, '.git', 'info', 'exclude'), 'node_modules\n');
  symlinkSync(join(repoRoot, 'node_modules'), join(dest, 'node_modules'), 'dir');
  return dest;
}

/** `git add -A && git commit`, as a maintainer commits `changeset version`'s result before publishing. */
export async function commitAll(dir: string, message: string): Promise<void> {
  await git(dir, ['add', '--all']);
  await git(dir, ['commit', '--quiet', '--allow-empty', '--no-verify', '-m', message]);
}

/** The tags in `dir`, sorted. */
export async function gitTags(dir: string): Promise<string[]> {
  const { stdout } = await git(dir, ['tag', '--list']);
  return stdout.split('\n').filter(Boolean).sort();
}

function git(dir: string, args: readonly string[]) {
  return run('git', ['-c', 'commit.gpgsign=false', '-c', 'tag.gpgsign=false', ...args], { cwd: dir, env: cleanEnv(GIT_IDENTITY) });
}
