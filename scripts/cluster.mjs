#!/usr/bin/env node
// `pnpm cluster`: the demo as one service on loopback — Redis, three replicas of
// the demo (apps/demo, each its own process with its own --node-id) and HAProxy
// running deploy/haproxy.cfg in front — the way to try docs/scaling.md in five
// minutes. Prints the URL and every process's PID. A replica that dies is
// reported and the others keep serving (HAProxy moves its sessions); it is
// restarted on its port after a pause (at most --restarts times in all). Redis or
// HAProxy dying stops everything; Ctrl-C (or SIGTERM) stops everything it started.
//
// Usage: node scripts/cluster.mjs [--port N] [--restarts N] [--no-build]
//   --port N      HAProxy's port on 127.0.0.1 (default 4141; 0 picks a free one)
//   --restarts N  how many times in all a dead replica is restarted, 3 s after it died (default 3; 0: never)
//   --no-build    skip the turbo build (apps/demo/dist must be built)
// Needs Debian's redis-server and haproxy (apt-get install redis-server haproxy);
// REDIS_SERVER and HAPROXY override their paths. Test: apps/demo/test/cluster.e2e.test.ts.
import { randomBytes } from 'node:crypto';
import process from 'node:process';
import { parseArgs } from 'node:util';
import { buildDemo, clusterProcesses, missingServices } from './clusterProcesses.mjs';
import { freePort } from './freePort.mjs';
import { scriptArgs } from './scriptArgs.mjs';

/** How long a dead replica stays down before it is restarted, ms. */
const RESTART_PAUSE_MS = 3_000;
// `pnpm cluster -- --port 0` passes the `--` through: drop a leading one.
const argv = scriptArgs();
const say = (text) => process.stderr.write(`cluster: ${text}\n`);
let flags;
try {
  ({ values: flags } = parseArgs({ args: argv, options: { port: { type: 'string', default: '4141' }, restarts: { type: 'string', default: '3' }, 'no-build': { type: 'boolean', default: false } } }));
} catch (error) {
  say(`${error instanceof Error ? error.message : String(error)}\nUsage: pnpm cluster [--port N] [--restarts N] [--no-build]`);
  process.exit(2);
}
for (const name of ['port', 'restarts']) {
  if (!/^\d+$/.test(flags[name])) {
    say(`--${name} must be a whole number, not "${flags[name]}"`);
    process.exit(2);
  }
}
let restartsLeft = Number(flags.restarts);

for (const missing of missingServices()) {
  say(missing);
  process.exitCode = 1;
}
if (process.exitCode) process.exit();

if (!flags['no-build']) {
  say('building the demo and what it needs (turbo; cached after the first time)…');
  if (buildDemo() !== 0) process.exit(1);
}

/** What to do when a replica exits, by name (Redis and HAProxy have none: their exit stops everything). */
const onReplicaExit = new Map();
const processes = clusterProcesses({ onStart: (child) => watch(child, onReplicaExit.get(child.name)) });
let stopping = false;
/** Set once the banner is printed: before that, any death stops everything. */
let serving = false;

/**
 * What happens when `child` exits while the cluster runs: `onExit(description)` decides; without one
 * (Redis, HAProxy: the infrastructure) everything stops.
 */
function watch(child, onExit) {
  child.once('exit', (code, signal) => {
    // Ctrl-C (or pnpm passing a SIGTERM on) reaches the whole process group: let this script's
    // own handler start stopping before a child's exit is taken for a death.
    setTimeout(() => {
      if (stopping) return;
      const how = `${child.name} (pid ${child.pid}) exited (${signal ?? code})`;
      if (serving && onExit) return onExit(how);
      say(`${how}; ${serving ? 'the cluster cannot run without it; ' : ''}stopping everything`);
      void stop(1);
    }, 250);
  });
  return child;
}

async function stop(code) {
  if (stopping) return;
  stopping = true;
  await processes.stopAll();
  process.exit(code);
}
process.once('SIGINT', () => void stop(0));
process.once('SIGTERM', () => void stop(0));

/** The replicas by name: the running process of each (or the last one, if it is down). */
const replicas = new Map();

/**
 * Starts replica `name` on `port` (0: a free one) and resolves with its URL once it serves.
 * When it dies, the others keep serving and it is restarted on the same port (HAProxy knows
 * it by its address), while restarts are left.
 */
