#!/usr/bin/env node
// Load and memory figures for Reactor MCP, on loopback only (127.0.0.1).
//
// 1. Load: serves the demo (apps/demo: spaces + benchmarks, real tools) in a
//    child process on a free port, opens 200 concurrent 2025-protocol sessions
//    and 20 2026-07-28 per-request clients (@modelcontextprotocol/client) on
//    mixed selections (query, path and header forms), and has each call tools
//    in a closed loop for the duration (bounded by a request budget too). It
//    reports throughput, latency percentiles, errors (the goal is zero) and the
//    server's RSS (VmRSS from /proc/<pid>/status) before, during and after.
// 2. Memory: serves a generated extension of 16 opt-in toolsets (65,535
//    combinations) with the built `reactor-mcp-server` command from a temp app
//    directory, enumerates thousands of distinct combinations and opens
//    sessions far past the cap, and reports RSS at each step. That server runs
//    with its V8 heap capped (--max-old-space-size, default 128 MiB): were the
//    blueprint cache or the sessions unbounded, it would run out of memory;
//    bounded, it serves every request and its RSS stays under the cap's reach.
// Then each server is sent SIGTERM and must exit 0.
//
// Usage: node scripts/load.mjs [--duration S] [--sessions N] [--modern N]
//          [--max-requests N] [--combinations N] [--session-attempts N] [--server-heap-mb N]
//          [--no-build] [--no-load] [--no-memory] [--json FILE]
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import process from 'node:process';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { scriptArgs } from './scriptArgs.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const DEMO = path.join(ROOT, 'apps', 'demo', 'dist', 'main.js');
const CLI = path.join(ROOT, 'packages', 'host', 'dist', 'cli.js');

const { values: flags } = parseArgs({ args: scriptArgs(),
  options: {
    duration: { type: 'string', default: '60' },
    sessions: { type: 'string', default: '200' },
    modern: { type: 'string', default: '20' },
    'max-requests': { type: 'string', default: '5000000' },
    combinations: { type: 'string', default: '20000' },
    'session-attempts': { type: 'string', default: '3000' },
    'server-heap-mb': { type: 'string', default: '128' },
    'no-build': { type: 'boolean', default: false },
    'no-load': { type: 'boolean', default: false },
    'no-memory': { type: 'boolean', default: false },
    json: { type: 'string' },
  },
});
const number = (name, min) => {
  const value = Number(flags[name]);
  if (!Number.isFinite(value) || value < min) fail(`--${name} must be a number ≥ ${min}, got ${JSON.stringify(flags[name])}`);
  return value;
};
const options = {
  durationMs: number('duration', 1) * 1000,
  sessions: Math.floor(number('sessions', 0)),
  modern: Math.floor(number('modern', 0)),
  maxRequests: Math.floor(number('max-requests', 1)),
  combinations: Math.min(65_535, Math.floor(number('combinations', 1))),
  sessionAttempts: Math.floor(number('session-attempts', 1)),
  serverHeapMb: Math.floor(number('server-heap-mb', 16)),
};

const log = (line) => process.stdout.write(`${line}\n`);
const children = new Set();
const temps = [];
const cleanupAll = () => {
  for (const child of children) child.kill('SIGKILL');
  for (const dir of temps) rmSync(dir, { recursive: true, force: true });
};
process.on('exit', cleanupAll);
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => process.exit(130));
// A hard bound on the whole run, whatever happens.
const overall = setTimeout(() => {
  log('load: the run did not finish in time; stopping');
  process.exit(1);
}, options.durationMs + 10 * 60_000);
overall.unref();

// ---------------------------------------------------------------------------

function fail(message) {
  process.stderr.write(`load: ${message}\n`);
  process.exit(2);
}

/** The v2 client, resolved from the demo's devDependencies (the root has none). */
async function importClient() {
  const dir = realpathSync(path.join(ROOT, 'apps', 'demo', 'node_modules', '@modelcontextprotocol', 'client'));
  const pkg = JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8'));
  return await import(pathToFileURL(path.join(dir, pkg.exports['.'].import.default)).href);
}

