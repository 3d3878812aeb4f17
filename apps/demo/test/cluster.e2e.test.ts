/**
 * `pnpm cluster` (scripts/cluster.mjs) as a user runs it, following
 * docs/scaling.md "Try it": the command is spawned through pnpm, its banner
 * read for the balancer's URL and every process's PID, a 2025 session opened
 * through HAProxy, and the replica holding it killed with the banner's own
 * `kill -9` line. The cluster keeps running and says so, the session answers
 * 200 under the same id on a live replica (after 503s with `Retry-After`, which
 * the client honours), the dead replica is restarted, and SIGTERM to the script
 * stops every process it started.
 *
 * Needs Debian's redis-server and haproxy, and apps/demo built (`pnpm build`):
 * it fails, saying so, when they are missing.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../../..', import.meta.url));
const REDIS_SERVER = process.env['REDIS_SERVER'] ?? '/usr/bin/redis-server';
const HAPROXY = process.env['HAPROXY'] ?? '/usr/sbin/haproxy';
const DEMO = fileURLToPath(new URL('../dist/main.js', import.meta.url));

/** The running `pnpm cluster`: its process, what it printed, and the banner's contents. */
interface Cluster {
  readonly pnpm: ChildProcess;
  readonly exited: Promise<number | null>;
  stdout: string;
  stderr: string;
  /** http://127.0.0.1:<port>/mcp, HAProxy's. */
  url: string;
  /** Each process by the banner's name (demo-1..3, redis, haproxy, cluster) → its PID. */
  pids: Map<string, number>;
}

let cluster: Cluster;
/** Every PID this test learned of, so that none outlives it. */
const seenPids = new Set<number>();

const alive = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ESRCH') return false;
    throw error;
  }
};

/** Resolves when `pattern` matches the cluster's `stream` output; rejects if pnpm exits first or after `ms`. */
function waitForOutput(stream: 'stdout' | 'stderr', pattern: RegExp, ms: number): Promise<RegExpExecArray> {
  return new Promise((resolve, reject) => {
    const check = () => {
      const match = pattern.exec(cluster[stream]);
      if (!match) return false;
      cleanup();
      resolve(match);
      return true;
    };
    const onExit = (code: number | null) => (cleanup(), reject(new Error(`pnpm cluster exited (${code}) before printing ${pattern}:\n${cluster.stdout}\n${cluster.stderr}`)));
    const timer = setTimeout(() => (cleanup(), reject(new Error(`pnpm cluster did not print ${pattern} within ${ms} ms:\n${cluster.stdout}\n${cluster.stderr}`))), ms);
    const cleanup = () => {
      clearTimeout(timer);
      cluster.pnpm.stdout!.off('data', check);
      cluster.pnpm.stderr!.off('data', check);
      cluster.pnpm.off('exit', onExit);
    };
    cluster.pnpm.stdout!.on('data', check);
    cluster.pnpm.stderr!.on('data', check);
    cluster.pnpm.once('exit', onExit);
    check();
  });
}

