import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadExtensions } from '../src/discovery/discovery.js';
import { ErrorCodes, isReactorError } from '../src/kernel/errors.js';
import type { DeferredExtension } from '../src/contract/extension.js';
import { silentLogger } from '../src/kernel/logger.js';
import { captureLogger } from '../src/testing/captureLogger.js';
import { extensionSource, layoutApp, type FixtureApp } from './fixtures/packages.js';

/** Packages that cannot be used come back as entries with `error` set, so the host reports them instead of crashing. */
describe('discovery of packages that cannot be used', () => {
  let app: FixtureApp;
  let entries: DeferredExtension[];
  const entry = (name: string) => {
    const found = entries.find((e) => e.manifest.name === name);
    if (!found) throw new Error(`no entry ${name}`);
    return found;
  };

  beforeAll(async () => {
    app = await layoutApp('pnpm', [
      { name: 'good', reactorMcp: { extensions: { good: './good.js' } }, files: { 'good.js': extensionSource({ name: 'good' }) } },
      {
        name: 'half-bad',
        reactorMcp: { extensions: { fine: './fine.js', broken: { module: './broken.js', toolsets: 'broken' } } },
        files: { 'fine.js': extensionSource({ name: 'fine' }), 'broken.js': extensionSource({ name: 'broken' }) },
      },
      { name: 'bad-field', reactorMcp: ['./x.js'] },
      { name: 'too-new-for-us', hostRange: '^99.0.0', reactorMcp: { extensions: { future: './f.js' } }, files: { 'f.js': extensionSource({ name: 'future' }) } },
      { name: 'bad-range', hostRange: 'latest please', reactorMcp: { extensions: { ranged: './r.js' } }, files: { 'r.js': extensionSource({ name: 'ranged' }) } },
      { name: 'unbuilt', reactorMcp: { extensions: { unbuilt: { module: './dist/index.js', activationEvents: ['onToolset:unbuilt'] } } } },
      { name: 'throws', reactorMcp: { extensions: { throws: './t.js' } }, files: { 't.js': extensionSource({ name: 'throws', throwOnImport: 'database URL is not set' }) } },
      { name: 'wrong-export', reactorMcp: { extensions: { 'wrong-export': { module: './w.js', export: 'extension' } } }, files: { 'w.js': 'export const other = 1;\nexport default 2;\n' } },
      { name: 'bad-version', version: '1.0.0', reactorMcp: { extensions: { versioned: './v.js' } } },
      { name: 'not-installed', notInstalled: true },
      { name: 'broken-json' },
    ]);
    // Written by hand: the helper only writes valid package.json files.
    await writeFile(path.join(app.packageDirs.get('bad-version')!, 'package.json'), JSON.stringify({ name: 'bad-version', version: 'one', reactorMcp: { extensions: { versioned: './v.js' } } }));
    await writeFile(path.join(app.packageDirs.get('broken-json')!, 'package.json'), '{ "name": "broken-json", ');
    entries = await loadExtensions({ root: app.root, logger: silentLogger });
  });
  afterAll(() => app.remove());

  it('still returns the good extensions, without errors', () => {
    expect(entry('good').error).toBeUndefined();
    expect(entry('fine').error).toBeUndefined();
  });

  it('costs an invalid entry only itself, with the path inside the field', () => {
    const error = entry('broken').error;
    expect(isReactorError(error) && error.code).toBe(ErrorCodes.PACKAGE_INVALID);
    expect(error?.message).toContain('reactorMcp.extensions.broken.toolsets');
    expect(error?.message).toContain('half-bad@1.0.0');
  });

  it('reports a field malformed as a whole under the package name', () => {
    expect(entry('bad-field')).toMatchObject({ package: 'bad-field@1.0.0', error: { code: ErrorCodes.PACKAGE_INVALID } });
    expect(entry('bad-field').error?.message).toContain('"reactorMcp"');
  });

  it('marks an extension whose peerDependencies["@reactor/host"] excludes this host incompatible', () => {
    expect(entry('future').manifest.host).toBe('^99.0.0');
    expect(entry('future').error).toMatchObject({ code: ErrorCodes.EXTENSION_INCOMPATIBLE, expected: 'a host in ^99.0.0' });
  });

  it('refuses a host range that is not a semver range', () => {
    expect(entry('ranged').error).toMatchObject({ code: ErrorCodes.PACKAGE_INVALID });
    expect(entry('ranged').error?.message).toContain('peerDependencies["@reactor/host"]');
  });

  it('reports a missing module file at start-up, even for a held extension', () => {
    expect(entry('unbuilt').error).toMatchObject({ code: ErrorCodes.LOAD_FAILED });
    expect(entry('unbuilt').error?.message).toContain('"./dist/index.js" does not exist');
  });

  it('leaves a module that throws on import to fail when loaded (the registry reports it)', async () => {
    expect(entry('throws').error).toBeUndefined();
    await expect(entry('throws').load()).rejects.toThrow('database URL is not set');
  });

  it('names the exports a module has when the one declared is missing', async () => {
    await expect(entry('wrong-export').load()).rejects.toThrow('has no export "extension" (it exports "default", "other")');
  });

  it('reports an invalid version, an unreadable package.json and a dependency that is not installed', () => {
    expect(entry('bad-version').error?.message).toContain('"version" is invalid');
    expect(entry('broken-json').error).toMatchObject({ code: ErrorCodes.PACKAGE_INVALID });
    expect(entry('broken-json').error?.message).toContain('is not valid JSON');
    expect(entry('not-installed').error?.message).toContain('is not installed');
  });

  it('does not serve a broken package when names are given, but names it when it could hide the one asked for', async () => {
    const picked = await loadExtensions({ root: app.root, names: ['good'], logger: silentLogger });
    expect(picked.map((e) => e.manifest.name)).toEqual(['good']);
    await expect(loadExtensions({ root: app.root, names: ['nosuch'], logger: silentLogger })).rejects.toThrow(/could not be read: .*broken-json/);
  });
});

describe('the application package.json', () => {
  it('warns about an extension listed only in devDependencies, which is not served', async () => {
    const app = await layoutApp(
      'hoisted',
      [
        { name: 'dev-only-ext', reactorMcp: { extensions: { devonly: './d.js' } }, files: { 'd.js': extensionSource({ name: 'devonly' }) } },
        { name: 'plain-dev-tool' },
      ],
      { dependencies: {}, devDependencies: { 'dev-only-ext': '^1.0.0', 'plain-dev-tool': '^1.0.0' } },
    );
    try {
      const logger = captureLogger();
      expect(await loadExtensions({ root: app.root, logger })).toEqual([]);
      const warnings = logger.entries.filter((e) => e.level === 'warn');
      expect(warnings).toHaveLength(1);
      expect(warnings[0]?.fields).toMatchObject({ package: 'dev-only-ext' });
      expect(warnings[0]?.msg).toContain('is listed only in devDependencies');
      expect(warnings[0]?.msg).toContain('move it to "dependencies"');
    } finally {
      await app.remove();
    }
  });


  it('throws PACKAGE_INVALID when the root has no package.json', async () => {
    const app = await layoutApp('hoisted', []);
    try {
      await expect(loadExtensions({ root: path.join(app.root, 'node_modules'), logger: silentLogger })).rejects.toMatchObject({ code: ErrorCodes.PACKAGE_INVALID });
    } finally {
      await app.remove();
    }
  });
});
