/**
 * Profiles one server under one load: `node dist/profile.js <server> <era>
 * <method> <tools> [seconds] [server flags…]` — e.g. `reactor 2026 tools/call 100 5 --middleware`. The server
 * process runs with `--cpu-prof`; its profile lands in `<tmpdir>/reactor-bench-profiles/` (open it
 * in Chrome DevTools). A warm-up of 3 s comes first, as in the benchmark. `PROFILE_PATH=/otel`
 * sends the load to another path of the server (`reactor … --telemetry` serves telemetry off at
 * `/mcp`, on at `/otel`).
 */
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Target, runLoad } from './driver/load.js';
import { startServer, type ServerScript } from './driver/processes.js';
import type { Era, Method } from './driver/wire.js';

const [script, era, method, tools, seconds, ...serverFlags] = process.argv.slice(2) as [ServerScript, Era, Method, string, string | undefined, ...string[]];
if (!script || !era || !method || !tools) {
  process.stderr.write('usage: node dist/profile.js reactor|sdkPerRequest|sdkSession|fastmcp 2025-stateless|2025-session|2026 tools/list|tools/call <tools> [seconds] [server flags…]\n');
  process.exit(2);
}
const dir = path.join(tmpdir(), 'reactor-bench-profiles');
process.env.BENCH_CHILD_ARGS = `--cpu-prof --cpu-prof-dir=${dir}`;
const server = await startServer(script, script, ['--tools', tools, ...serverFlags]);
const target = new Target(script, server.origin, 8);
try {
  const sessionId = era === '2025-session' ? await target.openSession() : undefined;
  const path = process.env.PROFILE_PATH;
  const load = { target, era, method, tools: Number(tools), ...(sessionId !== undefined ? { sessionId } : {}), ...(path ? { path } : {}) };
  await runLoad(load, { durationMs: 3000, concurrency: 8, minRequests: 8 });
  const result = await runLoad(load, { durationMs: Number(seconds ?? 5) * 1000, concurrency: 8, minRequests: 8 });
  process.stderr.write(`${Math.round(result.rate)} requests/s over ${result.seconds.toFixed(1)} s; profile in ${dir}\n`);
} finally {
  await target.close();
  await server.stop();
}
