#!/usr/bin/env node
// Runs the official MCP conformance suite (@modelcontextprotocol/conformance)
// against Reactor MCP: builds the host and the conformance extensions, serves
// them with `reactor-mcp-server` from apps/conformance-server on a free port,
// runs every server scenario, prints the suite's report and one summary line
//
//   conformance: N passed, M failed (of T scenarios)
//
// and exits non-zero only when a scenario that is NOT in the baseline
// (conformance-baseline.yml, the suite's --expected-failures file) fails, or
// when the run itself could not happen (no server, no results, time-out).
// A baseline entry whose scenario now passes is reported, not failed on.
//
// The suite needs Node 22; the project runs on Node 20, so it is run through
// npx with the node@22 package from the registry.
//
// Usage: node scripts/conformance.mjs [--suite all|active] [--scenario NAME]
//          [--url URL] [--no-build] [--dev-server] [--timeout-ms MS] [--keep-results]
//          [--baseline FILE]
//   --url URL       test a server that is already running (nothing is built or started)
//   --dev-server    serve with extensions/conformance/scripts/dev-server.mjs instead of the command
//   --baseline FILE the expected failures (default: conformance-baseline.yml at the repo root)
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import process from 'node:process';
import { clearTimeout, setTimeout } from 'node:timers';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const SUITE_PACKAGE = '@modelcontextprotocol/conformance@0.1.16';
const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const APP_DIR = path.join(ROOT, 'apps', 'conformance-server');
const CLI = path.join(ROOT, 'packages', 'host', 'dist', 'cli.js');
const DEV_SERVER = path.join(ROOT, 'extensions', 'conformance', 'scripts', 'dev-server.mjs');

const { values: options } = parseArgs({
  options: {
    suite: { type: 'string', default: 'all' },
    scenario: { type: 'string' },
    url: { type: 'string' },
    'no-build': { type: 'boolean', default: false },
    'dev-server': { type: 'boolean', default: false },
    'timeout-ms': { type: 'string', default: process.env.CONFORMANCE_TIMEOUT_MS ?? '300000' },
    'keep-results': { type: 'boolean', default: false },
    baseline: { type: 'string', default: path.join(ROOT, 'conformance-baseline.yml') },
  },
});
const BASELINE = path.resolve(options.baseline);
const timeoutMs = Number(options['timeout-ms']);
if (!Number.isFinite(timeoutMs) || timeoutMs <= 0) fail(`--timeout-ms must be a positive number of milliseconds, got ${JSON.stringify(options['timeout-ms'])}`);
if (!['all', 'active'].includes(options.suite)) fail(`--suite must be "all" or "active", got ${JSON.stringify(options.suite)}`);

const log = (line) => process.stdout.write(`${line}\n`);
const children = new Set();
const deadline = Date.now() + timeoutMs;
const overall = setTimeout(() => {
  log(`conformance: timed out after ${timeoutMs} ms; stopping`);
  stopAll();
  log('conformance: 0 passed, 0 failed (of 0 scenarios) — the run did not finish');
  process.exit(1);
}, timeoutMs);
overall.unref();
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => {
    stopAll();
    process.exit(130);
  });
}

const resultsDir = mkdtempSync(path.join(os.tmpdir(), 'reactor-conformance-'));
let server;
let exitCode;
try {
  let url = options.url;
  if (url === undefined) {
    if (!options['no-build']) build();
    server = await startServer(options['dev-server']);
    url = server.url;
  }
  const run = await runSuite(url);
  exitCode = report(run);
} catch (error) {
  log(`conformance: ${error instanceof Error ? error.message : String(error)}`);
  if (server) log(server.logTail());
  log('conformance: 0 passed, 0 failed (of 0 scenarios) — the run did not finish');
  exitCode = 1;
} finally {
  await server?.stop();
  if (options['keep-results']) log(`conformance: results kept in ${resultsDir}`);
  else rmSync(resultsDir, { recursive: true, force: true });
}
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

function freePort() {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.unref();
    probe.on('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address();
      probe.close(() => resolve(port));
    });
  });
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

async function startServer(useDevServer) {
  const port = await freePort();
  let command;
  if (useDevServer) {
    command = [DEV_SERVER, String(port)];
  } else {
    if (!existsSync(CLI)) throw new Error(`${path.relative(ROOT, CLI)} does not exist; build @reactor/host (or pass --dev-server)`);
    command = [CLI, '--host', '127.0.0.1', '--port', String(port), '--path', '/mcp', '--log-level', process.env.REACTOR_MCP_LOG ?? 'warn'];
  }
  log(`conformance: starting ${useDevServer ? 'the dev server' : 'reactor-mcp-server'} in ${path.relative(ROOT, APP_DIR)} on port ${port}`);
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

async function runSuite(url) {
  const suiteArgs = ['conformance', 'server', '--url', url, '-o', resultsDir];
  if (options.scenario !== undefined) suiteArgs.push('--scenario', options.scenario);
  else suiteArgs.push('--suite', options.suite);
  if (existsSync(BASELINE)) suiteArgs.push('--expected-failures', BASELINE);
  log(`conformance: running ${SUITE_PACKAGE} (Node 22 via npx) against ${url}`);
  const child = startChild('npx', ['-y', '-p', 'node@22', '-p', SUITE_PACKAGE, '-c', suiteArgs.map(shellQuote).join(' ')], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'inherit'],
    env: { ...process.env, NO_UPDATE_NOTIFIER: '1', npm_config_yes: 'true', npm_config_update_notifier: 'false' },
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
  return { scenarios, suiteExit: code };
}

// The suite writes <dir>/server-<scenario>-<ISO timestamp>/checks.json per scenario.
function readChecks() {
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
function readBaseline() {
  if (!existsSync(BASELINE)) return new Map();
  const entries = new Map();
  let section;
  for (const line of readFileSync(BASELINE, 'utf8').split('\n')) {
    const key = /^([A-Za-z]+):/.exec(line);
    if (key) section = key[1];
    const item = /^\s+-\s+([^\s#]+)\s*(?:#\s*(.*))?$/.exec(line);
    if (item && section === 'server') entries.set(item[1], item[2] ?? '');
  }
  return entries;
}

function report({ scenarios }) {
  const checks = readChecks();
  const baseline = readBaseline();
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
  log('');
  for (const s of expected) log(`conformance: expected failure (baseline): ${s} — ${baseline.get(s) || 'no reason given'}`);
  for (const s of stale) log(`conformance: ${s} now passes; remove it from ${path.basename(BASELINE)}`);
  for (const s of unexpected) {
    const problems = (checks.get(s) ?? [{ status: 'FAILURE', errorMessage: 'the scenario produced no results' }]).filter((c) => c.status === 'FAILURE' || c.status === 'WARNING');
    log(`conformance: UNEXPECTED failure: ${s}: ${problems.map((c) => `${c.status} ${c.name ?? c.id}${c.errorMessage ? ` (${c.errorMessage})` : ''}`).join('; ')}`);
  }
  log(`conformance: ${passed.length} passed, ${failed.length} failed (of ${scenarios.length} scenarios)${expected.length ? `; ${expected.length} failure(s) expected by the baseline` : ''}`);
  return unexpected.length > 0 ? 1 : 0;
}
