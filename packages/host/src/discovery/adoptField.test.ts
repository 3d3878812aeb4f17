/**
 * The application's `reactorMcp.adopt` field, as discovery reads it: entries
 * listed without importing anything, opt-in ones held, invalid ones reported
 * with their path, and a clear error naming @reactor/adopt when it is missing.
 * (Adoption end to end, with @reactor/adopt installed, is tested in that package.)
 */
import { mkdir, mkdtemp, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { importAdopt } from './adoptField.js';
import { loadExtensions } from './discovery.js';
import { ErrorCodes } from '../kernel/errors.js';
import { silentLogger } from '../kernel/logger.js';

let dir: string;
beforeEach(async () => {
  dir = await realpath(await mkdtemp(path.join(tmpdir(), 'reactor-adopt-field-')));
});
afterEach(() => rm(dir, { recursive: true, force: true }));

async function app(adopt: unknown): Promise<void> {
  await writeFile(path.join(dir, 'package.json'), JSON.stringify({ name: 'my-app', version: '1.0.0', reactorMcp: { adopt } }));
}

describe('reactorMcp.adopt', () => {
  it('lists each adopted server with its toolset, held when opt-in, without importing anything', async () => {
    await app({
      everything: { module: '@modelcontextprotocol/server-everything/dist/server/index.js', export: 'createServer', toolset: 'everything', default: false, description: 'The reference server.' },
      memory: { command: 'node', args: ['memory.js'] },
    });
    const entries = await loadExtensions({ root: dir, logger: silentLogger });
    expect(entries.map((e) => [e.manifest.name, e.manifest.activationEvents, e.toolsets, e.package, e.error])).toEqual([
      ['everything', ['onToolset:everything'], [{ name: 'everything', default: false, description: 'The reference server.' }], 'my-app@1.0.0', undefined],
      ['memory', undefined, [{ name: 'memory' }], 'my-app@1.0.0', undefined],
    ]);
  });

  it("gives an adopted module the version of its package (the application's own for its own module); a command or URL has none to give", async () => {
    await mkdir(path.join(dir, 'node_modules', '@modelcontextprotocol', 'server-everything'), { recursive: true });
    await writeFile(path.join(dir, 'node_modules', '@modelcontextprotocol', 'server-everything', 'package.json'), JSON.stringify({ name: '@modelcontextprotocol/server-everything', version: '2026.8.31' }));
    await app({
      everything: { module: '@modelcontextprotocol/server-everything/dist/server/index.js', export: 'createServer' },
      mine: { module: './src/server.js', export: 'createServer' },
      missing: { module: 'not-installed', export: 'createServer' },
      memory: { command: 'node', args: ['memory.js'] },
    });
    const entries = await loadExtensions({ root: dir, logger: silentLogger });
    expect(Object.fromEntries(entries.map((e) => [e.manifest.name, `${e.manifest.name}@${e.manifest.version} from ${e.package}`]))).toEqual({
      everything: 'everything@2026.8.31 from my-app@1.0.0',
      mine: 'mine@1.0.0 from my-app@1.0.0',
      missing: 'missing@0.0.0 from my-app@1.0.0',
      memory: 'memory@0.0.0 from my-app@1.0.0',
    });
  });

  it('reports an invalid entry with its path in package.json, costing only that entry', async () => {
    await app({ good: { url: 'http://127.0.0.1:1/mcp', default: false }, bad: { command: 'node', argz: [] }, worse: { neither: true }, Bad_Name: { command: 'x' } });
    const entries = await loadExtensions({ root: dir, logger: silentLogger });
    const errors = Object.fromEntries(entries.map((e) => [e.manifest.name, e.error?.message]));
    expect(errors.good).toBeUndefined();
    expect(errors.bad).toContain('"reactorMcp.adopt.bad.argz" is invalid; expected no such key');
    expect(errors.worse).toContain('expected an object with one of "module", "command" or "url"');
    expect(errors.adopt).toContain('reactorMcp.adopt.Bad_Name');
  });

  it('names @reactor/adopt when an adopted server loads and the package is not installed', async () => {
    const notInstalled = (from: string): string => {
      throw Object.assign(new Error(`Cannot find module '@reactor/adopt' from ${from}`), { code: 'MODULE_NOT_FOUND' });
    };
    const attempt = importAdopt('tool', dir, 'my-app@1.0.0', notInstalled);
    await expect(attempt).rejects.toMatchObject({ code: ErrorCodes.LOAD_FAILED, extension: 'tool' });
    await expect(attempt).rejects.toThrow('adopted server "tool" (my-app@1.0.0 reactorMcp.adopt): needs the package "@reactor/adopt", which is not installed');
    await expect(attempt).rejects.toThrow('hint: install it in the application: pnpm add @reactor/adopt');
  });
});
