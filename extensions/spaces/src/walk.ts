/**
 * Lists a folder of a space, optionally recursively, with the same rules as
 * {@link resolveInSpace}: hidden entries are skipped, symbolic links are
 * followed only when their target stays inside the space (and each real folder
 * is visited once, so a link cycle cannot loop), and the walk is bounded.
 */
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { compareNames, type Space } from './spaceRoots.js';
import { isInside, spaceRealDir } from './safePath.js';

/** One file or folder found by a walk. */
export interface WalkEntry {
  /** `/`-separated, relative to the space. */
  readonly path: string;
  readonly name: string;
  readonly type: 'file' | 'directory';
  /** Bytes (0 for folders). */
  readonly size: number;
  /** Last modification, ISO 8601. */
  readonly modified: string;
  /** The real path on disk. */
  readonly absolute: string;
}

/** Options of {@link walk}. */
export interface WalkOptions {
  /** Descend into subfolders. Default `true`. */
  readonly recursive?: boolean;
  /** Stop after this many entries (the result says it was truncated). Default 10 000. */
  readonly maxEntries?: number;
  /** Include folders themselves in the result. Default `true`. */
  readonly includeDirectories?: boolean;
  /** Checked between folders: a cancelled call stops walking. */
  readonly signal?: AbortSignal;
}

/** What a walk found. */
export interface WalkResult {
  readonly entries: WalkEntry[];
  /** True when `maxEntries` stopped the walk early. */
  readonly truncated: boolean;
}

/** The default bound of a walk. */
export const DEFAULT_MAX_ENTRIES = 10_000;

/**
 * Walks `start` (a folder's relative path and real path, as {@link resolveFolder}
 * returns them) depth-first, entries of a folder in code-point order.
 */
export async function walk(space: Space, start: { readonly relative: string; readonly absolute: string }, options: WalkOptions = {}): Promise<WalkResult> {
  const recursive = options.recursive ?? true;
  const maxEntries = options.maxEntries ?? DEFAULT_MAX_ENTRIES;
  const includeDirectories = options.includeDirectories ?? true;
  const root = await spaceRealDir(space);
  const entries: WalkEntry[] = [];
  // A link back to the start or to any folder above it is a cycle: seed them as visited.
  const visited = new Set<string>([start.absolute]);
  for (let dir = start.absolute; isInside(root, dir) && dir !== root; dir = path.dirname(dir)) visited.add(path.dirname(dir));
  // Depth-first with an explicit stack: deep trees cannot overflow the call stack.
  const stack: Array<{ relative: string; absolute: string }> = [{ relative: start.relative, absolute: start.absolute }];
  while (stack.length > 0) {
    options.signal?.throwIfAborted();
    const folder = stack.pop() as { relative: string; absolute: string };
    let names: string[];
    try {
      names = (await fs.readdir(folder.absolute)).filter((n) => !n.startsWith('.')).sort(compareNames);
    } catch {
      continue; // unreadable folder: skip it, as `ls -R` does
    }
    const subfolders: Array<{ relative: string; absolute: string }> = [];
    for (const name of names) {
      const found = await inspect(root, path.join(folder.absolute, name));
      if (!found) continue;
      const relative = folder.relative === '' ? name : `${folder.relative}/${name}`;
      if (found.type === 'directory') {
        if (visited.has(found.real)) continue;
        visited.add(found.real);
        if (recursive) subfolders.push({ relative, absolute: found.real });
        if (!includeDirectories) continue;
      }
      if (entries.length >= maxEntries) return { entries: entries.sort(byPath), truncated: true };
      entries.push({ path: relative, name, type: found.type, size: found.size, modified: found.modified, absolute: found.real });
    }
    // Reversed so the first subfolder is walked first.
    for (let i = subfolders.length - 1; i >= 0; i--) stack.push(subfolders[i] as { relative: string; absolute: string });
  }
  return { entries: entries.sort(byPath), truncated: false };
}

function byPath(a: WalkEntry, b: WalkEntry): number {
  return compareTreePaths(a.path, b.path);
}

/** Tree order, the order of every listing: a folder's entries directly after it, segment by segment. */
export function compareTreePaths(a: string, b: string): number {
  const x = a.split('/');
  const y = b.split('/');
  for (let i = 0; i < Math.min(x.length, y.length); i++) {
    const order = compareNames(x[i] as string, y[i] as string);
    if (order !== 0) return order;
  }
  return x.length - y.length;
}

// What one directory entry is, following a symbolic link only when its target
// stays inside the space; undefined for anything not to be listed.
async function inspect(root: string, candidate: string): Promise<{ type: 'file' | 'directory'; real: string; size: number; modified: string } | undefined> {
  try {
    const lstat = await fs.lstat(candidate);
    let real = candidate;
    if (lstat.isSymbolicLink()) {
      real = await fs.realpath(candidate);
      if (!isInside(root, real)) return undefined;
    }
    const stats = lstat.isSymbolicLink() ? await fs.stat(real) : lstat;
    if (stats.isDirectory()) return { type: 'directory', real, size: 0, modified: stats.mtime.toISOString() };
    if (stats.isFile()) return { type: 'file', real, size: stats.size, modified: stats.mtime.toISOString() };
    return undefined; // sockets, pipes, devices: never listed, never read
  } catch {
    return undefined; // a broken link or a file removed mid-walk
  }
}
