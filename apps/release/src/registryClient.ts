/**
 * Reading what a registry serves, as a client would: the packument (a
 * package's metadata document) and the tarballs it links to.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative, sep } from 'node:path';
import { cleanEnv } from './integrator.js';
import { run } from './run.js';

/** The parts of a packument the rehearsal reads. */
export interface Packument {
  readonly name: string;
  readonly 'dist-tags': Readonly<Record<string, string>>;
  readonly versions: Readonly<Record<string, { peerDependencies?: Record<string, string>; dist: { tarball: string } }>>;
}

/** `GET <registry>/<name>`. */
export async function packument(registry: string, name: string): Promise<Packument> {
  const response = await fetch(new URL(name.replace('/', '%2f'), registry));
  if (!response.ok) throw new Error(`the registry at ${registry} answered ${response.status} for ${name}`);
  return (await response.json()) as Packument;
}

/** A downloaded tarball: its size and every file in it (relative to the package root) with its text. */
export interface Tarball {
  readonly bytes: number;
  readonly files: ReadonlyMap<string, string>;
}

/** Downloads `name@version`'s tarball from `registry` and reads it. */
export async function downloadTarball(registry: string, name: string, version: string): Promise<Tarball> {
  const doc = await packument(registry, name);
  const url = doc.versions[version]?.dist.tarball;
  if (url === undefined) throw new Error(`${name}@${version} is not on the registry at ${registry} (it has ${Object.keys(doc.versions).join(', ') || 'no version'})`);
  const response = await fetch(url);
  if (!response.ok) throw new Error(`downloading ${url} failed: ${response.status}`);
  const data = Buffer.from(await response.arrayBuffer());
  const dir = mkdtempSync(join(tmpdir(), 'reactor-tarball-'));
  try {
    writeFileSync(join(dir, 'package.tgz'), data);
    await run('tar', ['-xzf', 'package.tgz'], { cwd: dir, env: cleanEnv() });
    const root = join(dir, 'package');
    const files = new Map<string, string>();
    for (const file of walk(root)) files.set(relative(root, file).split(sep).join('/'), readFileSync(file, 'utf8'));
    return { bytes: data.length, files };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

function* walk(dir: string): Generator<string> {
  for (const entry of readdirSync(dir)) {
    const path = join(dir, entry);
    if (statSync(path).isDirectory()) yield* walk(path);
    else yield path;
  }
}
