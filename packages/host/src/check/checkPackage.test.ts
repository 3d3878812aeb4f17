import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { HOST_VERSION } from '../kernel/version.js';
import { checkPackage } from './checkPackage.js';

const work = mkdtempSync(join(tmpdir(), 'reactor-check-package-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

const annotations = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false };
/** A plain-JS extension module: no build step, no import of the host (identity is structural). */
const moduleSource = (o: { name: string; events?: string[]; toolsets?: object[] }) => `export default {
  manifest: ${JSON.stringify({ name: o.name, version: '1.0.0', ...(o.events ? { activationEvents: o.events } : {}) })},
  toolsets: () => ${JSON.stringify(o.toolsets ?? [{ name: o.name, description: 'Things.' }])},
  tools: () => [{ name: 'ping', title: 'Ping', description: 'Answer pong.', annotations: ${JSON.stringify(annotations)}, handler: () => 'pong' }],
};\n`;

let count = 0;
function writePackage(pkg: Record<string, unknown>, modules: Record<string, string>): string {
  const dir = join(work, `pkg-${++count}`);
  mkdirSync(join(dir, 'dist'), { recursive: true });
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: `@acme/pkg-${count}`, version: '1.0.0', type: 'module', peerDependencies: { '@reactor/host': `^${HOST_VERSION}` }, devDependencies: { '@reactor/host': `^${HOST_VERSION}` }, ...pkg }));
  for (const [file, source] of Object.entries(modules)) writeFileSync(join(dir, file), source);
  return dir;
}
const codes = (check: { findings: ReadonlyArray<{ severity: string; code: string }> }) => check.findings.filter((f) => f.severity !== 'info').map((f) => `${f.severity} ${f.code}`);
const held = { name: 'held', description: 'Held things.', default: false };

describe('checkPackage', () => {
  it('passes a package whose reactorMcp field agrees with what it exports, and checks each extension', async () => {
    const dir = writePackage(
      { reactorMcp: { extensions: { held: { module: './dist/index.js', activationEvents: ['onToolset:held'], toolsets: [held] } } } },
      { 'dist/index.js': moduleSource({ name: 'held', events: ['onToolset:held'], toolsets: [held] }) },
    );
    const check = await checkPackage(dir);
    expect(codes(check)).toEqual([]);
    expect(check).toMatchObject({ ok: true, package: `@acme/pkg-${count}@1.0.0` });
    expect(check.extensions.map((e) => e.toolsets)).toEqual([[{ name: 'held', tools: ['ping'], tokens: expect.any(Number) }]]);
  });

  it('reports a module that is not built yet', async () => {
    const check = await checkPackage(writePackage({ reactorMcp: { extensions: { a: './dist/a.js' } } }, {}));
    expect(codes(check)).toEqual(['error module-missing']);
    expect(check.findings[0]!.hint).toContain('npm run build');
  });

  it('reports declarations that differ from the module: a declared toolset not offered, an undeclared one offered, a name', async () => {
    const dir = writePackage(
      { reactorMcp: { extensions: { a: { module: './dist/a.js', toolsets: [{ name: 'declared' }] } } } },
      { 'dist/a.js': moduleSource({ name: 'b', toolsets: [{ name: 'offered', description: 'x' }] }) },
    );
    const check = await checkPackage(dir);
    expect(codes(check)).toEqual(['error declaration-mismatch', 'error declaration-mismatch', 'error declaration-mismatch']);
    expect(check.findings.map((f) => f.message).join('\n')).toMatch(/manifest.name is "b"[\s\S]*declares toolset "declared"[\s\S]*offers toolset "offered"/);
  });

  it('reports a module that holds itself while the field does not (discovery would import it at start-up), and a held entry without toolsets', async () => {
    const dir = writePackage(
      { reactorMcp: { extensions: { a: './dist/a.js', h: { module: './dist/h.js', activationEvents: ['onToolset:h'] } } } },
      { 'dist/a.js': moduleSource({ name: 'a', events: ['onToolset:a'] }), 'dist/h.js': moduleSource({ name: 'h', events: ['onToolset:h'] }) },
    );
    expect(codes(await checkPackage(dir))).toEqual(['error held-undeclared', 'warning held-undeclared']);
  });

  it('checks the host peer range: missing, a regular dependency, excluding this host', async () => {
    const mod = { 'dist/a.js': moduleSource({ name: 'a' }) };
    const field = { reactorMcp: { extensions: { a: './dist/a.js' } } };
    expect(codes(await checkPackage(writePackage({ ...field, peerDependencies: undefined }, mod)))).toEqual(['error host-range']);
    expect(codes(await checkPackage(writePackage({ ...field, dependencies: { '@reactor/host': '^1.0.0' } }, mod)))).toEqual(['error host-range']);
    const excluded = await checkPackage(writePackage({ ...field, peerDependencies: { '@reactor/host': '^0.1.0' } }, mod));
    expect(excluded.findings[0]!.message).toContain(`excludes the host it is checked with (${HOST_VERSION})`);
  });

  it('reports a directory without package.json or without a reactorMcp field', async () => {
    expect(codes(await checkPackage(join(work, 'nowhere')))).toEqual(['error package-invalid']);
    expect(codes(await checkPackage(writePackage({}, {})))).toEqual(['error package-invalid']);
  });
});
