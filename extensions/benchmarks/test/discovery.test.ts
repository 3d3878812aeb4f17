/**
 * Installed in an application, the package is found from its package.json
 * alone: the host lists the `benchmarks` toolset while the module stays
 * unimported (it is imported only when a URL asks for the toolset).
 */
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildHost, loadExtensions, silentLogger, type McpHost } from '@reactor/host';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { BENCHMARKS_TOOLSETS } from '../src/index.js';

const PACKAGE_DIR = fileURLToPath(new URL('..', import.meta.url));

let app: string;
let host: McpHost | undefined;
beforeEach(() => {
  app = mkdtempSync(join(tmpdir(), 'benchmarks-app-'));
  writeFileSync(join(app, 'package.json'), JSON.stringify({ name: 'app', private: true, dependencies: { '@reactor/ext-benchmarks': '*' } }));
  mkdirSync(join(app, 'node_modules', '@reactor'), { recursive: true });
  // pnpm's layout: node_modules/<name> is a symlink to the package's real folder.
  symlinkSync(PACKAGE_DIR, join(app, 'node_modules', '@reactor', 'ext-benchmarks'), 'dir');
});
afterEach(async () => {
  await host?.stop();
  host = undefined;
  rmSync(app, { recursive: true, force: true });
});

describe('discovered from package.json', () => {
  it('is a held entry whose toolset the host lists without importing the module', async () => {
    const entries = await loadExtensions({ root: app, logger: silentLogger });
    expect(entries).toHaveLength(1);
    const entry = entries[0]!;
    expect(entry.error).toBeUndefined();
    expect(entry.manifest).toMatchObject({ name: 'benchmarks', activationEvents: ['onToolset:benchmarks'] });
    expect(entry.toolsets).toEqual(BENCHMARKS_TOOLSETS.map(({ instructions: _i, ...declared }) => declared));
    let imported = false;
    const watched = { ...entry, load: () => ((imported = true), entry.load()) };
    host = await buildHost([watched], { strict: true, logger: silentLogger });
    expect(host.declaredToolsets()).toEqual([expect.objectContaining({ name: 'benchmarks', title: 'Benchmarks', default: false })]);
    expect(host.report().extensions).toEqual([expect.objectContaining({ name: 'benchmarks', state: 'held', started: false })]);
    await host.build();
    expect(imported).toBe(false);
  });
});
