import { mkdir, mkdtemp, realpath, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { findAppRoot, importExtension, loadExtensions, locatePackage } from './discovery.js';
import { silentLogger } from '../kernel/logger.js';

let dir: string;
beforeEach(async () => {
  dir = await realpath(await mkdtemp(path.join(tmpdir(), 'reactor-discovery-')));
});
afterEach(() => rm(dir, { recursive: true, force: true }));

async function write(file: string, text: string): Promise<void> {
  await mkdir(path.dirname(path.join(dir, file)), { recursive: true });
  await writeFile(path.join(dir, file), text);
}

describe('findAppRoot', () => {
  it('finds the nearest directory at or above the given one that holds a package.json', async () => {
    await write('app/package.json', '{}');
    await mkdir(path.join(dir, 'app/src/deep'), { recursive: true });
    expect(await findAppRoot(path.join(dir, 'app/src/deep'))).toBe(path.join(dir, 'app'));
    expect(await findAppRoot(path.join(dir, 'app'))).toBe(path.join(dir, 'app'));
  });
});

describe('locatePackage', () => {
  it('walks up node_modules from the root, as Node does, and returns the real directory behind a symlink', async () => {
    await write('node_modules/@acme/tools/package.json', '{"name":"@acme/tools"}');
    await write('store/linked/package.json', '{"name":"linked"}');
    await mkdir(path.join(dir, 'workspace/app/node_modules'), { recursive: true });
    await symlink(path.join(dir, 'store/linked'), path.join(dir, 'workspace/app/node_modules/linked'), 'dir');
    const root = path.join(dir, 'workspace/app');
    expect(await locatePackage('@acme/tools', root)).toBe(path.join(dir, 'node_modules/@acme/tools'));
    expect(await locatePackage('linked', root)).toBe(path.join(dir, 'store/linked'));
    expect(await locatePackage('absent', root)).toBeUndefined();
  });
});

describe('importExtension', () => {
  const manifest = '{ name: "x", version: "1.0.0" }';

  it('unwraps a CommonJS module compiled with esModule interop (exports.default)', async () => {
    await write('pkg/package.json', '{"type":"commonjs"}');
    await write('pkg/index.js', `Object.defineProperty(exports, '__esModule', { value: true });\nexports.default = { manifest: ${manifest} };\n`);
    expect((await importExtension(path.join(dir, 'pkg'), { module: './index.js' })).manifest.name).toBe('x');
  });

  it('finds a named export of a CommonJS module', async () => {
    await write('pkg/package.json', '{"type":"commonjs"}');
    await write('pkg/named.js', `module.exports.extension = { manifest: ${manifest} };\n`);
    expect((await importExtension(path.join(dir, 'pkg'), { module: './named.js', export: 'extension' })).manifest.name).toBe('x');
  });

  it('awaits an async factory', async () => {
    await write('pkg/factory.mjs', `export default async function make() { return { manifest: ${manifest} }; }\n`);
    expect((await importExtension(path.join(dir, 'pkg'), { module: './factory.mjs' })).manifest.name).toBe('x');
  });

  it('constructs a class with no arguments and calls a plain function', async () => {
    await write('pkg/both.mjs', `export class Ext { constructor(...args) { this.manifest = { name: 'c' + args.length, version: '1.0.0' }; } }\nexport const make = (...args) => ({ manifest: { name: 'f' + args.length, version: '1.0.0' } });\n`);
    expect((await importExtension(path.join(dir, 'pkg'), { module: './both.mjs', export: 'Ext' })).manifest.name).toBe('c0');
    expect((await importExtension(path.join(dir, 'pkg'), { module: './both.mjs', export: 'make' })).manifest.name).toBe('f0');
    // Minified: `class{` with no space after the keyword is still a class.
    await write('pkg/min.mjs', `export default class{constructor(){this.manifest={name:'m',version:'1.0.0'}}}\n`);
    expect((await importExtension(path.join(dir, 'pkg'), { module: './min.mjs' })).manifest.name).toBe('m');
  });
});

describe('the host range of a workspace link', () => {
  it('sets no range for workspace:^ (it is this very host) and strips the protocol from workspace:<range>', async () => {
    await write('package.json', JSON.stringify({ dependencies: { a: 'workspace:*', b: 'workspace:*' } }));
    for (const [name, range] of [['a', 'workspace:^'], ['b', 'workspace:>=0.0.1']] as const) {
      await write(`node_modules/${name}/package.json`, JSON.stringify({ name, version: '1.0.0', peerDependencies: { '@reactor/host': range }, reactorMcp: { extensions: { [name]: './x.js' } } }));
      await write(`node_modules/${name}/x.js`, '');
    }
    const entries = await loadExtensions({ root: dir, logger: silentLogger });
    expect(entries.map((e) => [e.manifest.name, e.manifest.host, e.error])).toEqual([['a', undefined, undefined], ['b', '>=0.0.1', undefined]]);
  });
});