async function startReplica(name, port, redisUrl, env) {
  /** Set once it serves; a replica that dies while starting is reported by the caller. */
  let url;
  onReplicaExit.set(name, (how) => {
    if (url === undefined) return;
    const others = [...replicas.values()].filter((r) => r.child.exitCode === null && r.child.signalCode === null).map((r) => r.name);
    if (others.length === 0 && restartsLeft === 0) {
      say(`${how}; no replica is left and no restart either: stopping everything`);
      return void stop(1);
    }
    say(
      `${how}; ${others.length > 0 ? `${others.join(' and ')} keep serving: HAProxy sends its sessions there (their requests wait until its heartbeat expires, about 3 s, then are answered under the same session id)` : 'no replica is serving now'}`,
    );
    if (restartsLeft === 0) return void say(`not restarting ${name}: no restarts left (--restarts ${flags.restarts})`);
    restartsLeft--;
    say(`restarting ${name} on port ${url.port} in ${RESTART_PAUSE_MS / 1000} s (${restartsLeft} restart${restartsLeft === 1 ? '' : 's'} left after this one)`);
    setTimeout(() => {
      if (stopping) return;
      startReplica(name, Number(url.port), redisUrl, env).then(
        (replica) => say(`${name} is back: pid ${replica.child.pid} (kill -9 ${replica.child.pid} to kill it again)`),
        (error) => say(`${name} did not restart: ${error instanceof Error ? error.message : String(error)}`),
      );
    }, RESTART_PAUSE_MS);
  });
  const replica = await processes.startReplica(name, port, redisUrl, env);
  url = replica.url;
  // Show its warnings and errors (its output is drained and kept either way).
  replica.child.stderr.on('data', (chunk) => {
    for (const line of String(chunk).split('\n')) if (/"level":(40|50|60)/.test(line)) say(`${name}: ${line}`);
  });
  replicas.set(name, replica);
  return replica;
}

try {
  const { child: redis, url: redisUrl } = await processes.startRedis();
  say(`Redis at ${redisUrl}`);

  const env = { ...process.env, REACTOR_MCP_REQUEST_STATE_KEY: randomBytes(32).toString('hex') };
  const started = await Promise.all(['demo-1', 'demo-2', 'demo-3'].map((name) => startReplica(name, 0, redisUrl, env)));
  for (const replica of started) say(`${replica.name} at ${replica.url}`);

  const port = flags.port === '0' ? await freePort() : Number(flags.port);
  const { child: haproxy } = await processes.startHaproxy(port, started);
  haproxy.stderr.on('data', (chunk) => process.stderr.write(chunk));
  serving = true;
  const pad = (name) => name.padEnd(7);
  process.stdout.write(
    [
      '',
      `Reactor MCP demo, three replicas behind HAProxy: http://127.0.0.1:${port}/mcp`,
      '',
      ...started.map((r) => `  ${pad(r.name)} pid ${r.child.pid}  ${r.url.host}   to kill it: kill -9 ${r.child.pid}`),
      `  ${pad('redis')} pid ${redis.pid}  ${redisUrl}`,
      `  ${pad('haproxy')} pid ${haproxy.pid}  127.0.0.1:${port}`,
      `  ${pad('cluster')} pid ${process.pid}  (this script: Ctrl-C or kill ${process.pid} stops everything)`,
      '',
      'Each answer names its replica in X-Reactor-Node. Kill the one serving you (its kill line above): the others keep',
      'serving, and its sessions\' requests wait up to 3 s (its heartbeat), then are answered by another replica under the',
      `same session id. ${
        restartsLeft > 0 ? `A dead replica is restarted ${RESTART_PAUSE_MS / 1000} s later (${restartsLeft} restart${restartsLeft === 1 ? '' : 's'} in all; --restarts N).` : 'A dead replica is not restarted (--restarts 0).'
      } See docs/scaling.md.`,
      // The operator's control of the running replicas, from the demo's directory (where @reactor/redis is installed).
      `Operate it: cd apps/demo && node ../../packages/host/dist/cli.js cluster status --redis-url ${redisUrl}`,
      '           (… cluster disable spaces / cluster enable spaces)',
      '',
      '',
    ].join('\n'),
  );
} catch (error) {
  say(error instanceof Error ? error.message : String(error));
  await stop(1);
}
