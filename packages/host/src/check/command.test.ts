import { describe, expect, it } from 'vitest';
import { fileURLToPath } from 'node:url';
import { isReactorError } from '../kernel/errors.js';
import { runCheckCommand } from './command.js';

// The first-party spaces extension, built (pnpm test builds first): a real package to check.
const spaces = fileURLToPath(new URL('../../../../extensions/spaces', import.meta.url));

async function run(argv: string[]) {
  let out = '';
  const code = await runCheckCommand(argv, { stdout: (text) => (out += text), cwd: spaces });
  return { code, out };
}

describe('reactor-mcp-server check', () => {
  it('prints findings, each toolset\'s token cost and a verdict; exit 0 when there is no error', async () => {
    const { code, out } = await run([]);
    expect(code).toBe(0);
    expect(out).toMatch(/^Checking @reactor\/ext-spaces@\d+\.\d+\.\d+ \(/);
    expect(out).toMatch(/toolset "spaces" \(extension "spaces"\): \d+ tool\(s\), \d+ tokens \(o200k_base\)/);
    expect(out).toMatch(/\nOK: 0 error\(s\), \d+ warning\(s\)\n$/);
  });

  it('--json prints the check itself', async () => {
    const { out } = await run(['--json', '.']);
    const check = JSON.parse(out) as { ok: boolean; extensions: Array<{ extension: string }> };
    expect(check.ok).toBe(true);
    expect(check.extensions.map((e) => e.extension)).toEqual(['spaces']);
  });

  it('exits 1 when the package has errors (here: no package.json)', async () => {
    const { code, out } = await run(['/nonexistent-reactor-dir']);
    expect(code).toBe(1);
    expect(out).toContain('error [package-invalid]');
    expect(out).toMatch(/FAILED: 1 error\(s\)/);
  });

  it('refuses an invalid flag with REACTOR_OPTION_INVALID (the bin exits 2)', async () => {
    const error = await run(['--nope']).catch((e: unknown) => e);
    expect(isReactorError(error) && error.code).toBe('REACTOR_OPTION_INVALID');
  });
});
