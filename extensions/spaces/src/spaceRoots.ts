/**
 * Where spaces live. A *root* is configured either as a folder of spaces
 * (each of its visible subfolders is one space, named after the folder) or as
 * one named space (`name=/path/to/folder`, or a `{ name: folder }` record).
 * Roots come from the options, else from `REACTOR_SPACES_ROOT`, else the sample
 * shipped in this package.
 */
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ErrorCodes } from '@reactor/host';
import { spaceError } from './errors.js';

/** The environment variable that lists roots (separated by `path.delimiter`: `:` on POSIX, `;` on Windows). */
export const SPACES_ROOT_ENV = 'REACTOR_SPACES_ROOT';

/**
 * The sample root shipped in the package. Resolved relative to this module, so
 * it works from `src/` (tests) and from `dist/` (the published build) alike.
 */
export const SAMPLE_ROOT: string = fileURLToPath(new URL('../sample', import.meta.url));

/** One configured root: a folder of spaces, or a single named space. */
export type RootEntry =
  | { readonly kind: 'collection'; readonly dir: string }
  | { readonly kind: 'space'; readonly name: string; readonly dir: string };

/** What the `roots` option accepts. */
export type RootsOption = readonly string[] | Readonly<Record<string, string>>;

/** A space: a name a client uses, and the folder it stands for. */
export interface Space {
  /** The name tools and URIs use, e.g. `climate-lab`. */
  readonly name: string;
  /** The folder, absolute (as configured; symbolic links are resolved when paths are checked). */
  readonly dir: string;
}

/** Where the roots in force came from. */
export type RootsSource = 'options' | 'env' | 'sample';

/** The roots in force and where they came from. */
export interface ResolvedRoots {
  readonly entries: readonly RootEntry[];
  readonly source: RootsSource;
}

// A space name: what a folder may be called and a URI can carry once encoded;
// hidden names are excluded because hidden folders are never served.
const NAME_PATTERN = /^[^/\\.\0][^/\\\0]*$/;
// `name=dir` names a single space; a path with a separator before `=` is a folder.
const NAMED_SPEC = /^([A-Za-z0-9_][A-Za-z0-9._-]*)=(.+)$/;

/**
 * Reads one root as written in the options or the environment: `name=dir` is
 * a single space named `name`; anything else is a folder of spaces. Relative
 * folders are resolved against `cwd`.
 */
export function parseRootSpec(spec: string, cwd: string = process.cwd()): RootEntry {
  const named = NAMED_SPEC.exec(spec);
  if (named?.[1] !== undefined && named[2] !== undefined) return { kind: 'space', name: named[1], dir: path.resolve(cwd, named[2]) };
  return { kind: 'collection', dir: path.resolve(cwd, spec) };
}

/**
 * The roots in force: the `roots` option when given, else the environment
 * variable when set and not blank, else the sample. Invalid option values
 * throw `REACTOR_OPTION_INVALID`.
 */
export function resolveRoots(roots: RootsOption | undefined, env: NodeJS.ProcessEnv = process.env, cwd: string = process.cwd()): ResolvedRoots {
  if (roots !== undefined) return { entries: rootsFromOption(roots, cwd), source: 'options' };
  const fromEnv = (env[SPACES_ROOT_ENV] ?? '')
    .split(path.delimiter)
    .map((s) => s.trim())
    .filter((s) => s !== '');
  if (fromEnv.length > 0) return { entries: fromEnv.map((s) => parseRootSpec(s, cwd)), source: 'env' };
  return { entries: [{ kind: 'collection', dir: SAMPLE_ROOT }], source: 'sample' };
}

function rootsFromOption(roots: RootsOption, cwd: string): RootEntry[] {
  const invalid = (expected: string, received: string) =>
    spaceError('option "roots" of extension "spaces"', 'is invalid', { expected, received, hint: 'pass ["/data/spaces"] or { "my-space": "/data/my-space" }' }, ErrorCodes.OPTION_INVALID);
  if (Array.isArray(roots)) {
    return (roots as readonly unknown[]).map((spec) => {
      if (typeof spec !== 'string' || spec.trim() === '') throw invalid('an array of folder paths', 'an array holding something other than a non-empty string');
      return parseRootSpec(spec.trim(), cwd);
    });
  }
  if (typeof roots !== 'object' || roots === null) throw invalid('an array of folders or a record of space names to folders', typeof roots);
  return Object.entries(roots).map(([name, dir]) => {
    if (!NAME_PATTERN.test(name)) throw invalid('space names without "/", "\\" or a leading "."', JSON.stringify(name));
    if (typeof dir !== 'string' || dir.trim() === '') throw invalid(`a folder path for space ${JSON.stringify(name)}`, typeof dir);
    return { kind: 'space', name, dir: path.resolve(cwd, dir) } as const;
  });
}