function build() {
  log('load: building the demo and the host (turbo, cached)');
  const result = spawnSync('pnpm', ['exec', 'turbo', 'run', 'build', '--filter=@reactor/demo...', '--output-logs=errors-only'], {
    cwd: ROOT,
    stdio: 'inherit',
    env: { ...process.env, TURBO_TELEMETRY_DISABLED: '1' },
  });
  if (result.status !== 0) fail(`the build failed (${result.error?.message ?? `exit ${result.status}`}); build first and pass --no-build`);
}

/** Starts a server child and resolves once its start-up summary names the URL. */
function startServer(args, cwd, env, nodeFlags = []) {
  const child = spawn(process.execPath, [...nodeFlags, ...args], { cwd, env: { PATH: process.env.PATH, ...env }, stdio: ['ignore', 'ignore', 'pipe'] });
  children.add(child);
  const exited = new Promise((resolve) => child.once('exit', (code, signal) => (children.delete(child), resolve(code ?? signal))));
  let stderr = '';
  const url = new Promise((resolve, reject) => {
    child.stderr.setEncoding('utf8').on('data', (chunk) => {
      // Keep only the tail: the stream is drained for the whole run.
      stderr = (stderr + chunk).slice(-20_000);
      for (const line of stderr.split('\n')) {
        if (!line.startsWith('{')) continue;
        try {
          const fields = JSON.parse(line);
          if (typeof fields.url === 'string' && typeof fields.msg === 'string' && fields.msg.includes('serving')) resolve(new URL(fields.url));
        } catch {
          // a partial line; the next chunk completes it
        }
      }
    });
    void exited.then((code) => reject(new Error(`the server exited (${code}) before serving; stderr:\n${stderr}`)));
  });
  return { child, url, exited, stderrTail: () => stderr };
}

/** VmRSS and VmHWM (peak) of a process, MiB. */
function memoryOf(pid) {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (field) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? NaN);
  return { rss: round(kb('VmRSS') / 1024), peak: round(kb('VmHWM') / 1024) };
}

const round = (x, digits = 1) => Math.round(x * 10 ** digits) / 10 ** digits;
const percentile = (sorted, p) => sorted.length === 0 ? NaN : sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];

async function stopServer(server) {
  server.child.kill('SIGTERM');
  return await server.exited;
}

// ---------------------------------------------------------------------------
// 1. Load

/** The selections clients connect with, and the tools each may call. */
function selections(benchmark) {
  const spaces = [
    ['list_spaces', {}],
    ['list_files', { space: 'climate-lab' }],
    ['read_file', { space: 'climate-lab', path: 'README.md' }],
    ['search_text', { space: 'climate-lab', query: 'temperature', maxResults: 5 }],
  ];
  const benchmarks = [
    ['list_benchmarks', {}],
    ['list_runs', { limit: 5 }],
    ['best_run', { benchmark }],
  ];
  const listTool = [['list_server_toolsets', {}]];
  return [
    { name: 'default (spaces)', path: '/mcp', headers: {}, tools: [...spaces, ...listTool] },
    { name: 'query ?benchmarks', path: '/mcp?benchmarks', headers: {}, tools: [...spaces, ...benchmarks] },
    { name: 'path /only=benchmarks', path: '/mcp/only=benchmarks', headers: {}, tools: [...benchmarks, ...listTool] },
    { name: 'header only=spaces', path: '/mcp', headers: { 'x-mcp-toolsets': 'only=spaces' }, tools: spaces },
    { name: 'query ?spaces,benchmarks&utm_source=x', path: '/mcp?spaces,benchmarks&utm_source=x', headers: {}, tools: [...spaces, ...benchmarks] },
  ];
}

async function connect(base, selection, modern) {
  const client = new Client({ name: 'reactor-load', version: '1.0.0' }, modern ? { versionNegotiation: { mode: 'auto' } } : {});
  const transport = new StreamableHTTPClientTransport(new URL(selection.path, base), { requestInit: { headers: selection.headers } });
  await client.connect(transport);
  return { client, transport };
}

