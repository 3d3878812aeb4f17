/**
 * Zero-code adoption: an application's package.json `reactorMcp.adopt` field,
 * read by the host's discovery, adopted by this package when the entry loads.
 * Held (opt-in) servers are neither imported nor spawned until a URL asks.
 */
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, realpath, rm, symlink, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildHost, loadExtensions, parseSelection, silentLogger, type McpHost } from '@reactor/host';
import { connect } from '@reactor/host/testing';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

const here = path.dirname(fileURLToPath(import.meta.url));
const require = createRequire(import.meta.url);
const everythingDir = path.dirname(require.resolve('@modelcontextprotocol/server-everything/package.json'));
const crashy = path.join(here, 'fixtures', 'crashy-server.mjs');

let dir: string;
let host: McpHost | undefined;
beforeEach(async () => {
  dir = await realpath(await mkdtemp(path.join(tmpdir(), 'reactor-adopt-app-')));
  await mkdir(path.join(dir, 'node_modules', '@modelcontextprotocol'), { recursive: true });
  await mkdir(path.join(dir, 'node_modules', '@reactor'), { recursive: true });
  await symlink(everythingDir, path.join(dir, 'node_modules', '@modelcontextprotocol', 'server-everything'), 'dir');
  await symlink(path.resolve(here, '..'), path.join(dir, 'node_modules', '@reactor', 'adopt'), 'dir');
});
afterEach(async () => {
  await host?.stop();
  host = undefined;
  await rm(dir, { recursive: true, force: true });
});

async function app(adopt: Record<string, unknown>): Promise<void> {
  await writeFile(path.join(dir, 'package.json'), JSON.stringify({ name: 'my-app', version: '1.0.0', dependencies: { '@reactor/adopt': '*' }, reactorMcp: { adopt } }));
}

describe('reactorMcp.adopt', () => {
  it('puts server-everything behind ?everything with no code, importing it only when asked for', async () => {
    // A module that counts its imports stands beside it, to see the hold.
    await writeFile(path.join(dir, 'counted.mjs'), 'globalThis.__countedImports = (globalThis.__countedImports ?? 0) + 1;\nexport default (server) => server.registerTool("counted", { description: "Counted." }, () => "yes");\n');
    await app({
      everything: { module: '@modelcontextprotocol/server-everything/dist/server/index.js', export: 'createServer', toolset: 'everything', default: false },
      counted: { module: './counted.mjs', default: false },
    });
    const globals = globalThis as { __countedImports?: number };
    delete globals.__countedImports;
    host = await buildHost(await loadExtensions({ root: dir, logger: silentLogger }), { logger: silentLogger, strict: true });
    expect(host.report().extensions.map((e) => [e.name, e.state])).toEqual([['counted', 'held'], ['everything', 'held']]);
    expect(globals.__countedImports).toBeUndefined();
    expect((await host.build(parseSelection(''))).toolNames).toEqual([]);
    const c = await connect(host, { selection: 'everything' });
    try {
      expect(await c.toolNames()).toEqual(expect.arrayContaining(['echo', 'get-sum']));
      expect((await c.callTool('echo', { message: 'zero code' })).content).toEqual([{ type: 'text', text: 'Echo: zero code' }]);
    } finally {
      await c.close();
    }
    expect(globals.__countedImports).toBeUndefined();
    const built = await host.build(parseSelection('counted'));
    expect(built.toolNames).toEqual(['counted']);
    expect(globals.__countedImports).toBe(1);
    const described = await host.describe(parseSelection('everything'));
    expect(described.toolsets.find((t) => t.name === 'everything')?.description).toMatch(/^Tools adopted from @modelcontextprotocol\/server-everything@\d/);
  });

  it('spawns an adopted command only when its toolset is asked for', async () => {
    const marker = path.join(dir, 'spawned');
    await writeFile(path.join(dir, 'start.mjs'), `import { writeFileSync } from 'node:fs';\nwriteFileSync(${JSON.stringify(marker)}, 'yes');\nawait import(${JSON.stringify(crashy)});\n`);
    await app({ crashy: { command: process.execPath, args: ['start.mjs'], default: false, prefix: 'c_' } });
    host = await buildHost(await loadExtensions({ root: dir, logger: silentLogger }), { logger: silentLogger, strict: true });
    expect(existsSync(marker)).toBe(false);
    expect((await host.build(parseSelection('crashy'))).toolNames).toEqual(expect.arrayContaining(['c_pid', 'c_crash']));
    expect(existsSync(marker)).toBe(true);
  });
});
