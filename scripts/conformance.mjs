#!/usr/bin/env node
// Runs the official MCP conformance suite (@modelcontextprotocol/conformance)
// against Reactor MCP, both of its lines, each pinned exactly:
//
//   2025        @modelcontextprotocol/conformance@0.1.16          --suite all
//   2026-07-28  @modelcontextprotocol/conformance@0.2.0-alpha.12  --requirements 2026-07-28
//
// It builds the host and the conformance extensions, serves them on a free
// port (extensions/conformance/scripts/serve.mjs: createMcpApp, the
// pass-through ToolExtension on every conformance tool, trigger tools wired to
// the host), runs each line, prints the suite's report and one summary line
// per line
//
//   conformance 2025: N passed, M failed (of T scenarios) …
//   conformance 2026-07-28: N passed, M failed (of T scenarios; S scored) …
//
// and exits non-zero only when a scenario that is NOT in that line's baseline
// (conformance-baseline.yml, conformance-baseline-2026-07-28.yml: the suite's
// --expected-failures files) fails, or when a run could not happen (no
// server, no results, time-out). A baseline entry whose scenario now passes
// is reported, not failed on.
//
// The suite needs Node 22. Run by Node 22 or newer (CI runs it on Node 26),
// the suite runs on that same Node; run by Node 20, it is run through npx with
// the node@22 package from the registry.
//
// Usage: node scripts/conformance.mjs [--line all|2025|2026-07-28] [--suite all|active]
//          [--scenario NAME] [--url URL] [--no-build] [--command] [--timeout-ms MS]
//          [--keep-results] [--baseline FILE] [--baseline-2026 FILE]
//   --line L        run one line only (default: both)
//   --suite S       the 2025 line's suite (default all)
//   --scenario NAME run that one scenario on the chosen line(s)
//   --url URL       test a server that is already running (nothing is built or started)
//   --command       serve with reactor-mcp-server (apps/conformance-server) instead of serve.mjs;
//                   its trigger tools are not wired, so 2026-07-28 list-changed checks fail there
//   --baseline FILE, --baseline-2026 FILE   the expected failures of each line
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import process from 'node:process';
import { clearTimeout, setTimeout } from 'node:timers';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { freePort } from './freePort.mjs';
import { scriptArgs } from './scriptArgs.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const APP_DIR = path.join(ROOT, 'apps', 'conformance-server');
const CLI = path.join(ROOT, 'packages', 'host', 'dist', 'cli.js');
const SERVE = path.join(ROOT, 'extensions', 'conformance', 'scripts', 'serve.mjs');

const { values: options } = parseArgs({ args: scriptArgs(),
  options: {
    line: { type: 'string', default: 'all' },
    suite: { type: 'string', default: 'all' },
    scenario: { type: 'string' },
    url: { type: 'string' },
    'no-build': { type: 'boolean', default: false },
    command: { type: 'boolean', default: false },
    'timeout-ms': { type: 'string', default: process.env.CONFORMANCE_TIMEOUT_MS ?? '600000' },
    'keep-results': { type: 'boolean', default: false },
    baseline: { type: 'string', default: path.join(ROOT, 'conformance-baseline.yml') },
    'baseline-2026': { type: 'string', default: path.join(ROOT, 'conformance-baseline-2026-07-28.yml') },
  },
});
const timeoutMs = Number(options['timeout-ms']);
if (!Number.isFinite(timeoutMs) || timeoutMs <= 0) fail(`--timeout-ms must be a positive number of milliseconds, got ${JSON.stringify(options['timeout-ms'])}`);
if (!['all', 'active'].includes(options.suite)) fail(`--suite must be "all" or "active", got ${JSON.stringify(options.suite)}`);
if (!['all', '2025', '2026-07-28'].includes(options.line)) fail(`--line must be "all", "2025" or "2026-07-28", got ${JSON.stringify(options.line)}`);

/** npx's extra package for the suite's Node (none on Node 22+), and how the log names it. */
const SUITE_NODE = Number(process.versions.node.split('.')[0]) >= 22 ? { npx: [], name: `Node ${process.versions.node}` } : { npx: ['-p', 'node@22'], name: 'Node 22 via npx' };

