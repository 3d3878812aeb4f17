/**
 * What a user of a registry expects of each published package, checked on the
 * tarball the registry serves. Pure: it judges a file listing and a manifest,
 * so each rule has a small test beside it and the rehearsal runs the same
 * rules on the real tarballs.
 */
import { posix } from 'node:path';
import semver from 'semver';

/** A published package as its tarball holds it. */
export interface PackedPackage {
  /** The directory in the repository (`packages/host`): `repository.directory` must name it. */
  readonly path: string;
  /** The repository URL every package must name (the root package.json's), so provenance and links point to one place. */
  readonly repositoryUrl: string;
  /** The tarball's size in bytes, as downloaded. */
  readonly bytes: number;
  /** The tarball's most bytes allowed. */
  readonly budget: number;
  /** Every file, relative to the package root (`dist/index.js`), with its text. */
  readonly files: ReadonlyMap<string, string>;
}

/** The oldest and newest Node lines the packages promise to run on: `engines.node` must accept both. */
const NODE_LINES = ['20.19.0', '22.12.0'];

const TEST_FILE = /(^|\/)(__tests__|tests?)\/|\.(test|spec)\.[cm]?[jt]sx?$/;
const SOURCE_MAP_URL = /^\/\/# sourceMappingURL=(?!data:)(\S+)\s*$/m;

/** Every problem found, as sentences naming the file or field; empty when the package is what a user expects. */
export function packageProblems(pkg: PackedPackage): string[] {
  const manifestText = pkg.files.get('package.json');
  if (manifestText === undefined) return ['package.json is missing from the tarball'];
  const manifest = JSON.parse(manifestText) as Record<string, unknown>;
  return [
    ...documents(pkg.files),
    ...metadata(manifest, pkg.path, pkg.repositoryUrl),
    ...exportsProblems(manifest, pkg.files),
    ...[...pkg.files.keys()].filter((f) => TEST_FILE.test(f)).map((f) => `${f}: a test file is published (leave tests out with "files")`),
    ...sourceMapProblems(pkg.files),
    ...(pkg.bytes > pkg.budget ? [`the tarball is ${kib(pkg.bytes)}, over its budget of ${kib(pkg.budget)}`] : []),
  ];
}

/** Sizes in KiB with one decimal, as reported. */
export function kib(bytes: number): string {
  return `${(bytes / 1024).toFixed(1)} KiB`;
}

function documents(files: ReadonlyMap<string, string>): string[] {
  const wanted: Array<[label: string, pattern: RegExp]> = [
    ['README.md', /^readme(\.md)?$/i],
    ['LICENSE', /^licen[cs]e(\.md|\.txt)?$/i],
    ['CHANGELOG.md (written by `changeset version`; list it in "files")', /^changelog\.md$/i],
  ];
  return wanted.filter(([, pattern]) => ![...files.keys()].some((f) => pattern.test(f))).map(([label]) => `${label} is missing from the tarball`);
}

