/**
 * `reactor-mcp-server cluster status|enable|disable`, the built command run
 * as an operator runs it (a child process, in an application that installed
 * @reactor/redis), against two running replicas of the command on one real
 * Redis under a key prefix of their own: a disable reaches both replicas'
 * tools/list and both listen streams, `/healthz` shows the new cluster
 * revision, and `status` prints it.
 */
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startReplica, type Replica } from './helpers/cluster.js';
import { post2026 } from './helpers/nodes.js';
import { freePort, startRedis, type TestRedis } from './helpers/redisServer.js';
import { readSse, type SseReader } from './helpers/sse.js';

/** The built bin of @reactor/host. */
const CLI = path.join(path.dirname(createRequire(import.meta.url).resolve('@reactor/host/package.json')), 'dist', 'cli.js');
const PACKAGE_DIR = fileURLToPath(new URL('..', import.meta.url));
const PREFIX = 'ops:mcp';

let redis: TestRedis;
let replicas: Replica[] = [];
/** An application directory with @reactor/redis installed (a link to this package), where the operator runs the command. */
let app: string;

beforeAll(async () => {
  redis = await startRedis();
  app = mkdtempSync(path.join(tmpdir(), 'reactor-cluster-cli-'));
  writeFileSync(path.join(app, 'package.json'), JSON.stringify({ name: 'operator-app', private: true, dependencies: { '@reactor/redis': '*' } }));
  mkdirSync(path.join(app, 'node_modules', '@reactor'), { recursive: true });
  symlinkSync(PACKAGE_DIR, path.join(app, 'node_modules', '@reactor', 'redis'), 'dir');
  replicas = await Promise.all(['node-1', 'node-2'].map((name) => startReplica(name, redis.url, 500, ['--redis-key-prefix', PREFIX])));
}, 60_000);

afterAll(async () => {
  await Promise.all(replicas.map((r) => r.stop('SIGTERM')));
  await redis?.stop();
  if (app) rmSync(app, { recursive: true, force: true });
});

