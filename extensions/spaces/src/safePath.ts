/**
 * The one gate between a path a client sent and the file system. A path is
 * relative to its space, uses `/` (a `\` counts as one too, so Windows-style
 * `..\..` is caught everywhere), and may not leave the space: not by `..`, not
 * by being absolute, not through a symbolic link whose target lies outside.
 * Hidden entries (a segment starting with `.`) are refused as well, so
 * `.git`, `.env` and the like are never served.
 */
import type { Stats } from 'node:fs';
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { pathSubject, spaceError } from './errors.js';
import { isInside, type Space } from './spaceRoots.js';

/** A path checked and found inside its space. */
export interface ResolvedPath {
  readonly space: Space;
  /** Normalised, `/`-separated, relative to the space; `''` for the space itself. */
  readonly relative: string;
  /** The real path on disk (symbolic links resolved), inside the space's real folder. */
  readonly absolute: string;
  readonly stats: Stats;
}

const HINT = 'give a path relative to the space, like "data/results.csv"; call list_files to see what is there';

/**
 * Normalises a client's path lexically, without touching the disk. Throws for
 * a NUL byte, an absolute path, a `..` that climbs above the space, or a
 * hidden segment. Returns `''` for the space itself (`''`, `.`, `/`-free).
 */
export function normalizeSpacePath(space: string, userPath: string): string {
  const subject = pathSubject(space, userPath);
  if (userPath.includes('\0')) throw spaceError(subject, 'contains a NUL byte', { hint: HINT });
  const slashed = userPath.replace(/\\/g, '/');
  if (slashed.startsWith('/') || /^[A-Za-z]:(\/|$)/.test(slashed)) {
    throw spaceError(subject, 'path escapes the space: it is absolute', { expected: 'a path relative to the space', hint: HINT });
  }
  const segments: string[] = [];
  for (const segment of slashed.split('/')) {
    if (segment === '' || segment === '.') continue;
    if (segment === '..') {
      if (segments.length === 0) throw spaceError(subject, 'path escapes the space: ".." climbs above its folder', { expected: 'a path that stays inside the space', hint: HINT });
      segments.pop();
      continue;
    }
    if (segment.startsWith('.')) throw spaceError(subject, `is hidden ("${segment}"): hidden files and folders are not served`, { hint: HINT });
    segments.push(segment);
  }
  return segments.join('/');
}

/** The real folder of a space (its symbolic links resolved): the boundary every path is checked against. */
export async function spaceRealDir(space: Space): Promise<string> {
  try {
    return await fs.realpath(space.dir);
  } catch (error) {
    throw spaceError(`space ${JSON.stringify(space.name)}`, 'is no longer readable', { hint: 'its folder was moved or removed; call list_spaces', cause: error });
  }
}

// `isInside` lives with the roots, whose top-level links it checks too; the path checks here use it as well.
export { isInside };

/**
 * Resolves a client's path inside a space and checks it on disk: it must
 * exist, and its real path (every symbolic link followed) must stay inside the
 * space's real folder. `realDir` may be passed when already known.
 */
export async function resolveInSpace(space: Space, userPath: string, realDir?: string): Promise<ResolvedPath> {
  const relative = normalizeSpacePath(space.name, userPath);
  const root = realDir ?? (await spaceRealDir(space));
  const joined = relative === '' ? root : path.join(root, ...relative.split('/'));
  let real: string;
  try {
    real = await fs.realpath(joined);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') {
      throw spaceError(pathSubject(space.name, relative), 'not found', { hint: 'call list_files (or find_notebooks) to see what the space holds' });
    }
    throw spaceError(pathSubject(space.name, relative), `cannot be read (${code ?? 'error'})`, { hint: 'check the file\'s permissions', cause: error });
  }
  if (!isInside(root, real)) {
    throw spaceError(pathSubject(space.name, relative), 'path escapes the space: a symbolic link points outside it', { hint: 'only files inside the space\'s folder are served' });
  }
  return { space, relative, absolute: real, stats: await fs.stat(real) };
}

/** Resolves a path that must be a regular file (not a folder, pipe or device). */
export async function resolveFile(space: Space, userPath: string): Promise<ResolvedPath> {
  const resolved = await resolveInSpace(space, userPath);
  if (resolved.stats.isDirectory()) {
    throw spaceError(pathSubject(space.name, resolved.relative), 'is a folder, not a file', { hint: 'call list_files with this path to see its contents' });
  }
  if (!resolved.stats.isFile()) throw spaceError(pathSubject(space.name, resolved.relative), 'is not a regular file', { hint: 'only regular files can be read' });
  return resolved;
}

/** Resolves a path that must be a folder (`''` is the space itself). */
export async function resolveFolder(space: Space, userPath: string): Promise<ResolvedPath> {
  const resolved = await resolveInSpace(space, userPath);
  if (!resolved.stats.isDirectory()) {
    throw spaceError(pathSubject(space.name, resolved.relative), 'is a file, not a folder', { hint: 'call read_file (or read_notebook) to read it' });
  }
  return resolved;
}
