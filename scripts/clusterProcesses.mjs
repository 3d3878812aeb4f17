// The processes of a local cluster, for `pnpm cluster` (scripts/cluster.mjs) and
// `pnpm soak` (scripts/soak.mjs): Debian's redis-server, replicas of the demo
// (apps/demo/dist/main.js, each with its own --node-id) and HAProxy running
// deploy/haproxy.cfg, all on loopback. Each starter resolves once its process
// serves and rejects (with the end of its output) when it exits or is silent for
// 60 s; `stopAll()` ends, in reverse order, every process it started, by PID.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import process from 'node:process';
import { fileURLToPath } from 'node:url';
import { freePort } from './freePort.mjs';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const DEMO = path.join(ROOT, 'apps', 'demo', 'dist', 'main.js');
export const HAPROXY_CFG = path.join(ROOT, 'deploy', 'haproxy.cfg');
export const REDIS_SERVER = process.env.REDIS_SERVER ?? '/usr/bin/redis-server';
export const HAPROXY = process.env.HAPROXY ?? '/usr/sbin/haproxy';

/** What is missing to run a cluster (redis-server, haproxy), as sentences; empty when nothing is. */
export function missingServices() {
  return [
    ['redis-server', REDIS_SERVER, 'redis-server', 'REDIS_SERVER'],
    ['haproxy', HAPROXY, 'haproxy', 'HAPROXY'],
  ]
    .filter(([, file]) => !existsSync(file))
    .map(([what, file, pkg, variable]) => `${what} is not at ${file}: install it (apt-get install ${pkg}) or set ${variable}`);
}

/** Builds the demo and what it needs (turbo; cached after the first time), plus the packages in `alsoFilters`; the exit status. */
export function buildDemo(alsoFilters = []) {
  const built = spawnSync('pnpm', ['exec', 'turbo', 'run', 'build', '--filter=@reactor/demo...', ...alsoFilters.map((f) => `--filter=${f}`), '--output-logs=errors-only'], { cwd: ROOT, stdio: 'inherit' });
  return built.status ?? 1;
}

/** How much of a process's output is kept (for waiting on it and for failure messages), characters. */
const KEPT_OUTPUT = 50_000;
/** How long a process may take to say it serves, ms. */
const START_TIMEOUT_MS = 60_000;

/** Every process started through it, and how to stop them all. `onStart(child)` is told of each process as it starts (to watch its exit). */
export function clusterProcesses({ onStart } = {}) {
  const children = [];

  /**
   * Starts `command` (`name` in messages). Its output is read at once (a full pipe would stall it) and the end of it
   * kept: `child.output()`. Callers add their own 'exit' and 'data' listeners.
   */
  function start(name, command, args, env = process.env) {
    const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'], env });
    child.name = name;
    // A missing or unrunnable binary is an 'error' event: without a listener it would crash the script unexplained.
    child.once('error', (error) => {
      process.stderr.write(`${name}: could not run ${command} (${error.code ?? error.message}); install it (apt-get install -y redis-server haproxy) or point REDIS_SERVER / HAPROXY at it\n`);
      void stopAll().finally(() => process.exit(1));
    });
    children.push(child);
    let output = '';
    child.output = () => output;
    const keep = (chunk) => (output = (output + chunk).slice(-KEPT_OUTPUT));
    child.stdout.setEncoding('utf8').on('data', keep);
    child.stderr.setEncoding('utf8').on('data', keep);
    onStart?.(child);
    return child;
  }

  /** Ends every process started (SIGTERM, SIGKILL after 15 s), the last started first. */
  async function stopAll() {
    for (const child of [...children].reverse()) {
      if (child.exitCode !== null || child.signalCode !== null) continue;
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
      await exited;
      clearTimeout(timer);
    }
  }

  /** redis-server on a free port, without persistence: `{ child, url, port }`. */
  async function startRedis() {
    const port = await freePort();
    const child = start('redis', REDIS_SERVER, ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no']);
    await waitForOutput(child, /Ready to accept connections/, 'redis-server');
    return { child, port, url: `redis://127.0.0.1:${port}` };
  }

  /** Replica `name` of the demo on `port` (0: a free one) on Redis `redisUrl`, JSON logs, more flags in `flags`: `{ name, child, url }` once it serves. */
  async function startReplica(name, port, redisUrl, env, flags = []) {
    const child = start(name, process.execPath, [DEMO, '--port', String(port), '--redis-url', redisUrl, '--node-id', name, '--log-format', 'json', ...flags], env);
    const [, address] = await waitForOutput(child, /"url":"(http:\/\/[^"]+)"/, name);
    return { name, child, url: new URL(address) };
  }

  /** HAProxy running deploy/haproxy.cfg on 127.0.0.1:`port` in front of exactly three replicas: `{ child, url }` (the `/mcp` URL) once it answers `/healthz`. */
  async function startHaproxy(port, replicas) {
    const [one, two, three] = replicas;
    const child = start('haproxy', HAPROXY, ['-db', '-f', HAPROXY_CFG], {
      ...process.env,
      REACTOR_MCP_LISTEN: `127.0.0.1:${port}`,
      REACTOR_MCP_NODE1: one.url.host,
      REACTOR_MCP_NODE2: two.url.host,
      REACTOR_MCP_NODE3: three.url.host,
    });
    const url = new URL(`http://127.0.0.1:${port}/mcp`);
    const deadline = Date.now() + START_TIMEOUT_MS;
    for (;;) {
      if (await fetch(new URL('/healthz', url)).then((r) => (void r.body?.cancel(), r.ok), () => false)) return { child, url };
      if (child.exitCode !== null) throw new Error(`haproxy exited at start-up:\n${child.output().slice(-2000)}`);
      if (Date.now() > deadline) throw new Error(`haproxy did not answer /healthz within ${START_TIMEOUT_MS / 1000} s:\n${child.output().slice(-2000)}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  return { children, start, stopAll, startRedis, startReplica, startHaproxy };
}

/** Resolves with the first match of `pattern` in `child`'s output (what it wrote already included); rejects if it exits first or after 60 s. */
export function waitForOutput(child, pattern, what) {
  return new Promise((resolve, reject) => {
    const done = () => {
      clearTimeout(timer);
      child.stdout.off('data', check);
      child.stderr.off('data', check);
      child.off('exit', onExit);
    };
    const timer = setTimeout(() => (done(), reject(new Error(`${what} did not start within ${START_TIMEOUT_MS / 1000} s:\n${child.output().slice(-2000)}`))), START_TIMEOUT_MS);
    const onExit = (code, signal) => (done(), reject(new Error(`${what} exited (${signal ?? code}) while starting:\n${child.output().slice(-2000)}`)));
    // Added after start()'s own listener, so the output already holds the chunk.
    function check() {
      const match = pattern.exec(child.output());
      if (match) {
        done();
        resolve(match);
      }
    }
    child.once('exit', onExit);
    child.stdout.on('data', check);
    child.stderr.on('data', check);
    check();
  });
}
