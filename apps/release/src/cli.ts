#!/usr/bin/env node
/**
 * `pnpm release:local`: rehearses the release against a Verdaccio on loopback
 * (see rehearsal.ts) and prints what it saw. Exit 0 when every check passed,
 * 1 otherwise. `--keep` leaves the work folder (registry storage, scratch copy,
 * npm project) for inspection and prints where it is.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { formatReport } from './format.js';
import { rehearseRelease, releaseProblems } from './rehearsal.js';

const { values } = parseArgs({ options: { keep: { type: 'boolean', default: false } } });
const repoRoot = fileURLToPath(new URL('../../../', import.meta.url));
const workDir = mkdtempSync(join(tmpdir(), 'reactor-release-'));
const started = Date.now();
let exitCode = 1;
try {
  const report = await rehearseRelease({ repoRoot, workDir, log: (line) => process.stderr.write(`release:local [${((Date.now() - started) / 1000).toFixed(0)} s] ${line}\n`) });
  const problems = releaseProblems(report);
  process.stdout.write(`${formatReport(report, problems)}\n(${((Date.now() - started) / 1000).toFixed(0)} s)\n`);
  exitCode = problems.length === 0 ? 0 : 1;
} catch (error) {
  process.stderr.write(`release:local failed: ${error instanceof Error ? error.message : String(error)}\n`);
} finally {
  if (values.keep) process.stderr.write(`release:local: kept ${workDir}\n`);
  else rmSync(workDir, { recursive: true, force: true });
}
process.exit(exitCode);
