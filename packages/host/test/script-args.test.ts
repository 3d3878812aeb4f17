/**
 * The root scripts (`pnpm conformance`, `pnpm soak`, `pnpm cluster`, `pnpm load`,
 * `pnpm bench:cluster`, `pnpm bench:tasks`) take their flags the same way whether
 * or not the user puts pnpm's `--` before them: pnpm 12 passes the `--` through,
 * and parseArgs alone would refuse every flag after it as a positional argument.
 */
import { execFile } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
// @ts-expect-error -- a plain .mjs script of the repository, without types
import { scriptArgs } from '../../../scripts/scriptArgs.mjs';

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const readArgs = scriptArgs as (argv: string[]) => string[];

function conformance(args: string[]): Promise<string> {
  return new Promise((resolve) => {
    execFile(process.execPath, [path.join(repo, 'scripts', 'conformance.mjs'), ...args], { cwd: repo }, (_error, stdout, stderr) => resolve(`${stdout}${stderr}`));
  });
}

describe('scripts/scriptArgs.mjs', () => {
  it('drops one leading -- and keeps everything else as given', () => {
    expect(readArgs(['--', '--line', '2025'])).toEqual(['--line', '2025']);
    expect(readArgs(['--line', '2025'])).toEqual(['--line', '2025']);
    expect(readArgs(['--line', '--', 'x'])).toEqual(['--line', '--', 'x']);
    expect(readArgs([])).toEqual([]);
  });

  it('lets `pnpm conformance -- --line …` reach the script\'s own flag check', async () => {
    // An invalid value, so the script stops at its check instead of running the suite.
    const withDashes = await conformance(['--', '--line', 'nope']);
    expect(withDashes).toContain('conformance: --line must be "all", "2025" or "2026-07-28", got "nope"');
    expect(withDashes).not.toContain('ERR_PARSE_ARGS_UNEXPECTED_POSITIONAL');
    expect(await conformance(['--line', 'nope'])).toContain('got "nope"');
  });
});
