/**
 * Real processes for the load-balancer tests: replicas of the
 * `reactor-mcp-server` command (test/fixtures/replica.mjs) and Debian's
 * HAProxy running deploy/haproxy.cfg — the recipe itself, its addresses given
 * through the environment. Each is started on a free loopback port, and
 * fails loudly when it cannot start; `stop()` ends what was started.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort } from './redisServer.js';

/** HAProxy (Debian's package puts it here; `HAPROXY` overrides). */
export const HAPROXY = process.env['HAPROXY'] ?? '/usr/sbin/haproxy';
/** The recipe the tests run. */
export const HAPROXY_CFG = fileURLToPath(new URL('../../../../deploy/haproxy.cfg', import.meta.url));
/** nginx (Debian's nginx-light puts it here; `NGINX` overrides). */
export const NGINX = process.env['NGINX'] ?? '/usr/sbin/nginx';
/** The nginx recipe: a template for envsubst. */
export const NGINX_TEMPLATE = fileURLToPath(new URL('../../../../deploy/nginx.conf.template', import.meta.url));
const REPLICA = fileURLToPath(new URL('../fixtures/replica.mjs', import.meta.url));
/** Every replica signs 2026-07-28 request state with this key. */
const REQUEST_STATE_KEY = 'a-cluster-test-request-state-key-longer-than-32-bytes';
/** Every replica signs task ids with this key. */
const TASKS_SECRET = 'a-cluster-test-tasks-secret-longer-than-32-bytes';


/** A process this test started. */
interface Started {
  readonly child: ChildProcess;
  /** Everything it wrote to stderr (for failure messages). */
  readonly output: () => string;
  readonly exited: Promise<number | null>;
  /** Sends `signal` and waits for the exit. */
  stop(signal?: NodeJS.Signals): Promise<void>;
}

function started(child: ChildProcess): Started {
  let output = '';
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
  child.stdout?.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return {
    child,
    output: () => output,
    exited,
    async stop(signal: NodeJS.Signals = 'SIGKILL') {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      await exited;
    },
  };
}

/** One replica: the command in its own process. */
export interface Replica extends Started {
  readonly name: string;
  /** `http://127.0.0.1:<port>/mcp` */
  readonly url: URL;
  /** `127.0.0.1:<port>` */
  readonly address: string;
}

