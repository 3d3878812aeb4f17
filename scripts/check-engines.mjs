#!/usr/bin/env node
// Checks that every package in pnpm-lock.yaml accepts each Node
// version CI tests on, by its package.json `engines.node` — what pnpm and npm
// warn about at install ("Unsupported engine", EBADENGINE). CI installs once,
// on Node 20, so pnpm's own warning only covers that line; this covers the
// others (and the floor, the root package.json's engines.node minimum).
//
// Usage: node scripts/check-engines.mjs [--root DIR] VERSION…   (e.g. 20.19.0 24.21.0 26.10.0)
// Prints one line per package that refuses a version and exits 1, or prints
// "engines: N locked packages accept Node …" and exits 0.
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const repo = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
// semver is a dependency of @reactor/host; the root has no dependencies of its own.
const semver = createRequire(path.join(repo, 'packages', 'host', 'package.json'))('semver');

const { values, positionals } = parseArgs({ options: { root: { type: 'string', default: repo } }, allowPositionals: true });
const root = path.resolve(values.root);
const rootEngines = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')).engines?.node;
const floor = rootEngines === undefined ? undefined : semver.minVersion(rootEngines)?.version;
const versions = [...new Set([...(floor ? [floor] : []), ...positionals.map((v) => v.replace(/^v/, ''))])];
if (versions.length === 0 || versions.some((v) => semver.valid(v) === null)) {
  process.stderr.write(`check-engines: give Node versions like 24.21.0 (got ${JSON.stringify(positionals)})\n`);
  process.exit(2);
}

// The lockfile, not node_modules: it is what every install resolves, on any machine.
const lockfile = path.join(root, 'pnpm-lock.yaml');
if (!existsSync(lockfile)) {
  process.stderr.write(`check-engines: ${lockfile} does not exist\n`);
  process.exit(2);
}
// Its `packages:` section: "  name@version:" then indented fields, "    engines: {node: RANGE, …}".
const section = /^packages:\n([\s\S]*?)(?:^\S|(?![\s\S]))/m.exec(readFileSync(lockfile, 'utf8'))?.[1] ?? '';
// Packages every path to which is optional (`optional: true` in every one of their
// `snapshots:` entries): pnpm and npm skip such a package, silently, on a Node its
// engines refuse — the interop suite's newest clients, which need Node 22, are such.
const snapshots = /^snapshots:\n([\s\S]*?)(?:^\S|(?![\s\S]))/m.exec(readFileSync(lockfile, 'utf8'))?.[1] ?? '';
const optionalOnly = new Map();
for (const [, id, body] of snapshots.matchAll(/^ {2}'?([^\s'(]+)(?:\([^\n]*?\))?'?:\n((?: {4}.*\n?)*)/gm)) {
  const optional = /^ {4}optional: true$/m.test(body);
  optionalOnly.set(id, (optionalOnly.get(id) ?? true) && optional);
}
const refusals = [];
const skippedOptional = [];
let checked = 0;
for (const [, id, body] of section.matchAll(/^ {2}'?([^\s']+)'?:\n((?: {4}.*\n?)*)/gm)) {
  checked += 1;
  const engines = /^ {4}engines: \{(.*)\}$/m.exec(body)?.[1];
  const match = engines === undefined ? null : /(?:^|, )node: (?:'([^']*)'|"([^"]*)"|([^,]*))/.exec(engines);
  const range = match ? (match[1] ?? match[2] ?? match[3]).trim() : undefined;
  if (range === undefined || semver.validRange(range) === null) continue;
  const refused = versions.filter((v) => !semver.satisfies(v, range));
  if (refused.length === 0) continue;
  if (optionalOnly.get(id) === true) skippedOptional.push(`${id} (Node ${range})`);
  else refusals.push(`${id} wants Node ${range}: refuses Node ${refused.join(', ')}`);
}
if (checked === 0) {
  process.stderr.write(`check-engines: found no packages in ${lockfile}\n`);
  process.exit(2);
}
if (refusals.length > 0) {
  process.stdout.write(`engines: ${refusals.length} locked package(s) refuse a Node version CI tests on (pin or override them in pnpm-workspace.yaml):\n`);
  for (const line of refusals.sort()) process.stdout.write(`  ${line}\n`);
  process.exit(1);
}
process.stdout.write(`engines: ${checked} locked packages accept Node ${versions.join(', ')}${skippedOptional.length > 0 ? `, except ${skippedOptional.length} optional one(s) an install skips where refused: ${skippedOptional.sort().join(', ')}` : ''}\n`);
