import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadExtensions } from '../src/discovery/discovery.js';
import { ErrorCodes } from '../src/kernel/errors.js';
import { silentLogger } from '../src/kernel/logger.js';
import { extensionSource, layoutApp, type FixtureApp, type FixturePackage } from './fixtures/packages.js';

/** The same set of extension packages, installed in each layout. */
const packages: FixturePackage[] = [
  {
    name: '@acme/ext-benchmarks',
    version: '2.1.0',
    fields: { description: 'Benchmarks for Reactor.' },
    reactorMcp: {
      extensions: {
        benchmarks: {
          module: './dist/benchmarks.js',
          activationEvents: ['onToolset:benchmarks'],
          toolsets: [{ name: 'benchmarks', description: 'Read what a benchmark run did.', default: false }],
        },
      },
    },
    files: {
      'dist/benchmarks.js': extensionSource({ name: 'benchmarks', activationEvents: ['onToolset:benchmarks'], toolsets: [{ name: 'benchmarks', default: false }], tools: ['list_runs'] }),
    },
  },
  {
    // CommonJS, short form.
    name: 'cjs-spaces',
    type: 'commonjs',
    reactorMcp: { extensions: { spaces: './lib/index.js' } },
    files: { 'lib/index.js': extensionSource({ format: 'cjs', name: 'spaces', tools: ['list_spaces'] }) },
  },
  {
    // Its exports map hides package.json: discovery must not go through it.
    name: 'hidden-exports',
    fields: { exports: { '.': './dist/index.js' } },
    reactorMcp: { extensions: { hidden: { module: './dist/internal/hidden.js' } } },
    files: {
      'dist/index.js': 'export {};\n',
      // Imports a dependency of its own, which pnpm puts beside the package, not in the app's node_modules.
      'dist/internal/hidden.js': `import { toolName } from 'private-helper';\n${extensionSource({ name: 'hidden', tools: ['hidden_tool'] }).replace('"hidden_tool"', 'toolName')}`,
    },
    dependencies: [{ name: 'private-helper', hostRange: null, fields: { main: 'index.js' }, files: { 'index.js': "export const toolName = 'hidden_tool';\n" } }],
  },
  {
    // Two extensions in one package: a factory under a named export and a class.
    name: 'shapes',
    version: '0.3.0',
    reactorMcp: {
      extensions: {
        'from-factory': { module: './factory.js', export: 'createExtension' },
        'from-class': { module: './class.cjs' },
      },
    },
    files: {
      'factory.js': extensionSource({ name: 'from-factory', version: '0.3.0', shape: 'factory', exportName: 'createExtension', tools: ['made_by_factory'] }),
      'class.cjs': extensionSource({ format: 'cjs', name: 'from-class', version: '0.3.0', shape: 'class', tools: ['made_by_class'] }),
    },
  },
  // A plain library: no reactorMcp field, so not an extension.
  { name: 'left-pad', hostRange: null, files: { 'index.js': 'export default (s) => s;\n' } },
  // An optional dependency that is not installed is skipped silently.
  { name: 'optional-missing', optional: true, notInstalled: true },
];

describe.each(['pnpm', 'hoisted'] as const)('discovery in a %s layout', (layout) => {
  let app: FixtureApp;
  beforeAll(async () => {
    app = await layoutApp(layout, packages);
  });
  afterAll(() => app.remove());

  it('returns one deferred entry per declared extension, sorted by extension name, skipping plain libraries', async () => {
    const entries = await loadExtensions({ root: app.root, logger: silentLogger });
    expect(entries.map((e) => e.manifest.name)).toEqual(['benchmarks', 'from-class', 'from-factory', 'hidden', 'spaces']);
    expect(entries.every((e) => e.kind === 'deferred' && e.error === undefined)).toBe(true);
  });

  it('fills the manifest from the field and the package: name is the key, version and host range from package.json', async () => {
    const [benchmarks] = await loadExtensions({ root: app.root, names: ['benchmarks'], logger: silentLogger });
    expect(benchmarks?.manifest).toEqual({
      name: 'benchmarks',
      version: '2.1.0',
      description: 'Benchmarks for Reactor.',
      activationEvents: ['onToolset:benchmarks'],
      host: '>=0.0.0',
    });
    expect(benchmarks?.package).toBe('@acme/ext-benchmarks@2.1.0');
    expect(benchmarks?.toolsets).toEqual([{ name: 'benchmarks', description: 'Read what a benchmark run did.', default: false }]);
  });

  it('imports ESM and CommonJS modules, objects, factories and classes alike', async () => {
    const entries = await loadExtensions({ root: app.root, logger: silentLogger });
    for (const entry of entries) {
      const extension = await entry.load();
      expect(extension.manifest.name).toBe(entry.manifest.name);
      expect(extension.tools?.().length).toBe(1);
    }
  });

  it('reads package.json whatever the exports map hides, and imports the module where the package really lives (its own dependencies resolve)', async () => {
    const real = app.packageDirs.get('hidden-exports')!;
    expect(JSON.parse(await readFile(path.join(real, 'package.json'), 'utf8'))).toMatchObject({ exports: { '.': './dist/index.js' } });
    const [hidden] = await loadExtensions({ root: app.root, names: ['hidden'], logger: silentLogger });
    const extension = await hidden!.load();
    expect(extension.tools?.()[0]?.name).toBe('hidden_tool');
  });

  it('loads only the extensions named, the reproducible surface', async () => {
    const entries = await loadExtensions({ root: app.root, names: ['spaces', 'from-class'], logger: silentLogger });
    expect(entries.map((e) => e.manifest.name)).toEqual(['from-class', 'spaces']);
  });

  it('throws EXTENSION_NOT_FOUND for a name that is not installed, listing what is', async () => {
    const failure = loadExtensions({ root: app.root, names: ['spaces', 'nosuch'], logger: silentLogger });
    await expect(failure).rejects.toMatchObject({ code: ErrorCodes.EXTENSION_NOT_FOUND });
    await expect(failure).rejects.toThrow(/"nosuch": is not installed.*one of "benchmarks", "from-class", "from-factory", "hidden", "spaces"/);
  });
});