/** Starts replica `name` on Redis `redisUrl` (more flags of the command in `flags`); resolves once it logged where it listens. */
export async function startReplica(name: string, redisUrl: string, heartbeatMs: number, flags: readonly string[] = []): Promise<Replica> {
  const child = spawn(process.execPath, [REPLICA, '--port', '0', '--redis-url', redisUrl, '--node-id', name, '--log-level', 'info', '--no-catalog', ...flags], {
    env: { PATH: process.env['PATH'], REACTOR_MCP_REQUEST_STATE_KEY: REQUEST_STATE_KEY, REACTOR_TASKS_SECRET: TASKS_SECRET, REACTOR_TEST_HEARTBEAT_MS: String(heartbeatMs) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const base = started(child);
  const url = await new Promise<URL>((resolve, reject) => {
    let seen = '';
    const onData = (chunk: string) => {
      seen += chunk;
      const match = /"url":"(http:\/\/127\.0\.0\.1:\d+\/mcp)"/.exec(seen);
      if (match) {
        child.stderr?.off('data', onData);
        resolve(new URL(match[1]!));
      }
    };
    child.stderr?.on('data', onData);
    void base.exited.then((code) => reject(new Error(`replica ${name} exited (${String(code)}) before listening:\n${base.output()}`)));
  });
  return { ...base, name, url, address: url.host };
}

/** HAProxy running the recipe. */
export interface Balancer extends Started {
  /** `http://127.0.0.1:<port>/mcp` */
  readonly url: URL;
}

/** Starts HAProxy with deploy/haproxy.cfg in front of exactly three replicas; resolves once it answers `/healthz`. */
export async function startHaproxy(replicas: readonly Replica[]): Promise<Balancer> {
  if (!existsSync(HAPROXY)) throw new Error(`HAProxy not found at ${HAPROXY}: install Debian's haproxy (apt-get install haproxy) or set HAPROXY. These tests never skip.`);
  if (replicas.length !== 3) throw new Error(`deploy/haproxy.cfg names three replicas; received ${replicas.length}`);
  const port = await freePort();
  const env = {
    PATH: process.env['PATH'],
    REACTOR_MCP_LISTEN: `127.0.0.1:${port}`,
    REACTOR_MCP_NODE1: replicas[0]!.address,
    REACTOR_MCP_NODE2: replicas[1]!.address,
    REACTOR_MCP_NODE3: replicas[2]!.address,
  };
  // -db: stay in the foreground, so stopping the child stops HAProxy.
  const base = started(spawn(HAPROXY, ['-db', '-f', HAPROXY_CFG], { env, stdio: ['ignore', 'pipe', 'pipe'] }));
  const url = new URL(`http://127.0.0.1:${port}/mcp`);
  const deadline = Date.now() + 10_000;
  for (;;) {
    if (base.child.exitCode !== null) throw new Error(`HAProxy exited (${base.child.exitCode}) at start-up:\n${base.output()}`);
    const answered = await fetch(new URL('/healthz', url)).then((r) => (void r.body?.cancel(), r.status === 200), () => false);
    if (answered) break;
    if (Date.now() > deadline) {
      await base.stop();
      throw new Error(`HAProxy did not answer /healthz on 127.0.0.1:${port} within 10 s:\n${base.output()}`);
    }
    // Waiting on the listener: retried on the next macrotask, not on a timer.
    await new Promise<void>((resolve) => setImmediate(resolve));
  }
  return { ...base, url };
}

/** Fills the `${REACTOR_MCP_…}` placeholders the way `envsubst` with that variable list does (each must be given). */
export function fillTemplate(template: string, values: Record<string, string>): string {
  return template.replace(/\$\{(REACTOR_MCP_[A-Z0-9_]+)\}/g, (_, name: string) => {
    const value = values[name];
    if (value === undefined) throw new Error(`the template needs \${${name}}, which was not given`);
    return value;
  });
}

/** Starts nginx with deploy/nginx.conf.template filled in, in front of exactly three replicas; resolves once it answers `/healthz`. */
export async function startNginx(replicas: readonly Replica[]): Promise<Balancer> {
  if (!existsSync(NGINX)) throw new Error(`nginx not found at ${NGINX}: install Debian's nginx-light (apt-get install nginx-light) or set NGINX. These tests never skip.`);
  if (replicas.length !== 3) throw new Error(`deploy/nginx.conf.template names three replicas; received ${replicas.length}`);
  const port = await freePort();
  const dir = mkdtempSync(path.join(tmpdir(), 'reactor-nginx-'));
  // Workers of a root master run as nobody: they must reach the temp directories.
  chmodSync(dir, 0o777);
  const config = path.join(dir, 'nginx.conf');
  writeFileSync(config, fillTemplate(readFileSync(NGINX_TEMPLATE, 'utf8'), {
    REACTOR_MCP_LISTEN: `127.0.0.1:${port}`,
    REACTOR_MCP_NODE1: replicas[0]!.address,
    REACTOR_MCP_NODE2: replicas[1]!.address,
    REACTOR_MCP_NODE3: replicas[2]!.address,
    REACTOR_MCP_NGINX_DIR: dir,
  }));
  const base = started(spawn(NGINX, ['-p', dir, '-e', 'stderr', '-c', config, '-g', 'daemon off;'], { stdio: ['ignore', 'pipe', 'pipe'] }));
  const url = new URL(`http://127.0.0.1:${port}/mcp`);
  const deadline = Date.now() + 10_000;
  for (;;) {
    if (base.child.exitCode !== null) throw new Error(`nginx exited (${base.child.exitCode}) at start-up:\n${base.output()}`);
    const answered = await fetch(new URL('/healthz', url)).then((r) => (void r.body?.cancel(), r.status === 200), () => false);
    if (answered) break;
    if (Date.now() > deadline) {
      await base.stop();
      throw new Error(`nginx did not answer /healthz on 127.0.0.1:${port} within 10 s:\n${base.output()}`);
    }
    await new Promise<void>((resolve) => setImmediate(resolve));
  }
  return {
    ...base,
    url,
    async stop(signal: NodeJS.Signals = 'SIGTERM') {
      await base.stop(signal);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
