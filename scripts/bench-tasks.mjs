#!/usr/bin/env node
// Task-store figures for docs/tasks.md and packages/redis/README.md (`pnpm bench:tasks`),
// on loopback with a redis-server of its own (persistence off). It reports:
//
//  1. `tasks/get` over HTTP (2026-07-28, JSON-RPC on loopback) of a completed task,
//     from two apps in this process built the same way but for their task store —
//     the host's in-memory store and `@reactor/redis`'s RedisTaskStore — and the
//     store read alone (`TaskStore.get`); p50 and p99, rounds alternating so both
//     see the same machine load; the ratios.
//  2. From `kill -9` of a replica running a task to the task's terminal status, seen
//     by a watcher on a live replica: each round a child process (a replica's
//     session registry heartbeat and task store, default 1 s heartbeat lasting 3 s)
//     creates a task and is killed; p50 and max.
//  3. Task records held per GiB of Redis: INFO used_memory before and after N
//     completed tasks, each with a small CallToolResult (~200 bytes of text).
//
// Usage: node scripts/bench-tasks.mjs [--reads N] [--kills N] [--records N] [--heartbeat MS] [--json FILE]
// Needs Debian's redis-server and a built host and packages/redis (pnpm --filter @reactor/redis... build).
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { createRequire } from 'node:module';
import path from 'node:path';
import process from 'node:process';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { freePort } from './freePort.mjs';
import { scriptArgs } from './scriptArgs.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const { values } = parseArgs({ args: scriptArgs(), options: { reads: { type: 'string', default: '5000' }, kills: { type: 'string', default: '5' }, records: { type: 'string', default: '20000' }, heartbeat: { type: 'string', default: '1000' }, json: { type: 'string' } } });
const READS = Number(values.reads);
const KILLS = Number(values.kills);
const RECORDS = Number(values.records);
const HEARTBEAT_MS = Number(values.heartbeat);
const REDIS_SERVER = process.env.REDIS_SERVER ?? '/usr/bin/redis-server';

const require = createRequire(path.join(root, 'packages', 'redis', 'package.json'));
const importFrom = async (specifier) => await import(pathToFileURL(require.resolve(specifier)).href);
const REDIS_DIST = pathToFileURL(path.join(root, 'packages', 'redis', 'dist', 'index.js')).href;
const { buildHost, createMcpApp, createMemoryTaskStore, defineExtension, defineTool, silentLogger } = await importFrom('@reactor/host');
const { createClient } = await importFrom('@redis/client');
const { RedisTaskStore, RedisServerEventBus } = await import(REDIS_DIST);

const pct = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
const round = (x, digits = 3) => Math.round(x * 10 ** digits) / 10 ** digits;
const sorted = (xs) => [...xs].sort((a, b) => a - b);

function task(owner, fields = {}) {
  const now = Date.now();
  return { taskId: randomUUID(), owner, status: 'working', createdAt: now, lastUpdatedAt: now, ttlMs: 3_600_000, expiresAt: now + 3_600_000, pollIntervalMs: 1000, ...fields };
}
const LIMITS = { perOwner: 1_000_000, total: 1_000_000 };
const RESULT = { content: [{ type: 'text', text: 'x'.repeat(200) }], isError: false };

// Redis of our own.
const port = await freePort();
const redisProcess = spawn(REDIS_SERVER, ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], { stdio: ['ignore', 'pipe', 'pipe'] });
await new Promise((resolve, reject) => {
  let out = '';
  redisProcess.once('exit', (code) => reject(new Error(`redis-server exited (${code}):\n${out}`)));
  redisProcess.stdout.on('data', (chunk) => {
    out += chunk;
    if (out.includes('Ready to accept connections')) resolve();
  });
});
const url = `redis://127.0.0.1:${port}`;
const client = createClient({ url });
await client.connect();
const bus = await RedisServerEventBus.connect(client, { logger: silentLogger, keyPrefix: 'bench' });
const redisStore = new RedisTaskStore(client, { nodeId: 'bench-main', keyPrefix: 'bench', logger: silentLogger, reapIntervalMs: HEARTBEAT_MS, heartbeatTtlMs: HEARTBEAT_MS * 3 });
await redisStore.start((channel, onMessage, onReconnect) => bus.listen(channel, onMessage, onReconnect));
const memoryStore = createMemoryTaskStore();
const figures = {};