/** The suite's lines, each pinned exactly. */
const LINES = [
  {
    name: '2025',
    pkg: '@modelcontextprotocol/conformance@0.1.16',
    selection: ['--suite', options.suite],
    baseline: path.resolve(options.baseline),
    suiteReadsBaseline: true,
  },
  {
    name: '2026-07-28',
    pkg: '@modelcontextprotocol/conformance@0.2.0-alpha.12',
    selection: ['--requirements', '2026-07-28'],
    baseline: path.resolve(options['baseline-2026']),
    // Given --expected-failures, 0.2.x stops printing which scenarios its requirement set does not
    // score; this script compares with the baseline itself, so the suite is not handed it.
    suiteReadsBaseline: false,
  },
].filter((line) => options.line === 'all' || options.line === line.name);

const log = (line) => process.stdout.write(`${line}\n`);
const children = new Set();
const deadline = Date.now() + timeoutMs;
const overall = setTimeout(() => {
  log(`conformance: timed out after ${timeoutMs} ms; stopping`);
  stopAll();
  for (const line of LINES) log(`conformance ${line.name}: 0 passed, 0 failed (of 0 scenarios) — the run did not finish`);
  process.exit(1);
}, timeoutMs);
overall.unref();
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => {
    stopAll();
    process.exit(130);
  });
}

const resultsRoot = mkdtempSync(path.join(os.tmpdir(), 'reactor-conformance-'));
let server;
let exitCode = 0;
const summaries = [];
try {
  let url = options.url;
  if (url === undefined) {
    if (!options['no-build']) build();
    server = await startServer(options.command);
    url = server.url;
  }
  for (const line of LINES) {
    const resultsDir = path.join(resultsRoot, line.name);
    try {
      const run = await runSuite(line, url, resultsDir);
      const outcome = report(line, run, resultsDir);
      summaries.push(outcome.summary);
      if (outcome.failed) exitCode = 1;
    } catch (error) {
      log(`conformance ${line.name}: ${error instanceof Error ? error.message : String(error)}`);
      if (server) log(server.logTail());
      summaries.push(`conformance ${line.name}: 0 passed, 0 failed (of 0 scenarios) — the run did not finish`);
      exitCode = 1;
    }
  }
} catch (error) {
  log(`conformance: ${error instanceof Error ? error.message : String(error)}`);
  if (server) log(server.logTail());
  for (const line of LINES) summaries.push(`conformance ${line.name}: 0 passed, 0 failed (of 0 scenarios) — the run did not finish`);
  exitCode = 1;
} finally {
  await server?.stop();
  if (options['keep-results']) log(`conformance: results kept in ${resultsRoot}`);
  else rmSync(resultsRoot, { recursive: true, force: true });
}
log('');
for (const summary of summaries) log(summary);
process.exit(exitCode);

function fail(message) {
  process.stderr.write(`conformance: ${message}\n`);
  process.exit(2);
}

function build() {
  log('conformance: building @reactor/host and @reactor/ext-conformance');
  const result = spawnSync('pnpm', ['--filter', '@reactor/host', '--filter', '@reactor/ext-conformance', 'build'], {
    cwd: ROOT,
    stdio: 'inherit',
    timeout: Math.max(1, deadline - Date.now()),
  });
  if (result.error) throw new Error(`could not run pnpm to build (${result.error.message}); build first and pass --no-build`);
  if (result.status !== 0) throw new Error(`the build failed (exit ${result.status})`);
}


// Starts a child in its own process group, so stopping it also stops what it started (npx → node).
function startChild(command, args, spawnOptions) {
  const child = spawn(command, args, { ...spawnOptions, detached: true });
  children.add(child);
  child.on('exit', () => children.delete(child));
  return child;
}

function stopChild(child, signal = 'SIGTERM') {
  if (child.exitCode !== null || child.signalCode !== null) return;
  try {
    process.kill(-child.pid, signal);
  } catch {
    child.kill(signal);
  }
}

function stopAll() {
  for (const child of children) stopChild(child, 'SIGKILL');
}

