/**
 * What one server's CPU does per request, by kind of work, as Linux `perf`
 * sees it: `node dist/perfProfile.js <server> <era> <method> <tools>
 * [seconds] [server flags…]` — e.g. `reactor 2026 tools/call 100 6`, or
 * `ceiling 2026 tools/call 100 6` for the bare `node:http` server beside it.
 * `PROFILE_PATH=/otel` sends the load to another path, as `profile.ts` does.
 *
 * The server runs with `--perf-basic-prof` (so `perf` can name JavaScript
 * functions); after a 3 s warm-up, `perf record -g` samples it while the
 * load runs. Needs `perf` (Debian: `linux-perf`) and the permission to
 * record another process (root, or `kernel.perf_event_paranoid` ≤ 1). A
 * development tool: nothing in the test suite or the benchmark runs it.
 */
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { perRequest, parsePerfScript, topSymbols } from './perfCategories.js';
import { Target, runLoad } from './driver/load.js';
import { startServer, type ServerScript } from './driver/processes.js';
import type { Era, Method } from './driver/wire.js';

const HZ = 2000;
const [script, era, method, tools, seconds, ...serverFlags] = process.argv.slice(2) as [ServerScript, Era, Method, string, string | undefined, ...string[]];
if (!script || !era || !method || !tools) {
  process.stderr.write('usage: node dist/perfProfile.js reactor|ceiling|floor|sdkPerRequest|sdkSession|fastmcp 2025-stateless|2025-session|2026 tools/list|tools/call <tools> [seconds] [server flags…]\n');
  process.exit(2);
}
if (spawnSync('perf', ['--version']).status !== 0) {
  process.stderr.write('perfProfile needs Linux perf on PATH (Debian: apt-get install linux-perf)\n');
  process.exit(2);
}

const dir = mkdtempSync(path.join(tmpdir(), 'reactor-perf-'));
const data = path.join(dir, 'perf.data');
process.env.BENCH_CHILD_ARGS = [process.env.BENCH_CHILD_ARGS, '--perf-basic-prof'].filter(Boolean).join(' ');
const server = await startServer(script, script, ['--tools', tools, ...serverFlags]);
const target = new Target(script, server.origin, 8);
try {
  const sessionId = era === '2025-session' ? await target.openSession() : undefined;
  const loadPath = process.env.PROFILE_PATH;
  const load = { target, era, method, tools: Number(tools), ...(sessionId !== undefined ? { sessionId } : {}), ...(loadPath ? { path: loadPath } : {}) };
  await runLoad(load, { durationMs: 3000, concurrency: 8, minRequests: 8 });
  const perf = spawn('perf', ['record', '-F', String(HZ), '-e', 'cpu-clock', '-g', '-p', String(server.pid), '-o', data], { stdio: ['ignore', 'ignore', 'pipe'] });
  let perfErrors = '';
  perf.stderr.setEncoding('utf8').on('data', (chunk: string) => (perfErrors = (perfErrors + chunk).slice(-2000)));
  const perfExited = new Promise<number | null>((resolve) => perf.once('exit', resolve));
  // perf attaches in a few milliseconds; the load starts once it has.
  await new Promise((resolve) => setTimeout(resolve, 300));
  const result = await runLoad(load, { durationMs: Number(seconds ?? 6) * 1000, concurrency: 8, minRequests: 8 });
  perf.kill('SIGINT');
  const code = await perfExited;
  if (code !== 0 && code !== null) throw new Error(`perf record exited with ${code}: ${perfErrors}`);
  const scriptOut = spawnSync('perf', ['script', '-i', data], { maxBuffer: 1 << 30, encoding: 'utf8' });
  if (scriptOut.status !== 0) throw new Error(`perf script failed: ${scriptOut.stderr}`);
  const samples = parsePerfScript(scriptOut.stdout);
  const requests = result.requests;
  const lines = [`${script}, ${era} ${method}, ${tools} tools: ${Math.round(result.rate)} requests/s over ${result.seconds.toFixed(1)} s; ${samples.length} samples at ${HZ} Hz`, '', '| CPU per request, by kind of work | µs |', '| --- | --- |'];
  const rows = perRequest(samples, requests, HZ);
  for (const row of rows) lines.push(`| ${row.category} | ${row.micros.toFixed(1)} |`);
  lines.push(`| **total** | **${rows.reduce((sum, row) => sum + row.micros, 0).toFixed(1)}** |`, '', '| Most samples (innermost frame) | µs |', '| --- | --- |');
  for (const row of topSymbols(samples, requests, HZ, 20)) lines.push(`| ${row.symbol.replace(/\|/g, '\\|').slice(0, 110)} | ${row.micros.toFixed(2)} |`);
  process.stdout.write(`${lines.join('\n')}\n`);
} finally {
  await target.close();
  await server.stop();
  rmSync(dir, { recursive: true, force: true });
  // --perf-basic-prof leaves the process's symbol map behind (V8 writes it to /tmp, whatever TMPDIR says).
  rmSync(`/tmp/perf-${server.pid}.map`, { force: true });
}
