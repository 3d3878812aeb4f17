/**
 * Runs the host's TypeScript in a plain `node` child process (the stdio test)
 * without a build step or a loader: the sources are transpiled once into a
 * temporary directory whose `node_modules` points at this package's.
 */
import { mkdir, mkdtemp, readdir, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

/** This package's root (`packages/host`). */
export const PACKAGE_ROOT = fileURLToPath(new URL('../../', import.meta.url));

async function* typescriptFiles(dir: string): AsyncGenerator<string> {
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) yield* typescriptFiles(path);
    else if (entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts') && !entry.name.endsWith('.d.ts')) yield path;
  }
}

/** A transpiled copy of `src/` and `test/helpers/`; `path('test/helpers/x.js')` locates a file in it. */
export interface Transpiled {
  readonly dir: string;
  path(relativePath: string): string;
  remove(): Promise<void>;
}

/** Transpiles `src/**` and `test/helpers/**` (tests excluded) into a temporary directory. */
export async function transpileForChild(): Promise<Transpiled> {
  const dir = await mkdtemp(join(tmpdir(), 'reactor-host-child-'));
  for (const folder of ['src', 'test/helpers']) {
    for await (const file of typescriptFiles(join(PACKAGE_ROOT, folder))) {
      const { outputText } = ts.transpileModule(await readFile(file, 'utf8'), {
        fileName: file,
        compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022, verbatimModuleSyntax: true },
      });
      const out = join(dir, relative(PACKAGE_ROOT, file)).replace(/\.ts$/, '.js');
      await mkdir(dirname(out), { recursive: true });
      await writeFile(out, outputText);
    }
  }
  // The real name and version: the transpiled host reads its version from here (serverInfo.version).
  const { name, version } = JSON.parse(await readFile(new URL('../../package.json', import.meta.url), 'utf8')) as { name: string; version: string };
  await writeFile(join(dir, 'package.json'), `${JSON.stringify({ name, version, type: 'module' })}\n`);
  await symlink(join(PACKAGE_ROOT, 'node_modules'), join(dir, 'node_modules'), 'dir');
  return { dir, path: (relativePath) => join(dir, relativePath), remove: () => rm(dir, { recursive: true, force: true }) };
}
