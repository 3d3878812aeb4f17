/**
 * The package's layers, lowest first, and the rule CI keeps: a module imports
 * only modules of its own layer or of the layers listed before it (type
 * imports, re-exports and dynamic `import()` included, as TypeScript reads
 * them), and no import cycle exists. A new file belongs in a layer's folder;
 * a file that fits none fails here until its place is decided.
 *
 * A layer is a folder (or one file) under `src/`; a module belongs to the most
 * specific layer whose path it is or sits under.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

export const LAYERS: ReadonlyArray<readonly [layer: string, holds: string]> = [
  ['kernel', 'errors, the logger, caches, small helpers: imports nothing of ours'],
  ['selection', 'the URL grammar: selections, form encoding, tool filters'],
  ['contract', 'what extension authors write against: extension, tool, toolset, tool extension, middleware, resource, prompt, schema, availability'],
  ['telemetry', 'spans, metrics and request records (@opentelemetry/api only)'],
  ['host/internals.ts', 'the symbols that key McpHost\'s internals (imports nothing; no entry point exports it)'],
  ['host/registry', 'registered extensions, their contributions, lifecycle, dependency order, deferred load'],
  ['host/build', 'resolving a selection into a blueprint: collisions, tool extensions applied, schemas, tool views, a call\'s signal'],
  ['host/mint', 'the one place that makes SDK servers from a blueprint (and the SDK internals it records)'],
  ['host', 'McpHost, the facade: options, the blueprint cache, reports, changes, token counts, list_server_toolsets'],
  ['discovery', 'reactorMcp and adopt fields of installed packages, server.json'],
  ['serve/stdio.ts', 'serving over stdio'],
  ['serve/http/jsonRpc.ts', 'the JSON-RPC error answers every HTTP part gives'],
  ['serve/http/sessions', '2025 sessions: the store, a shared registry\'s interface, restore, event stores'],
  ['serve/http', 'the HTTP endpoint: options, protocol eras, guards, CORS, the request\'s selection, info routes, auth'],
  ['serve/http/fast', 'the fast path: shared servers and lean dispatch for stateless requests (the core never imports it)'],
  ['serve/http/app.ts', 'createMcpApp: composes the endpoint, sessions and the fast path'],
  ['serve/http/index.ts', 'the @reactor/host/http entry'],
  ['auth', 'token verifiers as a library: JWT/JWKS, introspection, static tokens'],
  ['check', 'checking an extension package (reactor-mcp-server check)'],
  ['testing', '@reactor/host/testing: in-memory connections, contexts, contract checks'],
  ['command/auth', 'the command\'s auth options and summary'],
  ['command/metrics', 'the command\'s Prometheus metrics server'],
  ['command', 'the reactor-mcp-server command: options, start-up summary, cluster control, watch mode'],
  ['index.ts', 'the package\'s entry points'],
  ['cli.ts', 'the executable'],
];

/** An import of one module by another, as found in the source. */
export interface ImportEdge {
  readonly from: string;
  readonly to: string;
}

/** The layer `file` (a path relative to `src/`, with `/`) belongs to; undefined when it fits none. */
export function layerOf(file: string, layers: ReadonlyArray<readonly [string, string]> = LAYERS): number | undefined {
  let best: number | undefined;
  layers.forEach(([layer], index) => {
    if (file !== layer && !file.startsWith(`${layer}/`)) return;
    if (best === undefined || layer.length > layers[best]![0].length) best = index;
  });
  return best;
}

/** Imports that point up the layer order, as readable lines. */
export function upwardImports(edges: readonly ImportEdge[], layers: ReadonlyArray<readonly [string, string]> = LAYERS): string[] {
  const found: string[] = [];
  for (const { from, to } of edges) {
    const own = layerOf(from, layers);
    const target = layerOf(to, layers);
    if (own !== undefined && target !== undefined && target > own) found.push(`${from} (${layers[own]![0]}) imports ${to} (${layers[target]![0]}, a layer above)`);
  }
  return found;
}

/** Every import cycle (a strongly connected set of two or more modules, or a module importing itself), each as a path that closes. */
export function importCycles(edges: readonly ImportEdge[]): string[][] {
  const next = new Map<string, string[]>();
  for (const { from, to } of edges) {
    if (!next.has(to)) next.set(to, []);
    const list = next.get(from) ?? [];
    list.push(to);
    next.set(from, list);
  }
  // Tarjan's strongly connected components, then one closing path through each.
  let counter = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const cycles: string[][] = [];
  const visit = (v: string): void => {
    index.set(v, counter);
    low.set(v, counter++);
    stack.push(v);
    onStack.add(v);
    for (const w of next.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) !== index.get(v)) return;
    const component: string[] = [];
    let w: string;
    do {
      w = stack.pop()!;
      onStack.delete(w);
      component.push(w);
    } while (w !== v);
    if (component.length > 1 || next.get(v)!.includes(v)) cycles.push(closingPath(v, new Set(component), next));
  };
  for (const v of [...next.keys()].sort()) if (!index.has(v)) visit(v);
  return cycles;
}

