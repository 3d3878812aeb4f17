/**
 * The command's optional catalog: `@reactor/catalog` is not a dependency of
 * the host (it brings a tokenizer the core does without). When the
 * application installed it, the command imports it — located from the
 * application's directory like an extension, so it works under pnpm's
 * isolated layout — and turns the page on; when not, the command serves
 * without a page.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { findAppRoot, locatePackage } from '../discovery/discovery.js';
import type { McpAppOptions } from '../serve/http/options.js';

/** The package the command looks for. */
export const CATALOG_PACKAGE = '@reactor/catalog';

/** What the catalog package adds to the app's options. */
export type CatalogAppOptions = Pick<McpAppOptions, 'catalog' | 'tokenCounter'>;

/** A package's import entry: `exports["."]` (import or default condition), else `main`. */
export function entryOf(pkg: { exports?: unknown; main?: unknown }): string | undefined {
  const dot = typeof pkg.exports === 'object' && pkg.exports !== null ? (pkg.exports as Record<string, unknown>)['.'] ?? pkg.exports : pkg.exports;
  if (typeof dot === 'string') return dot;
  if (typeof dot === 'object' && dot !== null) {
    const conditions = dot as Record<string, unknown>;
    const target = conditions['import'] ?? conditions['default'];
    if (typeof target === 'string') return target;
  }
  return typeof pkg.main === 'string' ? pkg.main : undefined;
}

/**
 * Imports `@reactor/catalog` from the application at `root` (default: the
 * nearest package.json above the working directory) and returns its options;
 * undefined when it is not installed. Throws when it is installed but broken.
 */
export async function loadCatalog(root: string | undefined): Promise<CatalogAppOptions | undefined> {
  const dir = await locatePackage(CATALOG_PACKAGE, root ?? (await findAppRoot(process.cwd())));
  if (dir === undefined) return undefined;
  const pkg = JSON.parse(await readFile(path.join(dir, 'package.json'), 'utf8')) as { exports?: unknown; main?: unknown; version?: string };
  const entry = entryOf(pkg);
  if (entry === undefined) throw new Error(`${CATALOG_PACKAGE} at ${dir} names no module to import (package.json "exports")`);
  const mod = (await import(pathToFileURL(path.join(dir, entry)).href)) as { catalogOptions?: unknown };
  if (typeof mod.catalogOptions !== 'function') throw new Error(`${CATALOG_PACKAGE}@${pkg.version ?? '?'} at ${dir} exports no catalogOptions(); expected a version matching this host`);
  return (mod.catalogOptions as () => CatalogAppOptions)();
}
