/**
 * Which installed extension packages watch mode follows: those linked into the
 * application rather than installed — workspace packages (pnpm, npm and yarn
 * workspaces link them) and `npm link`/`file:` links — whose real directory is
 * outside any node_modules. A package installed from the registry does not
 * change while you work, so it is not watched.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { locatePackage } from '../../discovery/discovery.js';

/** A linked extension package. */
export interface LinkedPackage {
  readonly name: string;
  /** Its real directory. */
  readonly dir: string;
  /** True when its package.json has a `build` script (run on a source change). */
  readonly buildable: boolean;
}

/** The application's linked dependencies that declare extensions (`reactorMcp`). */
export async function linkedExtensionPackages(root: string): Promise<LinkedPackage[]> {
  const app = JSON.parse(await readFile(path.join(root, 'package.json'), 'utf8')) as { dependencies?: Record<string, string>; optionalDependencies?: Record<string, string> };
  const names = [...new Set([...Object.keys(app.dependencies ?? {}), ...Object.keys(app.optionalDependencies ?? {})])];
  const found = await Promise.all(
    names.map(async (name): Promise<LinkedPackage | undefined> => {
      const dir = await locatePackage(name, root);
      if (dir === undefined || dir.split(path.sep).includes('node_modules')) return undefined;
      const pkg = JSON.parse(await readFile(path.join(dir, 'package.json'), 'utf8')) as { reactorMcp?: unknown; scripts?: Record<string, string> };
      if (pkg.reactorMcp === undefined) return undefined;
      return { name, dir, buildable: typeof pkg.scripts?.build === 'string' };
    }),
  );
  return found.filter((p): p is LinkedPackage => p !== undefined);
}
