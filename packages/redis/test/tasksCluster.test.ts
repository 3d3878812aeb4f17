/**
 * MCP tasks across replicas: one real Redis, three replicas of the command
 * (`--redis-url`, a 250 ms heartbeat lasting 750 ms, two static tokens),
 * HAProxy running deploy/haproxy.cfg in front, and raw 2026-07-28 requests.
 *
 * - A task started through the balancer is answered by every replica, its
 *   result included; another principal gets, updates and cancels nothing, on
 *   any replica.
 * - A cancel made on one replica reaches the replica running the work (its
 *   handler's signal aborts), and a `notifications/tasks` stream open on
 *   another.
 * - A replica killed with `kill -9` while running a task: another replica
 *   marks the task `failed`, naming the replica, within the heartbeat window —
 *   never left `working`.
 */
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startHaproxy, startReplica, type Balancer, type Replica } from './helpers/cluster.js';
import { startRedis, type TestRedis } from './helpers/redisServer.js';

const HEARTBEAT_MS = 250;
const TASKS = 'io.modelcontextprotocol/tasks';

let redis: TestRedis;
let replicas: Replica[] = [];
let balancer: Balancer;
let dir: string;

beforeAll(async () => {
  redis = await startRedis();
  dir = mkdtempSync(path.join(tmpdir(), 'reactor-tasks-cluster-'));
  const tokens = path.join(dir, 'tokens.json');
  const entry = (name: string) => ({ name, sha256: createHash('sha256').update(`${name}-token`).digest('hex'), scopes: [] });
  writeFileSync(tokens, JSON.stringify([entry('alice'), entry('bob')]));
  replicas = await Promise.all(['node-1', 'node-2', 'node-3'].map((name) => startReplica(name, redis.url, HEARTBEAT_MS, ['--auth-tokens-file', tokens])));
  balancer = await startHaproxy(replicas);
}, 30_000);

afterAll(async () => {
  await balancer?.stop('SIGTERM');
  await Promise.all(replicas.map((r) => r.stop('SIGTERM')));
  await redis?.stop();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

let nextId = 1;

/** One 2026-07-28 request from `who` (alice or bob) that opts in to tasks; answers the JSON-RPC response. */
async function request(url: URL, who: string, method: string, params: Record<string, unknown>): Promise<{ result?: Record<string, unknown>; error?: { code: number; message: string } }> {
  const meta = {
    'io.modelcontextprotocol/protocolVersion': '2026-07-28',
    'io.modelcontextprotocol/clientCapabilities': { extensions: { [TASKS]: {} } },
    'io.modelcontextprotocol/clientInfo': { name: 'tasks-cluster-test', version: '1.0.0' },
  };
  const name = typeof params['taskId'] === 'string' ? params['taskId'] : typeof params['name'] === 'string' ? params['name'] : undefined;
  const response = await fetch(url, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      authorization: `Bearer ${who}-token`,
      'mcp-protocol-version': '2026-07-28',
      'mcp-method': method,
      ...(name !== undefined ? { 'mcp-name': name } : {}),
    },
    body: JSON.stringify({ jsonrpc: '2.0', id: nextId++, method, params: { ...params, _meta: meta } }),
  });
  const text = await response.text();
  // JSON, or one SSE event carrying it.
  const body = response.headers.get('content-type')?.includes('text/event-stream') ? text.split('\n').find((line) => line.startsWith('data: '))!.slice(6) : text;
  return JSON.parse(body) as { result?: Record<string, unknown>; error?: { code: number; message: string } };
}

/** Starts tool `name` as alice's task through the balancer; answers its id. */
async function startTask(name: string): Promise<string> {
  const { result, error } = await request(balancer.url, 'alice', 'tools/call', { name, arguments: {} });
  expect(error).toBeUndefined();
  expect(result).toMatchObject({ resultType: 'task', status: 'working' });
  return result!['taskId'] as string;
}

/** The replica running alice's task `taskId`, as its status message says once the tool reported it. */
async function runnerOf(taskId: string): Promise<Replica> {
  let runner: Replica | undefined;
  await vi.waitFor(async () => {
    const { result } = await request(replicas[0]!.url, 'alice', 'tasks/get', { taskId });
    runner = replicas.find((r) => r.name === /running on (node-\d)/.exec(String(result?.['statusMessage']))?.[1]);
    expect(runner, JSON.stringify(result)).toBeDefined();
  }, { timeout: 10_000, interval: 20 });
  return runner!;
}

const live = () => replicas.filter((r) => r.child.exitCode === null && r.child.signalCode === null);

