/**
 * No import cycles among the extensions' own modules: a cycle makes load
 * order matter (a module may see another half-initialised) and the two
 * modules one unit. Every relative import counts — `import type` and
 * `export … from` too — in each `.ts` file under the folders below.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const EXTENSIONS = fileURLToPath(new URL('../../', import.meta.url));
const FOLDERS = ['benchmarks/src', 'spaces/src', 'kernels/src'].map((folder) => path.join(EXTENSIONS, folder));

/** Every `.ts` file below `dir`. */
function tsFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith('.ts'))
    .map((entry) => path.join(entry.parentPath, entry.name));
}

/** The files among `known` that `file` imports by a relative path (`./x.js` is the source `./x.ts`). */
function relativeImports(file: string, known: ReadonlySet<string>): string[] {
  const { importedFiles } = ts.preProcessFile(readFileSync(file, 'utf8'), true, true);
  return importedFiles
    .map((imported) => imported.fileName)
    .filter((specifier) => specifier.startsWith('.'))
    .map((specifier) => path.resolve(path.dirname(file), specifier.replace(/\.js$/, '.ts')))
    .filter((target) => known.has(target));
}

/** Each cycle found by a depth-first walk, as the files on it (the first repeated last). */
function findCycles(graph: ReadonlyMap<string, readonly string[]>): string[][] {
  const cycles: string[][] = [];
  const done = new Set<string>();
  const onPath: string[] = [];
  const visit = (file: string) => {
    const at = onPath.indexOf(file);
    if (at >= 0) return void cycles.push([...onPath.slice(at), file]);
    if (done.has(file)) return;
    onPath.push(file);
    for (const next of graph.get(file) ?? []) visit(next);
    onPath.pop();
    done.add(file);
  };
  for (const file of graph.keys()) visit(file);
  return cycles;
}

describe('module imports', () => {
  it('have no cycle among the relative imports of the benchmarks, spaces and kernels sources', () => {
    const files = FOLDERS.flatMap(tsFiles);
    const known = new Set(files);
    const graph = new Map(files.map((file) => [file, relativeImports(file, known)] as const));
    expect(graph.size).toBeGreaterThan(50); // the folders were found and read
    const named = findCycles(graph).map((cycle) => cycle.map((file) => path.relative(EXTENSIONS, file)).join(' → '));
    expect(named).toEqual([]);
  });
});