function metadata(manifest: Record<string, unknown>, path: string, repositoryUrl: string): string[] {
  const problems: string[] = [];
  const field = (name: string) => manifest[name];
  for (const name of ['description', 'license', 'homepage'] as const) {
    if (typeof field(name) !== 'string' || field(name) === '') problems.push(`package.json "${name}" is missing`);
  }
  const repository = field('repository') as { type?: unknown; url?: unknown; directory?: unknown } | undefined;
  if (typeof repository !== 'object' || repository === null || typeof repository.url !== 'string') {
    problems.push('package.json "repository" is missing (an object with "type", "url" and "directory")');
  } else if (repository.url !== repositoryUrl) {
    problems.push(`package.json "repository.url" is ${JSON.stringify(repository.url)}; expected the repository's ${JSON.stringify(repositoryUrl)}`);
  } else if (repository.directory !== path) {
    problems.push(`package.json "repository.directory" is ${JSON.stringify(repository.directory)}; expected "${path}"`);
  }
  const bugs = field('bugs') as { url?: unknown } | string | undefined;
  if (!(typeof bugs === 'string' || (typeof bugs === 'object' && bugs !== null && typeof bugs.url === 'string'))) problems.push('package.json "bugs" is missing');
  const node = (field('engines') as { node?: unknown } | undefined)?.node;
  if (typeof node !== 'string' || semver.validRange(node) === null) {
    problems.push('package.json "engines.node" is missing or not a semver range');
  } else {
    for (const line of NODE_LINES) if (!semver.satisfies(line, node)) problems.push(`package.json "engines.node" is "${node}", which refuses Node ${line}`);
  }
  const publishConfig = field('publishConfig') as { access?: unknown } | undefined;
  if (publishConfig?.access !== 'public') problems.push('package.json "publishConfig.access" is not "public" (a scoped package is private by default)');
  if (JSON.stringify(manifest).includes('"workspace:')) problems.push('package.json still holds a "workspace:" range (publish with pnpm, which rewrites them)');
  return problems;
}

/** Every `exports` entry has types that exist, and every target (and `bin`) is in the tarball. */
function exportsProblems(manifest: Record<string, unknown>, files: ReadonlyMap<string, string>): string[] {
  const exportsField = manifest['exports'];
  if (typeof exportsField !== 'object' || exportsField === null) return ['package.json "exports" is missing'];
  const problems: string[] = [];
  const has = (target: string) => files.has(posix.normalize(target));
  for (const [subpath, entry] of Object.entries(exportsField as Record<string, unknown>)) {
    if (typeof entry === 'string') {
      if (!has(entry)) problems.push(`exports["${subpath}"] points to ${entry}, which is not in the tarball`);
      continue;
    }
    const conditions = entry as Record<string, unknown>;
    const types = conditions['types'];
    if (typeof types !== 'string' || !/\.d\.[cm]?ts$/.test(types)) problems.push(`exports["${subpath}"] has no "types" condition naming a .d.ts file`);
    for (const [condition, target] of Object.entries(conditions)) {
      if (typeof target === 'string' && !has(target)) problems.push(`exports["${subpath}"]["${condition}"] points to ${target}, which is not in the tarball`);
    }
  }
  const bin = manifest['bin'];
  const bins = typeof bin === 'string' ? { [String(manifest['name'])]: bin } : ((bin ?? {}) as Record<string, string>);
  for (const [name, target] of Object.entries(bins)) if (!has(target)) problems.push(`bin "${name}" points to ${target}, which is not in the tarball`);
  return problems;
}

/** A source map whose sources are not shipped sends a debugger (and "go to definition") nowhere. */
function sourceMapProblems(files: ReadonlyMap<string, string>): string[] {
  const problems: string[] = [];
  for (const [file, text] of files) {
    if (/\.(js|mjs|cjs|d\.ts)$/.test(file)) {
      const url = SOURCE_MAP_URL.exec(text)?.[1];
      if (url !== undefined && !files.has(posix.join(posix.dirname(file), url))) problems.push(`${file}: its sourceMappingURL ${url} is not in the tarball`);
    }
    if (file.endsWith('.map')) {
      let map: { sources?: unknown; sourceRoot?: unknown };
      try {
        map = JSON.parse(text) as typeof map;
      } catch {
        problems.push(`${file}: not valid JSON`);
        continue;
      }
      const root = typeof map.sourceRoot === 'string' ? map.sourceRoot : '';
      for (const source of Array.isArray(map.sources) ? (map.sources as unknown[]) : []) {
        if (typeof source !== 'string' || /^[a-z]+:/i.test(source)) continue;
        const resolved = posix.normalize(posix.join(posix.dirname(file), root, source));
        if (!files.has(resolved)) problems.push(`${file}: its source ${source} (${resolved}) is not in the tarball`);
      }
    }
  }
  return problems;
}