async function runLoad() {
  const data = mkdtempSync(path.join(os.tmpdir(), 'reactor-load-data-'));
  temps.push(data);
  log(`load: starting the demo (${path.relative(ROOT, DEMO)}) on 127.0.0.1, a free port`);
  const server = startServer([DEMO, '--host', '127.0.0.1', '--port', '0', '--log-level', 'info'], ROOT, { REACTOR_BENCHMARKS_DATA: data });
  const base = await server.url;
  const idle = memoryOf(server.child.pid);

  // One probe finds a benchmark id and checks the mix serves.
  const probe = await connect(base, { path: '/mcp?only=benchmarks', headers: {} }, false);
  const listed = await probe.client.callTool({ name: 'list_benchmarks', arguments: {} });
  const benchmark = listed.structuredContent?.benchmarks?.[0]?.id;
  if (typeof benchmark !== 'string') throw new Error(`list_benchmarks gave no benchmark id: ${JSON.stringify(listed).slice(0, 300)}`);
  await probe.transport.terminateSession();
  await probe.client.close();
  const mix = selections(benchmark);

  log(`load: opening ${options.sessions} sessions (2025) and ${options.modern} per-request clients (2026-07-28) on ${mix.length} selections`);
  const clients = [];
  const opening = [];
  for (let i = 0; i < options.sessions + options.modern; i++) {
    const modern = i >= options.sessions;
    const selection = mix[i % mix.length];
    opening.push(connect(base, selection, modern).then((c) => clients.push({ ...c, selection, modern, era: modern ? '2026-07-28' : '2025' })));
  }
  await Promise.all(opening);
  const connected = memoryOf(server.child.pid);

  log(`load: calling tools for ${options.durationMs / 1000} s (at most ${options.maxRequests} requests)`);
  const latencies = [];
  const byEra = { '2025': 0, '2026-07-28': 0 };
  const byTool = {};
  const toolLatencies = {};
  const errors = { total: 0, messages: {} };
  const fault = (message) => {
    errors.total++;
    const key = message.slice(0, 160);
    errors.messages[key] = (errors.messages[key] ?? 0) + 1;
  };
  let issued = 0;
  const startedAt = performance.now();
  const deadline = startedAt + options.durationMs;
  const sampled = [];
  const sampler = setInterval(() => sampled.push(memoryOf(server.child.pid).rss), 1000);
  await Promise.all(
    clients.map(async (c, index) => {
      let n = index;
      while (performance.now() < deadline && issued < options.maxRequests) {
        issued++;
        const [name, args] = c.selection.tools[n++ % c.selection.tools.length];
        const t0 = performance.now();
        try {
          const result = await c.client.callTool({ name, arguments: args });
          latencies.push(performance.now() - t0);
          if (result.isError) fault(`${name}: isError: ${JSON.stringify(result.content).slice(0, 120)}`);
          byEra[c.era]++;
          byTool[name] = (byTool[name] ?? 0) + 1;
          (toolLatencies[name] ??= []).push(performance.now() - t0);
        } catch (error) {
          latencies.push(performance.now() - t0);
          fault(`${name}: ${error instanceof Error ? error.message : String(error)}`);
        }
      }
    }),
  );
  const elapsedMs = performance.now() - startedAt;
  clearInterval(sampler);
  const loaded = memoryOf(server.child.pid);

  await Promise.all(clients.map(async (c) => {
    if (!c.modern) await c.transport.terminateSession().catch((error) => fault(`DELETE: ${error.message}`));
    await c.client.close();
  }));
  const closed = memoryOf(server.child.pid);
  const health = await (await fetch(new URL('/healthz', base))).json();
  const exitCode = await stopServer(server);

  latencies.sort((a, b) => a - b);
  const perTool = Object.fromEntries(Object.entries(toolLatencies).map(([name, list]) => {
    list.sort((a, b) => a - b);
    return [name, { calls: list.length, p50: round(percentile(list, 50), 2), p99: round(percentile(list, 99), 2) }];
  }));
  const result = {
    server: 'apps/demo (reactor-mcp-server with @reactor/ext-spaces and @reactor/ext-benchmarks)',
    sessions2025: options.sessions,
    clients2026: options.modern,
    selections: mix.map((s) => s.name),
    durationS: round(elapsedMs / 1000, 2),
    requests: latencies.length,
    byEra,
    byTool: perTool,
    throughput: round(latencies.length / (elapsedMs / 1000)),
    latencyMs: { p50: round(percentile(latencies, 50), 2), p90: round(percentile(latencies, 90), 2), p99: round(percentile(latencies, 99), 2), max: round(latencies.at(-1) ?? NaN, 2) },
    errors,
    rssMiB: { idle: idle.rss, connected: connected.rss, duringMax: Math.max(...sampled, loaded.rss), afterLoad: loaded.rss, afterClose: closed.rss, peak: closed.peak },
    rssEverySecondMiB: sampled,
    healthOk: health.ok,
    exitCode,
  };
  printLoad(result);
  return result;
}