/**
 * An entry at the top of a folder of spaces that is not served as a space:
 * a symbolic link whose real path is not a folder inside that folder of
 * spaces (it leads outside, or to the folder of spaces itself).
 */
export interface RefusedSpace {
  /** The entry's name, as a space would have been called. */
  readonly name: string;
  /** The folder of spaces it sits in, as configured. */
  readonly root: string;
  /** Where the link leads (its real path). */
  readonly target: string;
  /** Why it is refused, e.g. `a symbolic link leading outside its folder of spaces`. */
  readonly reason: string;
}

/** What the roots hold now: the spaces, and the top-level entries refused as spaces. */
export interface SpacesScan {
  readonly spaces: Space[];
  readonly refused: RefusedSpace[];
}

/**
 * The spaces the roots hold now, in root order then by name. A name seen twice
 * keeps its first folder (earlier roots win). Missing or unreadable roots are
 * skipped here; {@link checkRoots} reports them at start-up.
 */
export async function listSpaces(entries: readonly RootEntry[]): Promise<Space[]> {
  return (await scanSpaces(entries)).spaces;
}

/**
 * {@link listSpaces}, with the entries refused on the way. A symbolic link at
 * the top of a folder of spaces is followed as links inside a space are: only
 * when its real path is a folder inside the folder of spaces' real path (not
 * that folder itself). One leading elsewhere is refused, not served.
 */
export async function scanSpaces(entries: readonly RootEntry[]): Promise<SpacesScan> {
  const spaces: Space[] = [];
  const refused: RefusedSpace[] = [];
  const seen = new Set<string>();
  const add = (space: Space) => {
    if (seen.has(space.name)) return;
    seen.add(space.name);
    spaces.push(space);
  };
  for (const entry of entries) {
    if (entry.kind === 'space') {
      if (await isDirectory(entry.dir)) add({ name: entry.name, dir: entry.dir });
      continue;
    }
    let names: string[];
    let rootReal: string;
    try {
      names = (await fs.readdir(entry.dir)).filter((n) => NAME_PATTERN.test(n) && n !== 'node_modules').sort(compareNames);
      rootReal = await fs.realpath(entry.dir);
    } catch {
      continue;
    }
    for (const name of names) {
      const dir = path.join(entry.dir, name);
      if (!(await isDirectory(dir))) continue;
      const target = await linkTarget(dir);
      if (target !== undefined && (target === rootReal || !isInside(rootReal, target))) {
        const reason = target === rootReal ? 'a symbolic link to its folder of spaces itself' : 'a symbolic link leading outside its folder of spaces';
        refused.push({ name, root: entry.dir, target, reason });
        continue;
      }
      add({ name, dir });
    }
  }
  return { spaces, refused };
}

/** The real path of `file` when it is a symbolic link; undefined when it is not one (or cannot be read). */
async function linkTarget(file: string): Promise<string | undefined> {
  try {
    return (await fs.lstat(file)).isSymbolicLink() ? await fs.realpath(file) : undefined;
  } catch {
    return undefined;
  }
}

/** True when `child` is `parent` or lies below it (both real, absolute paths). */
export function isInside(parent: string, child: string): boolean {
  const rel = path.relative(parent, child);
  return rel === '' || (rel !== '..' && !rel.startsWith(`..${path.sep}`) && !path.isAbsolute(rel));
}

/** Finds a space by its exact name, or throws naming the spaces there are. */
export async function findSpace(entries: readonly RootEntry[], name: string): Promise<Space> {
  const spaces = await listSpaces(entries);
  const found = spaces.find((s) => s.name === name);
  if (found) return found;
  const available = spaces.map((s) => s.name);
  throw spaceError(`space ${JSON.stringify(name)}`, 'not found', {
    expected: available.length > 0 ? `one of: ${available.join(', ')}` : 'a configured space (none is available)',
    hint: available.length > 0 ? 'call list_spaces to see every space' : `set ${SPACES_ROOT_ENV} or the "roots" option to folders that exist`,
  });
}

/** The roots that are not readable folders, described for a start-up error (empty when all are fine). */
export async function checkRoots(entries: readonly RootEntry[]): Promise<string[]> {
  const problems: string[] = [];
  for (const entry of entries) {
    if (!(await isDirectory(entry.dir))) {
      problems.push(entry.kind === 'space' ? `space ${JSON.stringify(entry.name)}: ${entry.dir} is not a readable folder` : `root ${entry.dir} is not a readable folder`);
    }
  }
  return problems;
}

async function isDirectory(dir: string): Promise<boolean> {
  try {
    return (await fs.stat(dir)).isDirectory();
  } catch {
    return false;
  }
}

/** Code-point order: the same listing on every machine and locale. */
export function compareNames(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