async function startServer(useCommand) {
  const port = await freePort();
  let command;
  if (!useCommand) {
    command = [SERVE, String(port)];
  } else {
    if (!existsSync(CLI)) throw new Error(`${path.relative(ROOT, CLI)} does not exist; build @reactor/host`);
    command = [CLI, '--host', '127.0.0.1', '--port', String(port), '--path', '/mcp', '--log-level', process.env.REACTOR_MCP_LOG ?? 'warn'];
  }
  log(`conformance: starting ${useCommand ? 'reactor-mcp-server' : 'serve.mjs'} in ${path.relative(ROOT, APP_DIR)} on port ${port}`);
  const child = startChild(process.execPath, command, { cwd: APP_DIR, stdio: ['ignore', 'pipe', 'pipe'] });
  const output = [];
  const keep = (chunk) => {
    output.push(chunk.toString());
    if (output.length > 200) output.splice(0, output.length - 200);
  };
  child.stdout.on('data', keep);
  child.stderr.on('data', keep);
  const exited = new Promise((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
  const base = `http://127.0.0.1:${port}`;
  const handle = {
    url: `${base}/mcp`,
    logTail: () => `--- server output (last lines) ---\n${output.join('').split('\n').slice(-40).join('\n')}`,
    stop: async () => {
      stopChild(child, 'SIGTERM');
      const grace = setTimeout(() => stopChild(child, 'SIGKILL'), 5000);
      await exited;
      clearTimeout(grace);
    },
  };
  const health = await waitForHealth(`${base}/healthz`, exited);
  if (health.ok !== true) log(`conformance: /healthz reports a problem: ${JSON.stringify(health)}`);
  return handle;
}

async function waitForHealth(url, exited) {
  let gone;
  void exited.then((status) => (gone = status));
  const until = Math.min(deadline, Date.now() + 30_000);
  for (;;) {
    if (gone) throw new Error(`the server exited before it was ready (code ${gone.code}, signal ${gone.signal})`);
    try {
      const response = await fetch(url, { signal: AbortSignal.timeout(2000) });
      if (response.ok) return await response.json();
    } catch {
      // not listening yet
    }
    if (Date.now() > until) throw new Error(`${url} did not answer 200 within 30 s`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

function shellQuote(value) {
  return `'${String(value).replaceAll("'", "'\\''")}'`;
}

async function runSuite(line, url, resultsDir) {
  const suiteArgs = ['conformance', 'server', '--url', url, '-o', resultsDir];
  if (options.scenario !== undefined) suiteArgs.push('--scenario', options.scenario);
  else suiteArgs.push(...line.selection);
  if (line.suiteReadsBaseline && existsSync(line.baseline)) suiteArgs.push('--expected-failures', line.baseline);
  log(`conformance ${line.name}: running ${line.pkg} ${options.scenario === undefined ? line.selection.join(' ') : `--scenario ${options.scenario}`} (${SUITE_NODE.name}) against ${url}`);
  const child = startChild('npx', ['-y', ...SUITE_NODE.npx, '-p', line.pkg, '-c', suiteArgs.map(shellQuote).join(' ')], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'inherit'],
    // This Node first on PATH: npx, and the suite's `#!/usr/bin/env node`, run on it (node@22's bin comes first when added).
    env: { ...process.env, PATH: `${path.dirname(process.execPath)}${path.delimiter}${process.env.PATH ?? ''}`, NO_UPDATE_NOTIFIER: '1', npm_config_yes: 'true', npm_config_update_notifier: 'false' },
  });
  let stdout = '';
  child.stdout.on('data', (chunk) => {
    stdout += chunk.toString();
    process.stdout.write(chunk);
  });
  const { code, signal } = await new Promise((resolve) => child.once('exit', (c, s) => resolve({ code: c, signal: s })));
  const scenarios = [...stdout.matchAll(/^=== Running scenario: (\S+) ===$/gm)].map((m) => m[1]);
  if (options.scenario !== undefined && scenarios.length === 0) scenarios.push(options.scenario);
  if (scenarios.length === 0) throw new Error(`the suite ran no scenario (exit ${code ?? signal})`);
  // 0.2.x lists the scenarios a requirement set does not score ("  ✗ name (extension)").
  const unscoredBlock = /^Not scored for [^\n]*\n((?:[ \t]+\S+ \S+ \([^)]+\)\n?)*)/m.exec(stdout)?.[1] ?? '';
  const unscored = new Map([...unscoredBlock.matchAll(/^[ \t]+\S+ (\S+) \(([^)]+)\)/gm)].map((m) => [m[1], m[2]]));
  return { scenarios, unscored, suiteExit: code };
}

// The suite writes <dir>/server-<scenario>-<ISO timestamp>/checks.json per scenario.
function readChecks(resultsDir) {
  const byScenario = new Map();
  for (const entry of readdirSync(resultsDir, { withFileTypes: true })) {
    const match = /^server-(.+)-\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2}-\d{3}Z$/.exec(entry.name);
    if (!entry.isDirectory() || !match) continue;
    const file = path.join(resultsDir, entry.name, 'checks.json');
    if (existsSync(file)) byScenario.set(match[1], JSON.parse(readFileSync(file, 'utf8')));
  }
  return byScenario;
}

