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
// In CI (CI set), vitest writes its JSON report to .vitest-report.json (the
// config's reporter; REACTOR_VITEST_REPORT names another file), the report
// .ci/run's closing line is read from: the first
// run's report is set aside first and merged back with this run's, so the line's
// "N passed, M failed" counts both runs.
//
// Usage: node scripts/test-fast-path-off.mjs [--list] [SUBSTRING…]  (only the files whose path contains one)
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const SERVES_HTTP = /createMcpApp|listen\(|runCommand\(|startServer\(|StreamableHTTPClientTransport/;
const OWN_TESTS = /fastPath\.[^/]*test\.ts$/;
const REPORT = process.env.REACTOR_VITEST_REPORT ?? '.vitest-report.json';
const FIRST_REPORT = REPORT.replace(/(\.json)?$/, '-fast-path-on.json');

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
  .filter((file) => {
    const only = process.argv.slice(2).filter((arg) => !arg.startsWith('--'));
    return only.length === 0 || only.some((part) => file.includes(part));
  })
  .sort();

if (process.argv.includes('--list')) {
  process.stdout.write(`${files.join('\n')}\n`);
  process.exit(0);
}

process.stdout.write(`\n=== the ${files.length} HTTP-serving test files again, with REACTOR_MCP_FAST_PATH=off\n`);
const ci = Boolean(process.env.CI);
const at = (file) => path.join(root, file);
const readReport = (file) => (existsSync(at(file)) ? JSON.parse(readFileSync(at(file), 'utf8')) : undefined);
if (ci && existsSync(at(REPORT))) renameSync(at(REPORT), at(FIRST_REPORT));
const run = spawnSync('pnpm', ['exec', 'vitest', 'run', ...files], { cwd: root, stdio: 'inherit', env: { ...process.env, REACTOR_MCP_FAST_PATH: 'off' } });

if (ci) {
  const first = readReport(FIRST_REPORT);
  const off = readReport(REPORT);
  const sum = (key) => (first?.[key] ?? 0) + (off?.[key] ?? 0);
  const keys = ['numTotalTests', 'numPassedTests', 'numFailedTests', 'numPendingTests', 'numTodoTests', 'numTotalTestSuites', 'numPassedTestSuites', 'numFailedTestSuites'];
  if (first || off) {
    const merged = {
      ...(first ?? off),
      ...Object.fromEntries(keys.map((key) => [key, sum(key)])),
      // No report from this run (vitest could not start) counts as a failure.
      success: (first?.success ?? true) && off !== undefined && off.success && run.status === 0,
      testResults: [...(first?.testResults ?? []), ...(off?.testResults ?? []).map((r) => ({ ...r, name: `${r.name} (fast path off)` }))],
    };
    writeFileSync(at(REPORT), JSON.stringify(merged));
  }
  rmSync(at(FIRST_REPORT), { force: true });
}
process.exit(run.status ?? 1);
