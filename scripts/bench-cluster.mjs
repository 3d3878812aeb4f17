#!/usr/bin/env node
// Cluster figures for docs/scaling.md, on loopback: Redis, three replicas of the
// command (packages/redis/test/fixtures/replica.mjs: a `ping` tool that names its
// replica, and tools that disable/enable an extension) and HAProxy running
// deploy/haproxy.cfg. Everything runs on one machine, so what is measured is
// overhead and behaviour, not scaling. It reports:
//
//  1. 2026-07-28 `tools/call` through HAProxy vs straight to one replica: p50, p99
//     and requests/s in one run (rounds alternate), as ratios; the share of requests
//     each replica answered.
//  2. Takeover: sessions opened through HAProxy, the replica holding the most killed
//     with SIGKILL; per moved session, the time from the kill to its first successful
//     call (retrying on 503 every 20 ms), p50 and max; the same after SIGTERM.
//  3. Toggle propagation: `disable`/`enable` on one replica, the time until a
//     listen stream on each other replica hears tools/list_changed, p50 and p99.
//  4. Redis memory per open session (record; INFO used_memory before and after).
//  5. `Last-Event-ID` replays under load: every session subscribed to a resource and
//     its GET stream open through HAProxy, events sent to all of them (the resource
//     changes: notifications/resources/updated), the replica holding the most killed; then, with 2026-07-28 load running through HAProxy, each moved session
//     resumes its stream on another replica from a random event it had seen, several
//     rounds: the events replayed are counted against the ones it had seen after
//     that event (exact, missing, duplicated, unexpected, out of order).
//  6. The latency the Redis event store adds per SSE event: the same SSE stream
//     (a tool sending N progress notifications) from an app with the SDK's in-memory
//     store and one with the Redis store, calls alternating (scripts/bench-sse-store.mjs).
//
// Usage: node scripts/bench-cluster.mjs [--seconds S] [--concurrency C] [--sessions N]
//          [--toggles N] [--replay-events N] [--replay-rounds N] [--json FILE] [--no-build]
// Needs Debian's redis-server and haproxy.
import { spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import process from 'node:process';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { measureSseStoreLatency } from './bench-sse-store.mjs';
import { freePort } from './freePort.mjs';
import { JSON_HEADERS, openSession, readSseEvents } from './mcpWire.mjs';
import { scriptArgs } from './scriptArgs.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const REPLICA = path.join(ROOT, 'packages', 'redis', 'test', 'fixtures', 'replica.mjs');
const HAPROXY_CFG = path.join(ROOT, 'deploy', 'haproxy.cfg');
const REDIS_SERVER = process.env.REDIS_SERVER ?? '/usr/bin/redis-server';
const HAPROXY = process.env.HAPROXY ?? '/usr/sbin/haproxy';
const HEARTBEAT_MS = 1000;

const { values: flags } = parseArgs({ args: scriptArgs(),
  options: {
    seconds: { type: 'string', default: '4' },
    concurrency: { type: 'string', default: '8' },
    sessions: { type: 'string', default: '60' },
    toggles: { type: 'string', default: '20' },
    'replay-events': { type: 'string', default: '10' },
    'replay-rounds': { type: 'string', default: '3' },
    json: { type: 'string' },
    'no-build': { type: 'boolean', default: false },
  },
});
const say = (text) => process.stderr.write(`bench:cluster: ${text}\n`);

if (!flags['no-build']) {
  const built = spawnSync('pnpm', ['exec', 'turbo', 'run', 'build', '--filter=@reactor/redis...', '--output-logs=errors-only'], { cwd: ROOT, stdio: 'inherit' });
  if (built.status !== 0) process.exit(built.status ?? 1);
}

const children = new Set();
function start(command, args, env = {}) {
  const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'], env: { PATH: process.env.PATH, ...env } });
  children.add(child);
  child.once('exit', () => children.delete(child));
  child.output = '';
  child.stdout.setEncoding('utf8').on('data', (c) => (child.output = (child.output + c).slice(-20_000)));
  child.stderr.setEncoding('utf8').on('data', (c) => (child.output = (child.output + c).slice(-20_000)));
  return child;
}
function waitFor(child, pattern, what) {
  return new Promise((resolve, reject) => {
    const check = () => {
      const match = pattern.exec(child.output);
      if (match) {
        clearInterval(timer);
        resolve(match);
      } else if (child.exitCode !== null) {
        clearInterval(timer);
        reject(new Error(`${what} exited:\n${child.output}`));
      }
    };
    const timer = setInterval(check, 20);
  });
}
function stopChild(child, signal = 'SIGTERM') {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill(signal);
  return exited;
}
async function stopAll() {
  await Promise.all([...children].map((c) => stopChild(c, 'SIGKILL')));
}
process.once('SIGINT', () => void stopAll().then(() => process.exit(130)));

const META = { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': {}, 'io.modelcontextprotocol/clientInfo': { name: 'bench-cluster', version: '1.0.0' } };
async function call2026(url, id, method, params) {
  const name = typeof params.name === 'string' ? { 'mcp-name': params.name } : {};
  return await fetch(url, { method: 'POST', headers: { ...JSON_HEADERS, 'mcp-protocol-version': '2026-07-28', 'mcp-method': method, ...name }, body: JSON.stringify({ jsonrpc: '2.0', id, method, params: { ...params, _meta: META } }) });
}
/** One ping on a session: the replica that ran it, or undefined on failure. */
async function sessionPing(url, headers) {
  const response = await fetch(url, { method: 'POST', headers, body: JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'ping', arguments: {} } }) }).catch(() => undefined);
  if (!response) return undefined;
  const body = await response.text();
  return response.status === 200 ? /pong from ([\w-]+)/.exec(body)?.[1] : undefined;
}