function printLoad(r) {
  log('');
  log(`Load — ${r.server}`);
  log(`  clients        ${r.sessions2025} sessions (2025) + ${r.clients2026} per-request (2026-07-28), selections: ${r.selections.join('; ')}`);
  log(`  duration       ${r.durationS} s`);
  log(`  requests       ${r.requests} (2025: ${r.byEra['2025']}, 2026-07-28: ${r.byEra['2026-07-28']})`);
  log('  by tool        calls    p50 ms    p99 ms');
  for (const [name, t] of Object.entries(r.byTool).sort()) log(`    ${name.padEnd(22)}${String(t.calls).padStart(7)}${String(t.p50).padStart(10)}${String(t.p99).padStart(10)}`);
  log(`  throughput     ${r.throughput} calls/s`);
  log(`  latency (ms)   p50 ${r.latencyMs.p50}  p90 ${r.latencyMs.p90}  p99 ${r.latencyMs.p99}  max ${r.latencyMs.max}`);
  log(`  errors         ${r.errors.total}${r.errors.total > 0 ? ` ${JSON.stringify(r.errors.messages)}` : ''}`);
  log(`  server RSS     idle ${r.rssMiB.idle} MiB → connected ${r.rssMiB.connected} → max during ${r.rssMiB.duringMax} → after load ${r.rssMiB.afterLoad} → after close ${r.rssMiB.afterClose} (peak ${r.rssMiB.peak})`);
  log(`  RSS each s     ${r.rssEverySecondMiB.join(' ')}`);
  log(`  /healthz ok    ${r.healthOk}; exit after SIGTERM: ${r.exitCode}`);
}

// ---------------------------------------------------------------------------
// 2. Memory: enumerating combinations, opening sessions past the cap

const WIDE = Array.from({ length: 16 }, (_, i) => `w${i}`);

/** An app directory with one extension package of 16 opt-in toolsets, 4 tools each (plain JS, like the test fixtures). */
function wideApp() {
  const root = mkdtempSync(path.join(os.tmpdir(), 'reactor-load-app-'));
  temps.push(root);
  const pkg = path.join(root, 'node_modules', 'ext-wide');
  mkdirSync(pkg, { recursive: true });
  const toolsets = WIDE.map((name) => ({ name, default: false, description: `Toolset ${name}.` }));
  writeFileSync(path.join(root, 'package.json'), JSON.stringify({ name: 'load-app', version: '0.0.0', private: true, dependencies: { 'ext-wide': '^1.0.0' } }));
  writeFileSync(path.join(pkg, 'package.json'), JSON.stringify({ name: 'ext-wide', version: '1.0.0', type: 'module', peerDependencies: { '@reactor/host': '>=0.0.0' }, reactorMcp: { extensions: { wide: { module: './index.js', toolsets } } } }));
  const tools = WIDE.flatMap((t) => ['a', 'b', 'c', 'd'].map((x) => ({ name: `${t}_${x}`, toolset: t })));
  writeFileSync(path.join(pkg, 'index.js'), `const toolsets = ${JSON.stringify(toolsets)};
const tools = ${JSON.stringify(tools)}.map((t) => ({ ...t, description: 'Tool ' + t.name + '.', inputSchema: { type: 'object', properties: { n: { type: 'number' } } }, handler: (args) => t.name + ' ' + (args.n ?? 0) }));
export default { manifest: { name: 'wide', version: '1.0.0' }, toolsets: () => toolsets, tools: () => tools };
`);
  return root;
}