const HEADERS = { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2025-11-25' };

/** One JSON-RPC POST through the balancer (2025 era), its body read. */
async function post(message: object, sessionId?: string): Promise<{ status: number; headers: Headers; body: string }> {
  const response = await fetch(cluster.url, { method: 'POST', headers: sessionId ? { ...HEADERS, 'mcp-session-id': sessionId } : HEADERS, body: JSON.stringify(message) });
  return { status: response.status, headers: response.headers, body: await response.text() };
}

beforeAll(async () => {
  for (const [what, file] of [
    ['redis-server', REDIS_SERVER],
    ['haproxy', HAPROXY],
  ] as const) {
    if (!existsSync(file)) throw new Error(`${what} is not at ${file}: this test runs the real one (apt-get install ${what === 'haproxy' ? 'haproxy' : 'redis-server'})`);
  }
  if (!existsSync(DEMO)) throw new Error(`${DEMO} is missing: run \`pnpm build\` first (the test runs the cluster with --no-build)`);

  // As a user types it; --port 0: HAProxy on a free port; --no-build: the workspace is built already.
  const pnpm = spawn('pnpm', ['cluster', '--port', '0', '--no-build'], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
  const exited = new Promise<number | null>((resolve) => pnpm.once('exit', (code) => resolve(code)));
  cluster = { pnpm, exited, stdout: '', stderr: '', url: '', pids: new Map() };
  pnpm.stdout.setEncoding('utf8').on('data', (chunk: string) => (cluster.stdout += chunk));
  pnpm.stderr.setEncoding('utf8').on('data', (chunk: string) => (cluster.stderr += chunk));

  const [, url] = await waitForOutput('stdout', /behind HAProxy: (http:\/\/127\.0\.0\.1:\d+\/mcp)\n[\s\S]*Operate it:/, 60_000);
  cluster.url = url!;
  for (const [, name, pid] of cluster.stdout.matchAll(/^ {2}(\S+)\s+pid (\d+)/gm)) {
    cluster.pids.set(name!, Number(pid));
    seenPids.add(Number(pid));
  }
}, 90_000);

afterAll(async () => {
  // Only if a test failed before stopping it: the script first (it stops its children), then anything left, by PID.
  if (cluster?.pnpm.exitCode === null) {
    // pnpm passes a SIGTERM on to the script's process group, should the banner not have named the script.
    const script = cluster.pids.get('cluster');
    if (script !== undefined && alive(script)) process.kill(script, 'SIGTERM');
    else cluster.pnpm.kill('SIGTERM');
    await Promise.race([cluster.exited, new Promise((resolve) => setTimeout(resolve, 20_000).unref())]);
    if (cluster.pnpm.exitCode === null) cluster.pnpm.kill('SIGKILL');
    for (const pid of seenPids) if (alive(pid)) process.kill(pid, 'SIGKILL');
  }
}, 30_000);

describe('pnpm cluster', () => {
  it('prints each replica\'s PID and the exact kill line, and every other process\'s PID', () => {
    expect([...cluster.pids.keys()].sort()).toEqual(['cluster', 'demo-1', 'demo-2', 'demo-3', 'haproxy', 'redis']);
    for (const [name, pid] of cluster.pids) {
      expect(alive(pid), `${name} (pid ${pid})`).toBe(true);
      if (name.startsWith('demo-')) expect(cluster.stdout).toContain(`kill -9 ${pid}`);
    }
  });

  it('survives the death of the replica holding a session: reported, the session answers 200 elsewhere under its id, the replica restarts, and SIGTERM stops everything', async () => {
    // A 2025 session through the balancer; X-Reactor-Node names the replica that holds it.
    const init = await post({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'cluster-e2e', version: '1.0.0' } } });
    expect(init.status).toBe(200);
    const sessionId = init.headers.get('mcp-session-id')!;
    expect(sessionId).toBeTruthy();
    const holder = init.headers.get('x-reactor-node')!;
    expect(['demo-1', 'demo-2', 'demo-3']).toContain(holder);
    expect((await post({ jsonrpc: '2.0', method: 'notifications/initialized' }, sessionId)).status).toBe(202);
    const before = await post({ jsonrpc: '2.0', id: 2, method: 'tools/list' }, sessionId);
    expect(before.status).toBe(200);
    expect(before.headers.get('x-reactor-node')).toBe(holder);

    // The banner's kill line for that replica, as a user would paste it.
    const victim = cluster.pids.get(holder)!;
    expect(cluster.stdout).toMatch(new RegExp(`^ {2}${holder}\\s+pid ${victim}\\s.*kill -9 ${victim}$`, 'm'));
    process.kill(victim, 'SIGKILL');

    // Call again until answered, as a client does (bounded): 503s while the dead replica's heartbeat lasts, each
    // with the Retry-After the client waits, then 200. HAProxy's own 503 (no replica named: its retries ran out on
    // the dead one before it was marked down) carries none; the client then waits a second.
    const seen: string[] = [];
    let after: Awaited<ReturnType<typeof post>> | undefined;
    for (let attempt = 0; attempt < 10; attempt++) {
      const answer = await post({ jsonrpc: '2.0', id: 10 + attempt, method: 'tools/list' }, sessionId);
      const node = answer.headers.get('x-reactor-node');
      seen.push(`${answer.status} from ${node ?? 'HAProxy'} (Retry-After ${answer.headers.get('retry-after')}): ${answer.body.slice(0, 160)}`);
      if (answer.status === 200) {
        after = answer;
        break;
      }
      expect(answer.status, seen.join('\n')).toBe(503);
      if (node !== null) expect(['demo-1', 'demo-2', 'demo-3'].filter((n) => n !== holder), seen.join('\n')).toContain(node);
      const retryAfter = node === null ? 1 : Number(answer.headers.get('retry-after'));
      expect(retryAfter, `Retry-After on ${seen.at(-1)}`).toBeGreaterThan(0);
      await new Promise((resolve) => setTimeout(resolve, retryAfter * 1000));
    }
    expect(after, seen.join('\n')).toBeDefined();
    expect(after!.headers.get('mcp-session-id'), seen.join('\n')).toBe(sessionId);
    expect(after!.body).toContain('"tools"');
    expect(after!.body).toContain('list_spaces');
    const servedBy = after!.headers.get('x-reactor-node')!;
    // Another replica took it over, unless the dead one was already back (restarted 3 s after it died) and took it back.
    const restartedFirst = cluster.stderr.includes(`${holder} is back`);
    expect(restartedFirst ? ['demo-1', 'demo-2', 'demo-3'] : ['demo-1', 'demo-2', 'demo-3'].filter((n) => n !== holder), seen.join('\n')).toContain(servedBy);

    // The script is still running, and said what happened.
    expect(cluster.pnpm.exitCode).toBeNull();
    expect(alive(cluster.pids.get('cluster')!)).toBe(true);
    expect(cluster.stderr).toContain(`cluster: ${holder} (pid ${victim}) exited (SIGKILL)`);
    expect(cluster.stderr).toMatch(/keep serving/);
    expect(cluster.stderr).toContain(`restarting ${holder}`);
    expect(cluster.stderr).not.toContain('stopping everything');

    // The dead replica comes back on its port under a new PID, and serves.
    const [, restarted] = await waitForOutput('stderr', new RegExp(`${holder} is back: pid (\\d+)`), 30_000);
    const newPid = Number(restarted);
    seenPids.add(newPid);
    expect(newPid).not.toBe(victim);
    expect(alive(newPid)).toBe(true);
    const address = new RegExp(`^ {2}${holder}\\s+pid \\d+\\s+(127\\.0\\.0\\.1:\\d+)`, 'm').exec(cluster.stdout)![1];
    const health = await fetch(`http://${address}/healthz`);
    expect(health.status).toBe(200);
    expect(health.headers.get('x-reactor-node')).toBe(holder);
    await health.body?.cancel();

    // SIGTERM to the script (its PID is in the banner) stops everything it started.
    process.kill(cluster.pids.get('cluster')!, 'SIGTERM');
    expect(await cluster.exited).toBe(0);
    for (const pid of seenPids) expect(alive(pid), `pid ${pid} outlived the cluster`).toBe(false);
  }, 60_000);
});