describe('tasks across replicas', () => {
  it('answers a task started through the balancer on every replica, result included; another principal sees nothing of it anywhere', async () => {
    const taskId = await startTask('settle');
    for (const replica of replicas) {
      const { result } = await request(replica.url, 'alice', 'tasks/get', { taskId });
      expect(result, replica.name).toMatchObject({ taskId, status: expect.stringMatching(/^(working|completed)$/) });
    }
    // Every replica reads the same result, whichever ran it.
    const results = new Set<string>();
    for (const replica of replicas) {
      await vi.waitFor(async () => {
        const { result } = await request(replica.url, 'alice', 'tasks/get', { taskId });
        expect(result).toMatchObject({ status: 'completed', result: { content: [{ type: 'text', text: expect.stringMatching(/^settled on node-\d$/) }] } });
        results.add(JSON.stringify(result!['result']));
      }, { timeout: 10_000, interval: 100 });
    }
    expect(results.size).toBe(1);

    // Bob: as if the task did not exist, on every replica, for every method; it stays alice's and completed.
    for (const replica of replicas) {
      for (const [method, params] of [['tasks/get', { taskId }], ['tasks/update', { taskId, inputResponses: { q: {} } }], ['tasks/cancel', { taskId }]] as const) {
        const { error } = await request(replica.url, 'bob', method, params);
        expect(error, `${method} by bob on ${replica.name}`).toMatchObject({ code: -32602 });
      }
    }
    expect((await request(replicas[0]!.url, 'alice', 'tasks/get', { taskId })).result).toMatchObject({ status: 'completed' });
  }, 30_000);

  it('carries a cancel made on one replica to the replica running the work, whose handler is aborted', async () => {
    const taskId = await startTask('hold');
    const runner = await runnerOf(taskId);
    const other = replicas.find((r) => r !== runner)!;

    expect((await request(other.url, 'alice', 'tasks/cancel', { taskId })).error).toBeUndefined();
    await vi.waitFor(() => expect(runner.output()).toContain(`hold aborted ${taskId}`), { timeout: 10_000, interval: 50 });
    expect((await request(other.url, 'alice', 'tasks/get', { taskId })).result).toMatchObject({ status: 'cancelled' });
  }, 30_000);

  it('tells a notifications/tasks stream open on one replica of a change made on another (subscriptions/listen with taskIds)', async () => {
    const taskId = await startTask('hold');
    const runner = await runnerOf(taskId);
    const listening = replicas.find((r) => r !== runner)!;
    const cancelling = replicas.find((r) => r !== runner && r !== listening)!;
    const meta = {
      'io.modelcontextprotocol/protocolVersion': '2026-07-28',
      'io.modelcontextprotocol/clientCapabilities': { extensions: { [TASKS]: {} } },
      'io.modelcontextprotocol/clientInfo': { name: 'tasks-cluster-test', version: '1.0.0' },
    };
    const reading = new AbortController();
    const response = await fetch(listening.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', authorization: 'Bearer alice-token', 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'subscriptions/listen' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 'listen-1', method: 'subscriptions/listen', params: { notifications: { taskIds: [taskId] }, _meta: meta } }),
      signal: reading.signal,
    });
    try {
      expect(response.headers.get('content-type')).toContain('text/event-stream');
      const reader = response.body!.getReader();
      const decoder = new TextDecoder();
      const messages: Array<Record<string, unknown>> = [];
      let buffer = '';
      /** The next message on the stream (the stream is read as it arrives: it stays open until the task is terminal). */
      const next = async (): Promise<Record<string, unknown>> => {
        for (;;) {
          const queued = messages.shift();
          if (queued) return queued;
          const { value, done } = await reader.read();
          if (done) throw new Error('the listen stream ended early');
          buffer += decoder.decode(value, { stream: true });
          const events = buffer.split('\n\n');
          buffer = events.pop() ?? '';
          for (const event of events) {
            const data = event.split('\n').find((line) => line.startsWith('data: '));
            if (data) messages.push(JSON.parse(data.slice(6)) as Record<string, unknown>);
          }
        }
      };
      expect(await next()).toMatchObject({ method: 'notifications/subscriptions/acknowledged', params: { notifications: { taskIds: [taskId] } } });
      expect(await next()).toMatchObject({ method: 'notifications/tasks', params: { taskId, status: 'working' } });
      // Cancelled through a third replica: the stream on `listening` hears it through Redis, then ends.
      expect((await request(cancelling.url, 'alice', 'tasks/cancel', { taskId })).error).toBeUndefined();
      let told: Record<string, unknown>;
      do told = await next();
      while (told['method'] === 'notifications/tasks' && (told['params'] as { status: string }).status === 'working');
      expect(told).toMatchObject({ method: 'notifications/tasks', params: { taskId, status: 'cancelled' } });
      expect(await next()).toMatchObject({ id: 'listen-1', result: { resultType: 'complete' } });
    } finally {
      reading.abort();
    }
  }, 30_000);

  it('fails the task of a replica killed with kill -9 within the heartbeat window, naming the replica; never left working', async () => {
    const taskId = await startTask('hold');
    const victim = await runnerOf(taskId);
    const killedAt = Date.now();
    await victim.stop('SIGKILL');
    const survivor = live()[0]!;
    let failed: Record<string, unknown> | undefined;
    await vi.waitFor(async () => {
      failed = (await request(survivor.url, 'alice', 'tasks/get', { taskId })).result;
      expect(failed).toMatchObject({ status: 'failed' });
    }, { timeout: 10_000, interval: 50 });
    // The window: the heartbeat lasts 3 × 250 ms and the reaper looks every 250 ms (reported, not asserted: tests are not benchmarks).
    process.stderr.write(`kill -9 of ${victim.name} → task failed after ${Date.now() - killedAt} ms\n`);
    expect(failed).toMatchObject({
      statusMessage: `the replica ${victim.name} running this task stopped (no heartbeat for 0.75 s); run it again`,
      error: { code: -32603, message: expect.stringContaining(victim.name) },
    });
    // Every live replica answers the same.
    for (const replica of live()) expect((await request(replica.url, 'alice', 'tasks/get', { taskId })).result).toMatchObject({ status: 'failed' });
  }, 30_000);
});