/** A path from `start` back to itself inside `component` (breadth first, so the shortest). */
function closingPath(start: string, component: ReadonlySet<string>, next: ReadonlyMap<string, string[]>): string[] {
  const cameFrom = new Map<string, string>();
  const queue = [start];
  while (queue.length > 0) {
    const v = queue.shift()!;
    for (const w of next.get(v) ?? []) {
      if (!component.has(w)) continue;
      if (w === start) {
        const path = [start];
        for (let at = v; at !== start; at = cameFrom.get(at)!) path.splice(1, 0, at);
        return [...path, start];
      }
      if (!cameFrom.has(w)) {
        cameFrom.set(w, v);
        queue.push(w);
      }
    }
  }
  return [start, start];
}

const SRC = path.dirname(fileURLToPath(import.meta.url));

/** Every module of `src/` (tests excluded), relative to it, with `/`. */
function sourceModules(): string[] {
  return readdirSync(SRC, { recursive: true, encoding: 'utf8' })
    .map((f) => f.split(path.sep).join('/'))
    .filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts') && !f.endsWith('.d.ts'))
    .sort();
}

/** The relative imports of every module, as TypeScript's pre-processor finds them (type imports and dynamic imports included). */
function importEdges(modules: readonly string[]): ImportEdge[] {
  const known = new Set(modules);
  const edges: ImportEdge[] = [];
  for (const from of modules) {
    const info = ts.preProcessFile(readFileSync(path.join(SRC, from), 'utf8'), true, true);
    for (const { fileName } of info.importedFiles) {
      // Packages, and data files such as package.json, are not modules of ours.
      if (!fileName.startsWith('.') || fileName.endsWith('.json')) continue;
      const to = path.posix.normalize(path.posix.join(path.posix.dirname(from), fileName.replace(/\.js$/, '.ts')));
      if (!known.has(to)) throw new Error(`${from} imports "${fileName}", which is no module of src/`);
      edges.push({ from, to });
    }
  }
  return edges;
}

describe('the layers of @reactor/host', () => {
  const modules = sourceModules();
  const edges = importEdges(modules);

  it('every module belongs to a layer', () => {
    expect(modules.filter((m) => layerOf(m) === undefined)).toEqual([]);
  });

  it('no module imports a layer above its own', () => {
    expect(upwardImports(edges)).toEqual([]);
  });

  it('no import cycle, type imports included', () => {
    expect(importCycles(edges).map((cycle) => cycle.join(' → '))).toEqual([]);
  });

  it('only the entry points sit at the top of src/', () => {
    expect(modules.filter((m) => !m.includes('/'))).toEqual(['cli.ts', 'index.ts']);
  });

  it('reads type imports and re-exports too (the checker sees what TypeScript sees)', () => {
    const from = edges.filter((e) => e.from === 'host/build/toolView.ts').map((e) => e.to);
    expect(from).toContain('host/build/cacheTypes.ts'); // an `import type`
    expect(edges.some((e) => e.from === 'index.ts' && e.to === 'contract/tool.ts')).toBe(true); // an `export … from`
  });
});

describe('the checker itself', () => {
  const layers = [
    ['low', ''],
    ['high', ''],
    ['high/special.ts', ''],
  ] as const;

  it('places a module in the most specific layer that holds it', () => {
    expect(layerOf('low/a.ts', layers)).toBe(0);
    expect(layerOf('high/b.ts', layers)).toBe(1);
    expect(layerOf('high/special.ts', layers)).toBe(2);
    expect(layerOf('lower/c.ts', layers)).toBeUndefined();
  });

  it('reports an import up the order, and accepts one down it or within a layer', () => {
    const edges = [
      { from: 'high/b.ts', to: 'low/a.ts' },
      { from: 'high/b.ts', to: 'high/c.ts' },
      { from: 'low/a.ts', to: 'high/special.ts' },
    ];
    expect(upwardImports(edges, layers)).toEqual(['low/a.ts (low) imports high/special.ts (high/special.ts, a layer above)']);
  });

  it('finds each cycle and names its path', () => {
    const edges = [
      { from: 'a', to: 'b' },
      { from: 'b', to: 'c' },
      { from: 'c', to: 'a' },
      { from: 'c', to: 'd' },
      { from: 'e', to: 'e' },
    ];
    expect(importCycles(edges)).toEqual([['a', 'b', 'c', 'a'], ['e', 'e']]);
    expect(importCycles([{ from: 'a', to: 'b' }])).toEqual([]);
  });
});
