#!/usr/bin/env node
// The second half of `pnpm test`: the test files that serve HTTP, run again
// with the HTTP app's fast path off (REACTOR_MCP_FAST_PATH=off), so both the
// fast path and the SDK's per-request path pass the same tests. Run after the
// whole suite (which runs with the fast path on, its default).
//
// The files are found by what they do — they create an app (`createMcpApp`),
// listen on a port, run or start the command, or speak Streamable HTTP — so a
// new HTTP test is included without being listed (`--list` shows them). The fast path's own tests (fastPath.*.test.ts) set the
// option explicitly and are not run twice.
//
// In CI (CI set), vitest's JSON report of this run is merged into
// .vitest-report.json, the report .ci/run's closing line is read from, so its
// "N passed, M failed" counts both runs.
//
// Usage: node scripts/test-fast-path-off.mjs [--list]
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const SERVES_HTTP = /createMcpApp|listen\(|runCommand\(|startServer\(|StreamableHTTPClientTransport/;
const OWN_TESTS = /fastPath\.[^/]*test\.ts$/;
const REPORT = '.vitest-report.json';
const OFF_REPORT = '.vitest-report-fast-path-off.json';

function testFiles(dir) {
  const out = [];
  for (const entry of readdirSync(dir)) {
    if (entry === 'node_modules' || entry === 'dist' || entry.startsWith('.')) continue;
    const full = path.join(dir, entry);
    if (statSync(full).isDirectory()) out.push(...testFiles(full));
    else if (entry.endsWith('.test.ts')) out.push(full);
  }
  return out;
}

const files = ['packages', 'extensions', 'apps']
  .flatMap((top) => testFiles(path.join(root, top)))
  .filter((file) => !OWN_TESTS.test(file) && SERVES_HTTP.test(readFileSync(file, 'utf8')))
  .map((file) => path.relative(root, file))
  .sort();

if (process.argv.includes('--list')) {
  process.stdout.write(`${files.join('\n')}\n`);
  process.exit(0);
}

process.stdout.write(`\n=== the ${files.length} HTTP-serving test files again, with REACTOR_MCP_FAST_PATH=off\n`);
const ci = Boolean(process.env.CI);
rmSync(path.join(root, OFF_REPORT), { force: true });
const args = ['exec', 'vitest', 'run', ...(ci ? ['--reporter=default', '--reporter=json', `--outputFile.json=${OFF_REPORT}`] : []), ...files];
const run = spawnSync('pnpm', args, { cwd: root, stdio: 'inherit', env: { ...process.env, REACTOR_MCP_FAST_PATH: 'off' } });

if (ci && existsSync(path.join(root, OFF_REPORT))) {
  const off = JSON.parse(readFileSync(path.join(root, OFF_REPORT), 'utf8'));
  const first = existsSync(path.join(root, REPORT)) ? JSON.parse(readFileSync(path.join(root, REPORT), 'utf8')) : undefined;
  const merged = first
    ? {
        ...first,
        success: first.success && off.success,
        numTotalTests: first.numTotalTests + off.numTotalTests,
        numPassedTests: first.numPassedTests + off.numPassedTests,
        numFailedTests: first.numFailedTests + off.numFailedTests,
        numPendingTests: first.numPendingTests + off.numPendingTests,
        numTodoTests: first.numTodoTests + off.numTodoTests,
        numTotalTestSuites: first.numTotalTestSuites + off.numTotalTestSuites,
        numPassedTestSuites: first.numPassedTestSuites + off.numPassedTestSuites,
        numFailedTestSuites: first.numFailedTestSuites + off.numFailedTestSuites,
        testResults: [...first.testResults, ...off.testResults.map((r) => ({ ...r, name: `${r.name} (fast path off)` }))],
      }
    : off;
  writeFileSync(path.join(root, REPORT), JSON.stringify(merged));
}
process.exit(run.status ?? 1);