const MODERN_META = { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': {}, 'io.modelcontextprotocol/clientInfo': { name: 'reactor-load', version: '1.0.0' } };

async function pool(count, concurrency, work) {
  let next = 0;
  await Promise.all(Array.from({ length: concurrency }, async () => {
    while (next < count) await work(next++);
  }));
}

async function runMemory() {
  log('');
  log(`memory: starting ${path.relative(ROOT, CLI)} (V8 heap capped at ${options.serverHeapMb} MiB) in a temp app with 16 opt-in toolsets (65,535 combinations)`);
  const root = wideApp();
  const server = startServer([CLI, '--host', '127.0.0.1', '--port', '0', '--log-level', 'info'], root, {}, [`--max-old-space-size=${options.serverHeapMb}`]);
  const base = await server.url;
  const steps = [{ step: 'started', ...memoryOf(server.child.pid) }];
  const statuses = {};
  const count = (key) => (statuses[key] = (statuses[key] ?? 0) + 1);

  // Distinct combinations: bit masks 1..N; even ones via GET /toolsets, odd ones via a 2026 tools/list.
  const checkpoints = new Set([1000, 5000, 10_000, 20_000, 40_000, 65_535].filter((n) => n < options.combinations).concat(options.combinations));
  let done = 0;
  const t0 = performance.now();
  const enumerate = async (i) => {
    const mask = i + 1;
    const only = WIDE.filter((_, bit) => mask & (1 << bit)).join(',');
    let response;
    if (mask % 2 === 0) response = await fetch(new URL(`/toolsets?only=${only}`, base));
    else {
      response = await fetch(new URL(`/mcp/only=${only}`, base), {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'tools/list' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: { _meta: MODERN_META } }),
      });
    }
    await response.arrayBuffer();
    count(`combinations ${response.status}`);
    done++;
  };
  for (const checkpoint of [...checkpoints].sort((a, b) => a - b)) {
    const from = done;
    await pool(checkpoint - from, 32, (k) => enumerate(from + k));
    steps.push({ step: `${checkpoint} combinations`, ...memoryOf(server.child.pid) });
  }
  const enumerationS = round((performance.now() - t0) / 1000, 2);

  // Sessions opened and never closed, far past the cap (1000 by default).
  await pool(options.sessionAttempts, 32, async (i) => {
    const response = await fetch(new URL(`/mcp?only=${WIDE[i % WIDE.length]}`, base), {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: i, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'reactor-load', version: '1.0.0' } } }),
    });
    await response.arrayBuffer();
    count(`initialize ${response.status}`);
  });
  steps.push({ step: `${options.sessionAttempts} initializes`, ...memoryOf(server.child.pid) });
  const exitCode = await stopServer(server);
  const result = { server: 'reactor-mcp-server (packages/host/dist/cli.js), 16 toolsets × 4 tools', serverHeapMb: options.serverHeapMb, combinations: options.combinations, enumerationS, sessionAttempts: options.sessionAttempts, statuses, steps, exitCode };
  log(`memory: ${JSON.stringify(statuses)}; ${options.combinations} combinations in ${enumerationS} s; exit after SIGTERM: ${exitCode}`);
  log('  step                      VmRSS MiB   peak MiB');
  for (const s of steps) log(`  ${s.step.padEnd(26)}${String(s.rss).padStart(9)}  ${String(s.peak).padStart(9)}`);
  return result;
}

// ---------------------------------------------------------------------------
// Main (last, so every declaration above is initialized)

const { Client, StreamableHTTPClientTransport } = await importClient();
const figures = { node: process.version, cpus: os.cpus().length, options };

if (!flags['no-build']) build();
if (!flags['no-load']) figures.load = await runLoad();
if (!flags['no-memory']) figures.memory = await runMemory();
if (flags.json) writeFileSync(flags.json, `${JSON.stringify(figures, null, 2)}\n`);
const failed = (figures.load && (figures.load.errors.total > 0 || figures.load.exitCode !== 0)) || (figures.memory && figures.memory.exitCode !== 0);
process.exit(failed ? 1 : 0);