const pct = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
const round = (x, digits = 2) => Math.round(x * 10 ** digits) / 10 ** digits;

/** A closed loop of `concurrency` workers calling ping for `seconds` on `url`. */
async function loop(url, seconds, concurrency, nodes) {
  const latencies = [];
  let errors = 0;
  const end = performance.now() + seconds * 1000;
  let id = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (performance.now() < end) {
        const t0 = performance.now();
        const response = await call2026(url, ++id, 'tools/call', { name: 'ping', arguments: {} }).catch(() => undefined);
        const body = response ? await response.text() : '';
        if (!response || response.status !== 200 || !body.includes('pong from')) errors++;
        else {
          latencies.push(performance.now() - t0);
          const node = response.headers.get('x-reactor-node');
          nodes?.set(node, (nodes.get(node) ?? 0) + 1);
        }
      }
    }),
  );
  latencies.sort((a, b) => a - b);
  return { requests: latencies.length, errors, rps: latencies.length / seconds, p50: pct(latencies, 50), p99: pct(latencies, 99) };
}

/** The JSON-RPC messages of an SSE response, as they arrive. */
const readEvents = (response, onMessage) => readSseEvents(response.body.getReader(), (_id, data) => data !== '' && onMessage(JSON.parse(data)));

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** Reads an SSE response as it arrives: `events` ({id, message}) grows; `lastAt()` is when the newest came. */
function collect(response) {
  const events = [];
  let lastAt = performance.now();
  const reader = response.body.getReader();
  void readSseEvents(reader, (id, data) => {
    // The SDK's priming event (an id, no data) carries no message.
    if (data !== '') events.push({ id, message: JSON.parse(data) });
    lastAt = performance.now();
  });
  return { events, lastAt: () => lastAt, cancel: () => reader.cancel().catch(() => undefined) };
}

/** Resolves once none of `readers` has received anything for `ms`. */
async function quiet(readers, ms) {
  for (;;) {
    const wait = Math.max(0, ...readers.map((r) => r.lastAt())) + ms - performance.now();
    if (wait <= 0) return;
    await sleep(wait);
  }
}

/** 2026-07-28 pings on `url` from `concurrency` workers until stopped. */
function backgroundLoad(url, concurrency) {
  let stopping = false;
  let requests = 0;
  let errors = 0;
  let id = 5_000_000;
  const running = Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (!stopping) {
        const response = await call2026(url, ++id, 'tools/call', { name: 'ping', arguments: {} }).catch(() => undefined);
        const body = response ? await response.text() : '';
        if (!response || response.status !== 200 || !body.includes('pong from')) errors++;
        else requests++;
      }
    }),
  );
  return {
    async stop() {
      stopping = true;
      await running;
      return { requests, errors };
    },
  };
}

/**
 * How a replay compares with what was expected: `expected` (ids the client had
 * seen after its Last-Event-ID), in order, then `fresh` events it never saw
 * (sent while it was away), each once.
 */