// The baseline is ours and flat: `server:` then `  - scenario   # reason` lines.
function readBaseline(file) {
  if (!existsSync(file)) return new Map();
  const entries = new Map();
  let section;
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    const key = /^([A-Za-z]+):/.exec(line);
    if (key) section = key[1];
    const item = /^\s+-\s+([^\s#]+)\s*(?:#\s*(.*))?$/.exec(line);
    if (item && section === 'server') entries.set(item[1], item[2] ?? '');
  }
  return entries;
}

function report(line, { scenarios, unscored }, resultsDir) {
  const checks = readChecks(resultsDir);
  const baseline = readBaseline(line.baseline);
  const failed = [];
  const passed = [];
  for (const scenario of scenarios) {
    const list = checks.get(scenario);
    // As the suite's own baseline check does, a warning counts against a scenario.
    const bad = list === undefined || list.some((c) => c.status === 'FAILURE' || c.status === 'WARNING');
    (bad ? failed : passed).push(scenario);
  }
  const unexpected = failed.filter((s) => !baseline.has(s));
  const expected = failed.filter((s) => baseline.has(s));
  const stale = passed.filter((s) => baseline.has(s));
  const tag = `conformance ${line.name}`;
  log('');
  for (const s of expected) log(`${tag}: expected failure (baseline): ${s} — ${baseline.get(s) || 'no reason given'}`);
  for (const s of stale) log(`${tag}: ${s} now passes; remove it from ${path.basename(line.baseline)}`);
  for (const s of unexpected) {
    const problems = (checks.get(s) ?? [{ status: 'FAILURE', errorMessage: 'the scenario produced no results' }]).filter((c) => c.status === 'FAILURE' || c.status === 'WARNING');
    log(`${tag}: UNEXPECTED failure: ${s}: ${problems.map((c) => `${c.status} ${c.name ?? c.id}${c.errorMessage ? ` (${c.errorMessage})` : ''}`).join('; ')}`);
  }
  const scored = scenarios.filter((s) => !unscored.has(s));
  const scoredPassed = scored.filter((s) => passed.includes(s)).length;
  const scoredNote = unscored.size > 0 ? `; ${scoredPassed}/${scored.length} scored passed, ${scenarios.length - scored.length} unscored (${[...new Set(unscored.values())].join(', ')})` : '';
  // The tasks extension's scenarios (SEP-2663), unscored by the 2026-07-28 set: each named, pass or fail.
  const tasks = scenarios.filter((s) => s.startsWith('tasks-'));
  if (tasks.length > 0) log(`${tag} tasks-* (${tasks.filter((s) => passed.includes(s)).length} of ${tasks.length} passed): ${tasks.map((s) => `${passed.includes(s) ? '✓' : '✗'} ${s}`).join(', ')}`);
  const summary = `${tag} (${line.pkg}): ${passed.length} passed, ${failed.length} failed (of ${scenarios.length} scenarios${scoredNote})${expected.length ? `; ${expected.length} failure(s) expected by the baseline` : ''}${unexpected.length ? `; ${unexpected.length} UNEXPECTED` : ''}`;
  return { summary, failed: unexpected.length > 0 };
}