try {
  // 1. Reads, alternating rounds of 100.
  const stores = { memory: memoryStore, redis: redisStore };
  const ids = {};
  for (const [name, store] of Object.entries(stores)) {
    const record = task('alice', { status: 'completed', result: RESULT });
    await store.create(record, LIMITS);
    ids[name] = record.taskId;
  }
  const times = { memory: [], redis: [] };
  for (let done = 0; done < READS; done += 100) {
    for (const [name, store] of Object.entries(stores)) {
      for (let i = 0; i < 100; i++) {
        const t0 = performance.now();
        const got = await store.get(ids[name], 'alice');
        times[name].push(performance.now() - t0);
        if (got?.status !== 'completed') throw new Error(`${name} store lost the task`);
      }
    }
  }
  const reads = {};
  for (const name of Object.keys(stores)) {
    const s = sorted(times[name]);
    reads[name] = { p50Ms: round(pct(s, 50)), p99Ms: round(pct(s, 99)) };
  }
  // Over HTTP: an app per store, a completed task in each.
  const SECRET = 'a-bench-tasks-secret-of-more-than-32-bytes';
  const quick = defineTool({ name: 'quick', description: 'Answers at once.', inputSchema: {}, task: 'optional', handler: () => 'done' });
  const meta = { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': { extensions: { 'io.modelcontextprotocol/tasks': {} } }, 'io.modelcontextprotocol/clientInfo': { name: 'bench-tasks', version: '1.0.0' } };
  const post = async (url, method, params, name) => {
    const response = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2026-07-28', 'mcp-method': method, 'mcp-name': name }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params: { ...params, _meta: meta } }) });
    const text = await response.text();
    return JSON.parse(text.startsWith('{') ? text : text.split('\n').find((l) => l.startsWith('data: ')).slice(6));
  };
  const apps = {};
  for (const [name, store] of Object.entries(stores)) {
    // A host per app: a host serves one app's tasks.
    const host = await buildHost([defineExtension({ manifest: { name: 'bench', version: '1.0.0' }, tools: () => [quick] })], { logger: silentLogger });
    // A wrapper: the app closes its store on close, and the bench closes the stores itself.
    const app = createMcpApp(host, { tasks: { store: { ...Object.fromEntries(['create', 'get', 'update', 'answer', 'cancel', 'watch', 'counts'].map((m) => [m, store[m].bind(store)])), name: store.name, close: () => Promise.resolve() }, secret: SECRET } });
    const server = createServer(app);
    await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${server.address().port}/mcp`;
    const created = await post(url, 'tools/call', { name: 'quick', arguments: {} }, 'quick');
    const taskId = created.result?.taskId;
    if (!taskId) throw new Error(`${name}: tools/call made no task: ${JSON.stringify(created)}`);
    for (;;) {
      const got = await post(url, 'tasks/get', { taskId }, taskId);
      if (got.result?.status === 'completed') break;
      if (got.error || got.result?.status !== 'working') throw new Error(`${name}: tasks/get answered ${JSON.stringify(got)}`);
    }
    apps[name] = { url, taskId, app, server, host };
  }
  const http = { memory: [], redis: [] };
  for (let done = 0; done < READS; done += 100) {
    for (const name of Object.keys(stores)) {
      const { url, taskId } = apps[name];
      for (let i = 0; i < 100; i++) {
        const t0 = performance.now();
        const got = await post(url, 'tasks/get', { taskId }, taskId);
        http[name].push(performance.now() - t0);
        if (got.result?.status !== 'completed') throw new Error(`${name}: tasks/get answered ${JSON.stringify(got)}`);
      }
    }
  }
  for (const { app, server, host } of Object.values(apps)) {
    await app.close();
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
    await host.stop();
  }
  const overHttp = {};
  for (const name of Object.keys(stores)) {
    const s = sorted(http[name]);
    overHttp[name] = { p50Ms: round(pct(s, 50)), p99Ms: round(pct(s, 99)) };
  }
  overHttp.ratioP50 = round(overHttp.redis.p50Ms / overHttp.memory.p50Ms, 2);
  overHttp.ratioP99 = round(overHttp.redis.p99Ms / overHttp.memory.p99Ms, 2);
  figures.tasksGet = { count: READS, ...overHttp };
  console.log(`1. tasks/get over HTTP, ${READS} each: memory p50 ${overHttp.memory.p50Ms} ms p99 ${overHttp.memory.p99Ms} ms; redis p50 ${overHttp.redis.p50Ms} ms p99 ${overHttp.redis.p99Ms} ms (×${overHttp.ratioP50} / ×${overHttp.ratioP99})`);
  reads.ratioP50 = round(reads.redis.p50Ms / reads.memory.p50Ms, 1);
  reads.ratioP99 = round(reads.redis.p99Ms / reads.memory.p99Ms, 1);
  figures.reads = { count: READS, ...reads };
  console.log(`   the store read alone (store.get), ${READS} each: memory p50 ${reads.memory.p50Ms} ms p99 ${reads.memory.p99Ms} ms; redis p50 ${reads.redis.p50Ms} ms p99 ${reads.redis.p99Ms} ms (×${reads.ratioP50} / ×${reads.ratioP99})`);

  // 2. kill -9 → terminal.
  const child = `
    const { createClient } = await import(${JSON.stringify(pathToFileURL(require.resolve('@redis/client')).href)});
    const { RedisSessionRegistry, RedisTaskStore } = await import(${JSON.stringify(REDIS_DIST)});
    const logger = { child() { return this; }, trace() {}, debug() {}, info() {}, warn() {}, error() {}, fatal() {} };
    const client = createClient({ url: ${JSON.stringify(url)} });
    await client.connect();
    const nodeId = process.argv[1];
    const sessions = new RedisSessionRegistry(client, { nodeId, ttlMs: 60000, heartbeatIntervalMs: ${HEARTBEAT_MS}, keyPrefix: 'bench', logger });
    await sessions.start();
    const store = new RedisTaskStore(client, { nodeId, keyPrefix: 'bench', logger, reapIntervalMs: ${HEARTBEAT_MS} });
    const now = Date.now();
    const taskId = crypto.randomUUID();
    await store.create({ taskId, owner: 'alice', status: 'working', createdAt: now, lastUpdatedAt: now, ttlMs: 600000, expiresAt: now + 600000, pollIntervalMs: 1000 }, { perOwner: 100, total: 100000 });
    process.stdout.write('ready ' + taskId + '\\n');
    setInterval(() => {}, 1 << 30);
  `;
  const kills = [];
  for (let round_ = 0; round_ < KILLS; round_++) {
    const proc = spawn(process.execPath, ['--input-type=module', '-e', child, `bench-replica-${round_}`], { stdio: ['ignore', 'pipe', 'inherit'] });
    const taskId = await new Promise((resolve, reject) => {
      proc.once('exit', (code) => reject(new Error(`the child replica exited (${code}) before its task`)));
      proc.stdout.on('data', (chunk) => {
        const match = /ready (\S+)/.exec(String(chunk));
        if (match) resolve(match[1]);
      });
    });
    const failed = new Promise((resolve) => {
      const stop = redisStore.watch(taskId, (record) => record.status === 'failed' && (stop(), resolve(performance.now())));
    });
    const exited = new Promise((resolve) => proc.once('exit', resolve));
    const killedAt = performance.now();
    proc.kill('SIGKILL');
    await exited;
    kills.push((await failed) - killedAt);
  }
  const k = sorted(kills);
  figures.killToFailed = { rounds: KILLS, heartbeatMs: HEARTBEAT_MS, heartbeatTtlMs: HEARTBEAT_MS * 3, p50Ms: Math.round(pct(k, 50)), maxMs: Math.round(k.at(-1)) };
  console.log(`2. kill -9 → failed (heartbeat ${HEARTBEAT_MS} ms lasting ${HEARTBEAT_MS * 3} ms, ${KILLS} rounds): p50 ${figures.killToFailed.p50Ms} ms, max ${figures.killToFailed.maxMs} ms`);

  // 3. Records per GiB.
  await client.sendCommand(['MEMORY', 'PURGE']).catch(() => undefined);
  const used = async () => Number(/used_memory:(\d+)/.exec(await client.info('memory'))[1]);
  const before = await used();
  for (let i = 0; i < RECORDS; i += 500) {
    await Promise.all(Array.from({ length: Math.min(500, RECORDS - i) }, async (_, j) => {
      const record = task(`user-${(i + j) % 100}`);
      await redisStore.create(record, LIMITS);
      await redisStore.update(record.taskId, { status: 'completed', result: RESULT });
    }));
  }
  const after = await used();
  const perTask = (after - before) / RECORDS;
  figures.memory = { records: RECORDS, resultBytes: JSON.stringify(RESULT).length, bytesPerTask: Math.round(perTask), tasksPerGiB: Math.round(2 ** 30 / perTask) };
  console.log(`3. Redis memory: ${figures.memory.bytesPerTask} bytes per completed task (${figures.memory.resultBytes}-byte result) → ${figures.memory.tasksPerGiB} tasks per GiB`);
} finally {
  await redisStore.close();
  await memoryStore.close();
  await bus.close();
  await client.close();
  redisProcess.kill('SIGKILL');
}
if (values.json) writeFileSync(values.json, `${JSON.stringify(figures, null, 2)}\n`);