function compareReplay(expected, fresh, known, got) {
  const want = new Set(expected);
  const seen = new Set();
  let duplicated = 0;
  let unexpected = 0;
  const newIds = [];
  for (const id of got) {
    if (seen.has(id)) duplicated++;
    else if (known.has(id) && !want.has(id)) unexpected++; // from before the Last-Event-ID
    else if (!known.has(id)) newIds.push(id);
    seen.add(id);
  }
  unexpected += Math.max(0, newIds.length - fresh);
  const missing = expected.filter((id) => !seen.has(id)).length + Math.max(0, fresh - newIds.length);
  const exact = got.length === expected.length + fresh && expected.every((id, i) => got[i] === id) && new Set(got.slice(expected.length)).size === fresh && newIds.length === fresh;
  const firstSeen = got.filter((id, i) => got.indexOf(id) === i && (want.has(id) || !known.has(id)));
  const inOrder = firstSeen.every((id, i) => i === 0 || (want.has(id) ? want.has(firstSeen[i - 1]) && expected.indexOf(id) > expected.indexOf(firstSeen[i - 1]) : true));
  return { missing, duplicated, unexpected, inOrder, exact, newIds };
}

const os = await import('node:os');
// The load average says how busy the (shared) machine was: at the start, and again at the end.
const results = { machine: { cpus: os.cpus().length, node: process.version, loadAverageAtStart: os.loadavg().map((x) => round(x)) } };
try {
  const redisPort = await freePort();
  const redis = start(REDIS_SERVER, ['--port', String(redisPort), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no']);
  await waitFor(redis, /Ready to accept connections/, 'redis-server');
  const redisUrl = `redis://127.0.0.1:${redisPort}`;
  const key = randomBytes(32).toString('hex');
  const replicas = [];
  for (const name of ['node-1', 'node-2', 'node-3']) {
    const child = start(process.execPath, [REPLICA, '--port', '0', '--redis-url', redisUrl, '--node-id', name, '--log-level', 'info'], { REACTOR_MCP_REQUEST_STATE_KEY: key, REACTOR_TEST_HEARTBEAT_MS: String(HEARTBEAT_MS) });
    child.name = name;
    const [, url] = await waitFor(child, /"url":"(http:\/\/127\.0\.0\.1:\d+\/mcp)"/, name);
    child.url = new URL(url);
    replicas.push(child);
  }
  const lbPort = await freePort();
  const haproxy = start(HAPROXY, ['-db', '-f', HAPROXY_CFG], { REACTOR_MCP_LISTEN: `127.0.0.1:${lbPort}`, REACTOR_MCP_NODE1: replicas[0].url.host, REACTOR_MCP_NODE2: replicas[1].url.host, REACTOR_MCP_NODE3: replicas[2].url.host });
  const lb = new URL(`http://127.0.0.1:${lbPort}/mcp`);
  for (;;) {
    if ((await fetch(new URL('/healthz', lb)).then((r) => (void r.body?.cancel(), r.ok), () => false))) break;
    if (haproxy.exitCode !== null) throw new Error(`haproxy exited:\n${haproxy.output}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  say('Redis, three replicas and HAProxy are up');

  // 1. Through HAProxy vs straight to one replica, alternating rounds.
  const seconds = Number(flags.seconds) / 2;
  const concurrency = Number(flags.concurrency);
  await loop(lb, 1, concurrency); // warm-up, both paths
  await loop(replicas[0].url, 1, concurrency);
  const share = new Map();
  const rounds = { haproxy: [], direct: [] };
  for (let r = 0; r < 2; r++) {
    const order = r % 2 === 0 ? ['haproxy', 'direct'] : ['direct', 'haproxy'];
    for (const which of order) rounds[which].push(await loop(which === 'haproxy' ? lb : replicas[0].url, seconds, concurrency, which === 'haproxy' ? share : undefined));
  }
  const merge = (list) => ({ rps: list.reduce((s, x) => s + x.rps, 0) / list.length, p50: list.reduce((s, x) => s + x.p50, 0) / list.length, p99: list.reduce((s, x) => s + x.p99, 0) / list.length, errors: list.reduce((s, x) => s + x.errors, 0), requests: list.reduce((s, x) => s + x.requests, 0) });
  const viaLb = merge(rounds.haproxy);
  const direct = merge(rounds.direct);
  const total = [...share.values()].reduce((a, b) => a + b, 0);
  results.throughput = {
    concurrency,
    haproxy: { rps: round(viaLb.rps, 0), p50Ms: round(viaLb.p50), p99Ms: round(viaLb.p99), errors: viaLb.errors },
    direct: { rps: round(direct.rps, 0), p50Ms: round(direct.p50), p99Ms: round(direct.p99), errors: direct.errors },
    ratios: { rps: round(viaLb.rps / direct.rps), p50: round(viaLb.p50 / direct.p50), p99: round(viaLb.p99 / direct.p99) },
    share: Object.fromEntries([...share].sort().map(([node, n]) => [node, round(n / total, 3)])),
  };
  say(`throughput: ${JSON.stringify(results.throughput)}`);

  // 4. Redis memory per open session (before the takeover test reuses the sessions).
  const info = async () => {
    const out = spawnSync('redis-cli', ['-p', String(redisPort), 'info', 'memory'], { encoding: 'utf8' }).stdout;
    return Number(/used_memory:(\d+)/.exec(out)?.[1]);
  };
  const before = await info();
  const count = Number(flags.sessions);
  const sessions = [];
  for (let i = 0; i < count; i++) sessions.push(await openSession(lb, 'bench-cluster'));
  const after = await info();
  results.redisBytesPerSession = Number.isFinite(before) ? Math.round((after - before) / count) : null;
  say(`Redis memory per open session: ${results.redisBytesPerSession} bytes`);

  // 2. Takeover after SIGKILL, then after SIGTERM.
  const moveTimes = async (signal) => {
    const holders = new Map();
    for (const s of sessions) holders.set(s, await sessionPing(lb, s));
    const counts = new Map();
    for (const node of holders.values()) counts.set(node, (counts.get(node) ?? 0) + 1);
    const alive = replicas.filter((r) => r.exitCode === null && r.signalCode === null);
    const victim = alive.sort((a, b) => (counts.get(b.name) ?? 0) - (counts.get(a.name) ?? 0))[0];
    const moved = sessions.filter((s) => holders.get(s) === victim.name);
    const t0 = performance.now();
    if (signal === 'SIGKILL') victim.kill('SIGKILL');
    else void stopChild(victim, 'SIGTERM');
    const times = await Promise.all(
      moved.map(async (s) => {
        for (;;) {
          const node = await sessionPing(lb, s);
          if (node && node !== victim.name) return performance.now() - t0;
          await new Promise((resolve) => setTimeout(resolve, 20));
        }
      }),
    );
    times.sort((a, b) => a - b);
    const result = { victim: victim.name, sessionsMoved: moved.length, p50Ms: round(pct(times, 50), 0), maxMs: round(times.at(-1), 0) };
    Object.defineProperty(result, 'moved', { value: moved, enumerable: false });
    return result;
  };

  // 5 (before the kill). Every session subscribed to test://clock with its GET stream open through HAProxy, and events on all of them.
  let touchId = 900_000;
  // On one live replica: the change reaches the 2025 sessions subscribed on every replica through Redis.
  const touch = async () => {
    const live = replicas.find((r) => r.exitCode === null && r.signalCode === null);
    await (await call2026(live.url, ++touchId, 'tools/call', { name: 'touch', arguments: {} })).text();
  };
  await Promise.all(sessions.map(async (s) => void (await (await fetch(lb, { method: 'POST', headers: s, body: JSON.stringify({ jsonrpc: '2.0', id: 3, method: 'resources/subscribe', params: { uri: 'test://clock' } }) })).text())));
  const liveReaders = new Map();
  // The SDK opens a GET stream with a priming event, so each answers at once.
  await Promise.all(sessions.map(async (s) => liveReaders.set(s, collect(await fetch(lb, { headers: { ...s, accept: 'text/event-stream' } })))));
  for (let i = 0; i < Number(flags['replay-events']); i++) await touch();
  await quiet([...liveReaders.values()], 500);
  const seenCounts = [...liveReaders.values()].map((r) => r.events.length);
  say(`GET streams open on ${sessions.length} sessions; events seen per session: ${Math.min(...seenCounts)}–${Math.max(...seenCounts)}`);

  results.takeover = { heartbeatMs: HEARTBEAT_MS, afterSigkill: await moveTimes('SIGKILL') };
  say(`takeover after SIGKILL: ${JSON.stringify(results.takeover.afterSigkill)}`);

  // 5. Each moved session resumes its GET stream on another replica from a random event it had seen, under load.
  //    Between rounds the resource changes once more: one event each session has not seen, replayed after the
  //    ones it had. A stream the client left stays registered on the replica until a write to it fails (the SDK's
  //    keep-alive, every 15 s), so a resumption sooner is answered 409 and retried: the wait is measured too.
  const load = backgroundLoad(lb, concurrency);
  const replay = { sessions: 0, rounds: Number(flags['replay-rounds']), resumptions: 0, eventsExpected: 0, eventsReplayed: 0, exact: 0, missing: 0, duplicated: 0, unexpected: 0, outOfOrder: 0, retriedAfter409or503: 0 };
  const movedSessions = results.takeover.afterSigkill.moved;
  for (const reader of liveReaders.values()) reader.cancel();
  replay.sessions = movedSessions.length;
  const known = new Map(movedSessions.map((s) => [s, liveReaders.get(s).events.map((e) => e.id)]));
  /** Per round, per resumption: from the first GET to the one answered 200, ms. */
  const waitsByRound = [];
  for (let r = 0; r < replay.rounds; r++) {
    const fresh = r === 0 ? 0 : 1;
    const waits = [];
    waitsByRound.push(waits);
    if (fresh) await touch();
    const resumed = await Promise.all(
      movedSessions.map(async (s) => {
        const seen = known.get(s);
        if (seen.length < 2) return undefined;
        const cut = Math.floor(Math.random() * (seen.length - 1));
        const t0 = performance.now();
        for (;;) {
          const response = await fetch(lb, { headers: { ...s, accept: 'text/event-stream', 'last-event-id': seen[cut] } });
          if (response.status === 200) return (waits.push(performance.now() - t0), { session: s, reader: collect(response), expected: seen.slice(cut + 1) });
          const body = await response.text();
          // 409: the previous stream is not freed yet on the replica; 503: the session has not moved yet.
          if (response.status !== 409 && response.status !== 503) throw new Error(`resuming a GET stream answered HTTP ${response.status}: ${body.slice(0, 200)}`);
          replay.retriedAfter409or503++;
          await sleep(20);
        }
      }),
    );
    const streams = resumed.filter(Boolean);
    await quiet(streams.map((x) => x.reader), 500);
    for (const { session, reader, expected } of streams) {
      const got = reader.events.map((e) => e.id);
      const outcome = compareReplay(expected, fresh, new Set(known.get(session)), got);
      known.get(session).push(...outcome.newIds);
      replay.resumptions++;
      replay.eventsExpected += expected.length + fresh;
      replay.eventsReplayed += got.length;
      replay.exact += outcome.exact ? 1 : 0;
      replay.missing += outcome.missing;
      replay.duplicated += outcome.duplicated;
      replay.unexpected += outcome.unexpected;
      replay.outOfOrder += outcome.inOrder ? 0 : 1;
      await reader.cancel();
    }
  }
  replay.resumeWaitMs = waitsByRound.map((waits) => {
    waits.sort((a, b) => a - b);
    return { p50: round(pct(waits, 50), 0), max: round(waits.at(-1), 0) };
  });
  replay.load = await load.stop();
  results.replay = replay;
  say(`Last-Event-ID replays: ${JSON.stringify(replay)}`);

  // 3. Toggle propagation between the two replicas left, before the last one goes.
  const alive = replicas.filter((r) => r.exitCode === null && r.signalCode === null);
  const [from, to] = alive;
  const listen = await call2026(to.url, 1, 'subscriptions/listen', { notifications: { toolsListChanged: true } });
  let heard;
  void readEvents(listen, (message) => {
    if (message.method === 'notifications/tools/list_changed') heard?.();
  });
  const toggles = [];
  for (let i = 0; i < Number(flags.toggles); i++) {
    const tool = i % 2 === 0 ? 'disable-guard' : 'enable-guard';
    const heardIt = new Promise((resolve) => (heard = resolve));
    const t0 = performance.now();
    await (await call2026(from.url, 100 + i, 'tools/call', { name: tool, arguments: {} })).text();
    await heardIt;
    toggles.push(performance.now() - t0);
  }
  toggles.sort((a, b) => a - b);
  results.toggles = { count: toggles.length, p50Ms: round(pct(toggles, 50)), p99Ms: round(pct(toggles, 99)) };
  say(`toggle propagation: ${JSON.stringify(results.toggles)}`);
  await listen.body?.cancel().catch(() => undefined);

  results.takeover.afterSigterm = await moveTimes('SIGTERM');
  say(`takeover after SIGTERM: ${JSON.stringify(results.takeover.afterSigterm)}`);

  // 6. Per SSE event: the in-memory store vs the Redis store, in this run, on this Redis.
  results.sseStore = await measureSseStoreLatency({ root: ROOT, redisUrl });
  say(`SSE event store: ${JSON.stringify(results.sseStore)}`);

  results.machine.loadAverageAtEnd = os.loadavg().map((x) => round(x));
  process.stdout.write(`${JSON.stringify(results, null, 2)}\n`);
  if (flags.json) writeFileSync(flags.json, `${JSON.stringify(results, null, 2)}\n`);
} catch (error) {
  say(error instanceof Error ? error.stack ?? error.message : String(error));
  process.exitCode = 1;
} finally {
  await stopAll();
}
