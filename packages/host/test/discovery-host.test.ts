import { existsSync } from 'node:fs';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { loadExtensions } from '../src/discovery/discovery.js';
import { ErrorCodes } from '../src/kernel/errors.js';
import { buildHost, type McpHost } from '../src/host/host.js';
import { silentLogger } from '../src/kernel/logger.js';
import { parseSelection } from '../src/selection/selection.js';
import { extensionSource, layoutApp, type FixtureApp } from './fixtures/packages.js';

/** Discovered extensions registered with a host: held ones are listed from package.json and imported only when they wake. */
describe.each(['pnpm', 'hoisted'] as const)('discovered extensions in a host (%s layout)', (layout) => {
  let app: FixtureApp;
  let host: McpHost | undefined;
  const marker = (name: string) => app.scratch(`${name}.marker`);

  beforeAll(async () => {
    const held = { activationEvents: ['onToolset:benchmarks'], toolsets: [{ name: 'benchmarks', default: false }] };
    const mismatched = { activationEvents: ['onToolset:reports'], toolsets: [{ name: 'reports', default: false }] };
    app = await layoutApp(layout, (scratch) => {
      const marker = (name: string) => scratch(`${name}.marker`);
      return [
      {
        name: 'ext-benchmarks',
        reactorMcp: { extensions: { benchmarks: { module: './index.js', ...held } } },
        files: { 'index.js': extensionSource({ name: 'benchmarks', ...held, tools: ['list_runs'], importMarker: marker('benchmarks') }) },
      },
      {
        name: 'ext-spaces',
        type: 'commonjs',
        reactorMcp: { extensions: { spaces: './index.js' } },
        files: { 'index.js': extensionSource({ format: 'cjs', shape: 'class', name: 'spaces', tools: ['list_spaces'], importMarker: marker('spaces'), stopMarker: marker('spaces-stopped') }) },
      },
      {
        // Depends on spaces, so the host orders it after spaces whatever the discovery order.
        name: 'ext-audit',
        reactorMcp: { extensions: { audit: { module: './index.js', dependencies: ['spaces'] } } },
        files: { 'index.js': extensionSource({ shape: 'factory', name: 'audit', tools: ['audit_log'] }) },
      },
      {
        // Its package.json says toolset "reports"; its module says "other".
        name: 'ext-reports',
        reactorMcp: { extensions: { reports: { module: './index.js', ...mismatched } } },
        files: { 'index.js': extensionSource({ name: 'reports', activationEvents: mismatched.activationEvents, toolsets: [{ name: 'other' }], tools: ['report'] }) },
      },
      {
        name: 'ext-crashes',
        reactorMcp: { extensions: { crashes: { module: './index.js', activationEvents: ['onToolset:crashes'], toolsets: [{ name: 'crashes', default: false }] } } },
        files: { 'index.js': extensionSource({ name: 'crashes', throwOnImport: 'cannot reach the database' }) },
      },
      { name: 'ext-future', hostRange: '>=99', reactorMcp: { extensions: { future: './index.js' } }, files: { 'index.js': extensionSource({ name: 'future' }) } },
      ];
    });
  });
  afterEach(async () => {
    await host?.stop();
    host = undefined;
  });
  afterAll(() => app.remove());

  it('never imports a held extension at start-up, and imports it when a build names its toolset', async () => {
    host = await buildHost(await loadExtensions({ root: app.root, names: ['benchmarks'], logger: silentLogger }), { logger: silentLogger });
    expect(existsSync(marker('benchmarks'))).toBe(false);
    expect(host.declaredToolsets().map((t) => t.name)).toEqual(['benchmarks']);
    expect(host.report().extensions[0]).toMatchObject({ name: 'benchmarks', state: 'held', package: 'ext-benchmarks@1.0.0' });

    expect((await host.build()).toolNames).toEqual([]);
    expect(existsSync(marker('benchmarks'))).toBe(false);

    expect((await host.build(parseSelection('benchmarks'))).toolNames).toEqual(['list_runs']);
    expect(existsSync(marker('benchmarks'))).toBe(true);
  });

  it('imports an extension that is not held at registration, and runs its onStop when the host stops', async () => {
    host = await buildHost(await loadExtensions({ root: app.root, names: ['spaces'], logger: silentLogger }), { logger: silentLogger });
    expect(existsSync(marker('spaces'))).toBe(true);
    expect((await host.build()).toolNames).toEqual(['list_spaces']);
    await host.stop();
    host = undefined;
    expect(existsSync(marker('spaces-stopped'))).toBe(true);
  });

  it('orders extensions by their dependencies', async () => {
    host = await buildHost(await loadExtensions({ root: app.root, names: ['audit', 'spaces'], logger: silentLogger }), { logger: silentLogger });
    expect(host.report().extensions.map((e) => [e.name, e.state])).toEqual([['spaces', 'active'], ['audit', 'active']]);
  });

  it('refuses a module whose declarations differ from its package.json (DECLARATION_MISMATCH), serving the rest', async () => {
    host = await buildHost(await loadExtensions({ root: app.root, names: ['reports', 'spaces'], logger: silentLogger }), { logger: silentLogger });
    expect((await host.build(parseSelection('reports'))).toolNames).toEqual(['list_spaces']);
    const report = host.report();
    expect(report.extensions.find((e) => e.name === 'reports')?.state).toBe('failed');
    expect(report.problems).toContainEqual(expect.objectContaining({ code: ErrorCodes.DECLARATION_MISMATCH, extension: 'reports' }));
  });

  it('reports a held extension whose import throws when it wakes, and keeps serving', async () => {
    host = await buildHost(await loadExtensions({ root: app.root, names: ['crashes', 'spaces'], logger: silentLogger }), { logger: silentLogger });
    expect((await host.build(parseSelection('crashes'))).toolNames).toEqual(['list_spaces']);
    const problem = host.report().problems.find((p) => p.extension === 'crashes');
    expect(problem).toMatchObject({ code: ErrorCodes.LOAD_FAILED });
    expect(problem?.message).toContain('cannot reach the database');
  });

  it('reports every unusable package and serves the rest; with strict it refuses to start', async () => {
    const entries = await loadExtensions({ root: app.root, logger: silentLogger });
    host = await buildHost(entries, { logger: silentLogger });
    const report = host.report();
    expect(report.ok).toBe(false);
    expect(report.extensions.find((e) => e.name === 'future')).toMatchObject({ state: 'failed' });
    expect(report.problems).toContainEqual(expect.objectContaining({ code: ErrorCodes.EXTENSION_INCOMPATIBLE, extension: 'future' }));
    expect((await host.build()).toolNames).toEqual(['list_spaces', 'audit_log']);
    await expect(buildHost(entries, { logger: silentLogger, strict: true })).rejects.toMatchObject({ code: ErrorCodes.STARTUP_FAILED });
  });
});
