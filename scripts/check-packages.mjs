#!/usr/bin/env node
// Checks every published package (each workspace package that is not
// private) as the registry would receive it: `pnpm pack` (which rewrites
// `workspace:` ranges), then on the tarball
//
//   - publint --strict: package.json fields against the files shipped;
//   - attw --profile esm-only (Are the Types Wrong?): types resolve like the JS;
//   - no `workspace:` range left in the packed package.json;
//   - every module a `reactorMcp` entry names is in the tarball, so discovery
//     can import it (publint cannot know about that field).
//
// Why `--profile esm-only`: the packages are ESM only on purpose ("type":
// "module", `exports` with no CommonJS build, engines node >=20.19). That
// profile leaves out the two resolutions an ESM-only package cannot satisfy
// and need not: `node10` (TypeScript's old `moduleResolution: node`, which
// ignores `exports`, so it cannot see `@reactor/host/testing`; consumers use
// node16/nodenext/bundler) and `node16` from CommonJS (`cjs-resolves-to-esm`:
// a `require()` of an ES module — which Node >=20.19 supports, and which
// TypeScript reports only as a warning). Every ESM and bundler resolution is
// still checked, under the strict rules.
//
// Needs the packages built (`pnpm build`). Usage: node scripts/check-packages.mjs
// Exits non-zero when any check fails; prints one line per package and check.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import process from 'node:process';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const BIN = path.join(ROOT, 'node_modules', '.bin');
const WORKSPACE_FOLDERS = ['packages', 'extensions', 'apps'];

/** Every non-private workspace package: `{ dir, name }`, sorted by folder. */
function publishedPackages() {
  const found = [];
  for (const folder of WORKSPACE_FOLDERS) {
    const parent = path.join(ROOT, folder);
    if (!existsSync(parent)) continue;
    for (const entry of readdirSync(parent, { withFileTypes: true })) {
      const manifestPath = path.join(parent, entry.name, 'package.json');
      if (!entry.isDirectory() || !existsSync(manifestPath)) continue;
      const manifest = JSON.parse(readFileSync(manifestPath, 'utf8'));
      if (manifest.private !== true) found.push({ dir: path.join(parent, entry.name), name: manifest.name });
    }
  }
  return found.sort((a, b) => (a.dir < b.dir ? -1 : 1));
}

/** Runs a command; returns `{ ok, output }` with stdout and stderr together. */
function run(command, args, options = {}) {
  const result = spawnSync(command, args, { encoding: 'utf8', env: { ...process.env, FORCE_COLOR: '0' }, ...options });
  if (result.error) return { ok: false, output: `could not run ${command}: ${result.error.message}` };
  return { ok: result.status === 0, output: `${result.stdout ?? ''}${result.stderr ?? ''}`.trim() };
}

function tool(name) {
  const file = path.join(BIN, process.platform === 'win32' ? `${name}.cmd` : name);
  if (!existsSync(file)) {
    console.error(`check-packages: ${name} is not installed at ${file}; run pnpm install at the repository root`);
    process.exit(2);
  }
  return file;
}

function pack(dir, dest) {
  const own = mkdtempSync(path.join(dest, `${path.basename(dir)}-`));
  const packed = run('pnpm', ['pack', '--pack-destination', own], { cwd: dir });
  if (!packed.ok) throw new Error(`pnpm pack failed in ${dir}:\n${packed.output}`);
  const tarballs = readdirSync(own).filter((f) => f.endsWith('.tgz'));
  if (tarballs.length !== 1) throw new Error(`pnpm pack in ${dir} made ${tarballs.length} tarballs; expected one`);
  return path.join(own, tarballs[0]);
}

/** The checks publint and attw do not make: `workspace:` leaks and `reactorMcp` modules missing from the tarball. */
function checkManifest(tarball) {
  const files = new Set(execFileSync('tar', ['-tzf', tarball], { encoding: 'utf8' }).split('\n').filter(Boolean).map((f) => f.replace(/^package\//, '')));
  const text = execFileSync('tar', ['-xzOf', tarball, 'package/package.json'], { encoding: 'utf8' });
  const problems = [];
  if (text.includes('workspace:')) problems.push('the packed package.json still holds a "workspace:" range');
  const extensions = JSON.parse(text).reactorMcp?.extensions ?? {};
  for (const [name, entry] of Object.entries(extensions)) {
    const module = typeof entry === 'string' ? entry : entry?.module;
    const file = typeof module === 'string' ? path.posix.normalize(module) : undefined;
    if (file === undefined || !files.has(file)) problems.push(`reactorMcp.extensions.${name}: module ${JSON.stringify(module)} is not in the tarball (check "files", and build first)`);
  }
  return { ok: problems.length === 0, output: problems.join('\n') || `${files.size} files; reactorMcp modules present` };
}

const publint = tool('publint');
const attw = tool('attw');
const packages = publishedPackages();
const dest = mkdtempSync(path.join(os.tmpdir(), 'reactor-check-packages-'));
let failures = 0;
try {
  for (const { dir, name } of packages) {
    if (!existsSync(path.join(dir, 'dist'))) {
      console.error(`✗ ${name}: ${path.relative(ROOT, dir)}/dist is missing; run pnpm build first`);
      failures++;
      continue;
    }
    let tarball;
    try {
      tarball = pack(dir, dest);
    } catch (error) {
      console.error(`✗ ${name}: ${error.message}`);
      failures++;
      continue;
    }
    const checks = [
      ['publint', () => run(publint, ['run', tarball, '--strict', '--pack', 'false'])],
      ['attw', () => run(attw, [tarball, '--profile', 'esm-only', '--format', 'ascii', '--no-color', '--no-emoji'])],
      ['manifest', () => checkManifest(tarball)],
    ];
    for (const [label, check] of checks) {
      const { ok, output } = check();
      console.log(`${ok ? '✓' : '✗'} ${name}: ${label}`);
      if (!ok) {
        failures++;
        console.log(output.replace(/^/gm, '    '));
      }
    }
  }
} finally {
  rmSync(dest, { recursive: true, force: true });
}
console.log(`check-packages: ${packages.length} package(s), ${failures === 0 ? 'all checks passed' : `${failures} check(s) failed`}`);
process.exit(failures === 0 ? 0 : 1);
