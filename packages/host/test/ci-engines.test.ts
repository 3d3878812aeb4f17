/**
 * No Node-version warnings on install, for any Node line CI tests on:
 * `scripts/check-engines.mjs` reads every package's `engines.node` in
 * pnpm-lock.yaml and names those that refuse a version. CI installs once (on
 * Node 20), so this is what covers Node 24 and 26 and the floor (20.19.0).
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const script = path.join(repo, 'scripts', 'check-engines.mjs');
const scratch: string[] = [];
afterEach(() => {
  for (const dir of scratch.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function checkEngines(args: string[]): Promise<{ code: number; stdout: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [script, ...args], { cwd: repo }, (error, stdout) => resolve({ code: error ? ((error as { code?: number }).code ?? 1) : 0, stdout }));
  });
}

describe('scripts/check-engines.mjs', () => {
  it('passes this repository\'s lockfile on the floor (20.19), Node 24 and Node 26', async () => {
    const { code, stdout } = await checkEngines(['24.21.0', '26.10.0']);
    expect(stdout).toMatch(/^engines: \d+ locked packages accept Node 20\.19\.0, 24\.21\.0, 26\.10\.0(, except \d+ optional one\(s\) an install skips where refused: [^\n]+)?\n$/);
    expect(code).toBe(0);
  });

  it('names a locked package whose engines refuse a line, and the versions it refuses', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'reactor-engines-'));
    scratch.push(dir);
    writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ engines: { node: '>=20.19' } }));
    writeFileSync(
      path.join(dir, 'pnpm-lock.yaml'),
      [
        "lockfileVersion: '9.0'",
        '',
        'packages:',
        '',
        '  strip-json-comments@5.1.0:',
        '    resolution: {integrity: sha512-x}',
        "    engines: {node: '>=22'}",
        '',
        '  pino@10.4.0:',
        '    resolution: {integrity: sha512-y}',
        '    engines: {node: ^20.19.0 || >=22.12.0}',
        '',
        'snapshots:',
        '',
        '  pino@10.4.0: {}',
        '',
      ].join('\n'),
    );
    const { code, stdout } = await checkEngines(['--root', dir, '24.21.0']);
    expect(stdout).toContain('strip-json-comments@5.1.0 wants Node >=22: refuses Node 20.19.0\n');
    expect(stdout).not.toContain('pino@');
    expect(code).toBe(1);
  });

  it('lets an optional-only package refuse a line: an install skips it there, silently', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'reactor-engines-'));
    scratch.push(dir);
    writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ engines: { node: '>=20.19' } }));
    const lockfile = (optional: boolean) =>
      [
        "lockfileVersion: '9.0'",
        '',
        'packages:',
        '',
        '  newest-client@2.0.0:',
        '    resolution: {integrity: sha512-x}',
        "    engines: {node: '>=22'}",
        '',
        'snapshots:',
        '',
        "  newest-client@2.0.0(zod@4.6.7):",
        '    dependencies:',
        '      zod: 4.6.7',
        ...(optional ? ['    optional: true'] : []),
        '',
      ].join('\n');
    writeFileSync(path.join(dir, 'pnpm-lock.yaml'), lockfile(true));
    const skipped = await checkEngines(['--root', dir, '24.21.0']);
    expect(skipped.stdout).toContain('except 1 optional one(s) an install skips where refused: newest-client@2.0.0 (Node >=22)');
    expect(skipped.code).toBe(0);
    writeFileSync(path.join(dir, 'pnpm-lock.yaml'), lockfile(false));
    const refused = await checkEngines(['--root', dir, '24.21.0']);
    expect(refused.stdout).toContain('newest-client@2.0.0 wants Node >=22: refuses Node 20.19.0');
    expect(refused.code).toBe(1);
  });
});
