#!/usr/bin/env node
// `pnpm cluster`: the demo as one service on loopback — Redis, three replicas of
// the demo (apps/demo, each its own process with its own --node-id) and HAProxy
// running deploy/haproxy.cfg in front — the way to try docs/scaling.md in five
// minutes. Prints the URL; Ctrl-C (or SIGTERM) stops everything it started.
//
// Usage: node scripts/cluster.mjs [--port N] [--no-build]
//   --port N     HAProxy's port on 127.0.0.1 (default 4141; 0 picks a free one)
// Needs Debian's redis-server and haproxy (apt-get install redis-server haproxy);
// REDIS_SERVER and HAPROXY override their paths.
import { spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import path from 'node:path';
import process from 'node:process';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { freePort } from './freePort.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const DEMO = path.join(ROOT, 'apps', 'demo', 'dist', 'main.js');
const HAPROXY_CFG = path.join(ROOT, 'deploy', 'haproxy.cfg');
const REDIS_SERVER = process.env.REDIS_SERVER ?? '/usr/bin/redis-server';
const HAPROXY = process.env.HAPROXY ?? '/usr/sbin/haproxy';

const { values: flags } = parseArgs({ options: { port: { type: 'string', default: '4141' }, 'no-build': { type: 'boolean', default: false } } });
const say = (text) => process.stderr.write(`cluster: ${text}\n`);

for (const [what, file, pkg] of [['redis-server', REDIS_SERVER, 'redis-server'], ['haproxy', HAPROXY, 'haproxy']]) {
  if (!existsSync(file)) {
    say(`${what} is not at ${file}: install it (apt-get install ${pkg}) or set ${what === 'haproxy' ? 'HAPROXY' : 'REDIS_SERVER'}`);
    process.exit(1);
  }
}

if (!flags['no-build']) {
  say('building the demo and what it needs (turbo; cached after the first time)…');
  const built = spawnSync('pnpm', ['exec', 'turbo', 'run', 'build', '--filter=@reactor/demo...', '--output-logs=errors-only'], { cwd: ROOT, stdio: 'inherit' });
  if (built.status !== 0) process.exit(built.status ?? 1);
}

/** Every process started, stopped in reverse order. */
const children = [];
let stopping = false;

function start(name, command, args, options = {}) {
  const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'], ...options });
  child.name = name;
  children.push(child);
  child.once('exit', (code, signal) => {
    if (!stopping) {
      say(`${name} exited (${signal ?? code}); stopping everything`);
      void stop(1);
    }
  });
  return child;
}

/** Resolves with the first stderr/stdout text `pattern` matches in `child`'s output. */
function waitFor(child, pattern, what) {
  return new Promise((resolve, reject) => {
    let seen = '';
    const timer = setTimeout(() => reject(new Error(`${what} did not start within 60 s:\n${seen.slice(-2000)}`)), 60_000);
    const onData = (chunk) => {
      seen += chunk;
      const match = pattern.exec(seen);
      if (match) {
        clearTimeout(timer);
        child.stdout.off('data', onData);
        child.stderr.off('data', onData);
        resolve(match);
      }
    };
    child.stdout.setEncoding('utf8').on('data', onData);
    child.stderr.setEncoding('utf8').on('data', onData);
  });
}

async function stop(code) {
  stopping = true;
  for (const child of [...children].reverse()) {
    if (child.exitCode !== null || child.signalCode !== null) continue;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
    await exited;
    clearTimeout(timer);
  }
  process.exit(code);
}
process.once('SIGINT', () => void stop(0));
process.once('SIGTERM', () => void stop(0));

try {
  const redisPort = await freePort();
  const redis = start('redis', REDIS_SERVER, ['--port', String(redisPort), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no']);
  await waitFor(redis, /Ready to accept connections/, 'redis-server');
  const redisUrl = `redis://127.0.0.1:${redisPort}`;
  say(`Redis at ${redisUrl}`);

  const requestStateKey = randomBytes(32).toString('hex');
  const replicas = await Promise.all(
    ['demo-1', 'demo-2', 'demo-3'].map(async (name) => {
      const child = start(name, process.execPath, [DEMO, '--port', '0', '--redis-url', redisUrl, '--node-id', name, '--log-format', 'json'], {
        env: { ...process.env, REACTOR_MCP_REQUEST_STATE_KEY: requestStateKey },
      });
      const [, url] = await waitFor(child, /"url":"(http:\/\/[^"]+)"/, name);
      // Keep draining its logs (a full pipe would stall it); show warnings and errors.
      child.stderr.on('data', (chunk) => {
        for (const line of String(chunk).split('\n')) if (/"level":(40|50|60)/.test(line)) say(`${name}: ${line}`);
      });
      child.stdout.resume();
      say(`${name} at ${url}`);
      return new URL(url);
    }),
  );

  const port = flags.port === '0' ? await freePort() : Number(flags.port);
  const haproxy = start('haproxy', HAPROXY, ['-db', '-f', HAPROXY_CFG], {
    env: { ...process.env, REACTOR_MCP_LISTEN: `127.0.0.1:${port}`, REACTOR_MCP_NODE1: replicas[0].host, REACTOR_MCP_NODE2: replicas[1].host, REACTOR_MCP_NODE3: replicas[2].host },
  });
  haproxy.stdout.resume();
  haproxy.stderr.on('data', (chunk) => process.stderr.write(chunk));
  for (;;) {
    const ok = await fetch(`http://127.0.0.1:${port}/healthz`).then((r) => (void r.body?.cancel(), r.ok), () => false);
    if (ok) break;
    if (haproxy.exitCode !== null) throw new Error('haproxy exited at start-up');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  process.stdout.write(`\nReactor MCP demo, three replicas behind HAProxy: http://127.0.0.1:${port}/mcp\n`);
  process.stdout.write(`(each answer names its replica in X-Reactor-Node; kill one and the sessions move — see docs/scaling.md; Ctrl-C stops everything)\n`);
  // The operator's control of the running replicas, from the demo's directory (where @reactor/redis is installed).
  process.stdout.write(`Operate it: cd apps/demo && node ../../packages/host/dist/cli.js cluster status --redis-url ${redisUrl}\n           (… cluster disable spaces / cluster enable spaces)\n\n`);
} catch (error) {
  say(error instanceof Error ? error.message : String(error));
  await stop(1);
}