/** Runs `reactor-mcp-server cluster …` in the operator's application; resolves with its exit code and output. */
async function cluster(args: readonly string[], env: Record<string, string> = { REACTOR_MCP_REDIS_URL: redis.url, REACTOR_MCP_REDIS_KEY_PREFIX: PREFIX }): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, [CLI, 'cluster', ...args], { cwd: app, env: { PATH: process.env['PATH'], ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  const code = await new Promise<number | null>((resolve) => child.once('close', resolve));
  return { code, stdout, stderr };
}

async function toolNames(replica: Replica): Promise<string[]> {
  const body = (await (await post2026(replica.url, 7, 'tools/list', {})).json()) as { result: { tools: Array<{ name: string }> } };
  return body.result.tools.map((t) => t.name);
}

async function healthDetail(replica: Replica): Promise<string | undefined> {
  const body = (await (await fetch(new URL('/healthz', replica.url))).json()) as { checks?: { redis?: { detail?: string } } };
  return body.checks?.redis?.detail;
}

/** A listen stream on each replica, past its acknowledgement. */
async function listenOnEach(): Promise<SseReader[]> {
  const readers = (await Promise.all(replicas.map((r, i) => post2026(r.url, i + 1, 'subscriptions/listen', { notifications: { toolsListChanged: true } })))).map(readSse);
  for (const reader of readers) expect((await reader.next()).message['method']).toBe('notifications/subscriptions/acknowledged');
  return readers;
}

describe('reactor-mcp-server cluster', () => {
  it('disables and enables an extension on every running replica: tools/list, listen streams, /healthz and status all show it', async () => {
    const before = await cluster(['status', '--json']);
    expect(before.code, before.stderr).toBe(0);
    const initial = JSON.parse(before.stdout) as { revision: number; disabled: string[]; keyPrefix: string; nodes: Array<{ node: string; extensions: Array<{ name: string; state: string }> }> };
    expect(initial).toMatchObject({ keyPrefix: PREFIX, revision: 0, disabled: [] });
    expect(initial.nodes.map((n) => n.node)).toEqual(['node-1', 'node-2']);
    for (const node of initial.nodes) expect(node.extensions).toContainEqual({ name: 'guard', state: 'active' });
    const readers = await listenOnEach();

    const disabled = await cluster(['disable', 'guard']);
    expect(disabled.code, disabled.stderr).toBe(0);
    expect(disabled.stdout).toContain('disabled "guard" on the cluster');
    expect(disabled.stdout).toContain('cluster revision 1');
    expect(disabled.stdout).toContain('node-1, node-2');
    for (const reader of readers) expect((await reader.next()).message['method']).toBe('notifications/tools/list_changed');
    for (const replica of replicas) {
      expect(await toolNames(replica)).not.toContain('guarded');
      expect(await healthDetail(replica)).toBe('cluster revision 1');
    }
    // Each replica's heartbeat carries what it applied; wait for both beats that follow the change.
    await vi.waitFor(async () => {
      const status = await cluster(['status']);
      expect(status.code, status.stderr).toBe(0);
      expect(status.stdout).toContain('cluster revision: 1');
      expect(status.stdout).toContain('disabled extensions: guard');
      expect(status.stdout).toContain('node-1: revision 1; base (active), guard (disabled)');
      expect(status.stdout).toContain('node-2: revision 1; base (active), guard (disabled)');
    }, { timeout: 15_000, interval: 100 });

    // Flags work as the environment does.
    const enabled = await cluster(['enable', 'guard', '--redis-url', redis.url, '--redis-key-prefix', PREFIX], {});
    expect(enabled.code, enabled.stderr).toBe(0);
    expect(enabled.stdout).toContain('cluster revision 2');
    for (const reader of readers) expect((await reader.next()).message['method']).toBe('notifications/tools/list_changed');
    for (const replica of replicas) {
      expect(await toolNames(replica)).toContain('guarded');
      expect(await healthDetail(replica)).toBe('cluster revision 2');
    }
    for (const reader of readers) reader.close();
    // Each run of the command is a Node process start (about a second on a busy 2-core machine).
  }, 60_000);

  it('refuses an extension no live replica has (exit 2), naming the ones they have, and changes nothing unless --force', async () => {
    const revisionBefore = (JSON.parse((await cluster(['status', '--json'])).stdout) as { revision: number }).revision;
    const typo = await cluster(['disable', 'gaurd']);
    expect(typo.code).toBe(2);
    expect(typo.stderr).toContain('extension "gaurd": is not an extension of any live replica (node-1, node-2)');
    expect(typo.stderr).toContain('expected one of base, guard');
    expect(typo.stderr).toContain('did you mean "guard"?');
    expect((JSON.parse((await cluster(['status', '--json'])).stdout) as { revision: number }).revision).toBe(revisionBefore);

    const forced = await cluster(['disable', 'later', '--force']);
    expect(forced.code, forced.stderr).toBe(0);
    expect(forced.stdout).toContain('live replicas without "later" (nothing changes there): node-1, node-2');
    const after = JSON.parse((await cluster(['status', '--json'])).stdout) as { revision: number; disabled: string[] };
    expect(after).toMatchObject({ revision: revisionBefore + 1, disabled: ['later'] });
    expect((await cluster(['enable', 'later', '--force'])).code).toBe(0);
  }, 60_000);

  it('reads only its own key prefix: under the default one there is no live replica', async () => {
    const other = await cluster(['status'], { REACTOR_MCP_REDIS_URL: redis.url });
    expect(other.code, other.stderr).toBe(0);
    expect(other.stdout).toContain('key prefix reactor:mcp');
    expect(other.stdout).toContain('live replicas: (none)');
  });

  it('names the Redis it could not reach and what to check (exit 1)', async () => {
    const url = `redis://127.0.0.1:${await freePort()}`;
    const unreachable = await cluster(['status'], { REACTOR_MCP_REDIS_URL: url });
    expect(unreachable.code).toBe(1);
    expect(unreachable.stderr).toContain(`Redis at ${url}`);
    expect(unreachable.stderr).toContain('ECONNREFUSED');
    expect(unreachable.stderr).toContain('the URL the replicas were started with');
  });

  it('prints its usage for --help, and exits 2 on a bad command line', async () => {
    const help = await cluster(['--help']);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('Usage: reactor-mcp-server cluster status');
    expect(help.stdout).toContain('--redis-key-prefix');
    const noAction = await cluster([]);
    expect(noAction.code).toBe(2);
    expect(noAction.stderr).toContain('needs an action');
    const noName = await cluster(['disable']);
    expect(noName.code).toBe(2);
    expect(noName.stderr).toContain('needs the name of the extension');
    const noUrl = await cluster(['status'], {});
    expect(noUrl.code).toBe(2);
    expect(noUrl.stderr).toContain('--redis-url');
  });
});
