#!/usr/bin/env node
// `pnpm soak`: failover as an operator would try it before going live, with the
// default SDK clients (no retry policy of this script's own). Redis, three replicas
// of the demo (apps/demo) and HAProxy running deploy/haproxy.cfg, on loopback; v1
// SDK sessions (2025, each with its GET notification stream) and v2 SDK clients
// calling the demo's read-only tools for --seconds; at 25% a `kill -9` of the
// replica holding the most sessions, at 45% its restart (same port, same node id),
// at 65% a SIGTERM of another, at 80% its restart. It reports:
//
//  - calls made and failed, the failures split into those in flight on the killed
//    replica at the kill and the others (which should be none);
//  - sessions lost (answered "session not found", or a new session id);
//  - v1 sessions without a notification stream at the end (the v1 SDK re-opens
//    its GET stream twice after a failure, then never again);
//  - the worst wait from the kill (and from the SIGTERM) to the next answer of a
//    session that replica held;
//  - Redis memory per open session (INFO used_memory before the sessions opened
//    and at the end, with every session still open), and the events kept.
//
// Usage: node scripts/soak.mjs [--seconds S] [--v1 N] [--v2 N] [--pause-ms MS]
//          [--json FILE] [--no-build]
// Needs Debian's redis-server and haproxy. Not part of `pnpm test`; a shortened
// version of the same scenario runs in packages/redis/test/failover.test.ts.
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { loadavg } from 'node:os';
import path from 'node:path';
import process from 'node:process';
import { parseArgs } from 'node:util';
import { buildDemo, clusterProcesses, missingServices, ROOT } from './clusterProcesses.mjs';
import { freePort } from './freePort.mjs';
import { scriptArgs } from './scriptArgs.mjs';

// The SDKs, from the package whose tests use them (the root depends on neither).
const requireSdk = createRequire(path.join(ROOT, 'packages', 'redis', 'package.json'));
const { Client: ClientV1 } = requireSdk('@modelcontextprotocol/sdk/client/index.js');
const { StreamableHTTPClientTransport: TransportV1 } = requireSdk('@modelcontextprotocol/sdk/client/streamableHttp.js');
const { Client: ClientV2, StreamableHTTPClientTransport: TransportV2 } = requireSdk('@modelcontextprotocol/client');

const argv = scriptArgs();
const { values: flags } = parseArgs({
  args: argv,
  options: {
    seconds: { type: 'string', default: '150' },
    v1: { type: 'string', default: '60' },
    v2: { type: 'string', default: '30' },
    'pause-ms': { type: 'string', default: '100' },
    json: { type: 'string' },
    'no-build': { type: 'boolean', default: false },
  },
});
const SECONDS = Number(flags.seconds);
const PAUSE_MS = Number(flags['pause-ms']);
const say = (text) => process.stderr.write(`soak: ${text}\n`);

for (const missing of missingServices()) {
  say(missing);
  process.exitCode = 1;
}
if (process.exitCode) process.exit();
if (!flags['no-build'] && buildDemo(['@reactor/redis']) !== 0) process.exit(1);

const { startRedis, startReplica: startDemo, startHaproxy, stopAll } = clusterProcesses();
process.once('SIGINT', () => void stopAll().then(() => process.exit(130)));

const { url: redisUrl, port: redisPort } = await startRedis();
const redisCli = (...args) => spawnSync('redis-cli', ['-p', String(redisPort), ...args], { encoding: 'utf8' }).stdout.trim();
const usedMemory = () => Number(/used_memory:(\d+)/.exec(redisCli('INFO', 'memory'))?.[1] ?? NaN);

const env = { ...process.env, REACTOR_MCP_REQUEST_STATE_KEY: randomBytes(32).toString('hex') };
/** The replicas by name: the running process and its address. */
const replicas = new Map();
async function startReplica(name, port) {
  const replica = await startDemo(name, port, redisUrl, env, ['--no-catalog']);
  replicas.set(name, replica);
  return replica;
}
const started = await Promise.all(['demo-1', 'demo-2', 'demo-3'].map((name) => startReplica(name, 0)));
const { url } = await startHaproxy(await freePort(), started);
say(`Redis ${redisUrl}, replicas ${started.map((r) => `${r.name} ${r.url.host}`).join(', ')}, HAProxy ${url}`);
const memoryBefore = usedMemory();
// The machine may be shared: its load, at the start and at the end, goes with the figures.
const loadAtStart = loadavg().map((l) => Number(l.toFixed(2)));

/**
 * A fetch that only watches (no retry, no change): the replica that answered, and
 * whether the client's GET notification stream is open.
 */
function watchingFetch(session) {
  return async (input, init) => {
    const response = await fetch(input, init);
    const node = response.headers.get('x-reactor-node');
    if (node) session.node = node;
    if ((init?.method ?? 'GET') === 'GET' && response.ok && response.body) {
      const { readable, writable } = new TransformStream();
      const stream = { open: true };
      session.streams.push(stream);
      response.body.pipeTo(writable).then(() => (stream.open = false), () => (stream.open = false));
      return new Response(readable, { status: response.status, statusText: response.statusText, headers: response.headers });
    }
    return response;
  };
}

const sessions = [];
async function openSession(era, index) {
  const session = { era, index, node: undefined, streams: [], lost: false, failures: [], calls: 0, answeredCalls: [] };
  const transport = era === 'v1' ? new TransportV1(url, { fetch: watchingFetch(session) }) : new TransportV2(url, { fetch: watchingFetch(session) });
  const client = era === 'v1' ? new ClientV1({ name: `soak-v1-${index}`, version: '1.0.0' }) : new ClientV2({ name: `soak-v2-${index}`, version: '1.0.0' });
  await client.connect(transport);
  session.client = client;
  session.transport = transport;
  session.id = transport.sessionId;
  return session;
}
for (let i = 0; i < Number(flags.v1); i++) sessions.push(await openSession('v1', i));
for (let i = 0; i < Number(flags.v2); i++) sessions.push(await openSession('v2', i));
const { tools } = await sessions[0].client.listTools();
const readOnly = tools.filter((t) => t.annotations?.readOnlyHint === true && (t.inputSchema?.required ?? []).length === 0).map((t) => t.name);
if (readOnly.length === 0) throw new Error('the demo serves no read-only tool without required arguments');
say(`${sessions.length} sessions open (${flags.v1} v1, ${flags.v2} v2); calling ${readOnly.join(', ')} for ${SECONDS} s`);

/** What happened when: kill, restarts, SIGTERM. */
const events = [];
const t0 = Date.now();
let stop = false;
async function drive(session) {
  for (let i = 0; !stop; i++) {
    const name = readOnly[(session.index + i) % readOnly.length];
    const startedAt = Date.now();
    try {
      await session.client.callTool({ name, arguments: {} });
      session.calls++;
      session.answeredCalls.push({ startedAt, endedAt: Date.now() });
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      session.failures.push({ startedAt, endedAt: Date.now(), message });
      if (/session not found|404/i.test(message)) session.lost = true;
    }
    if (session.transport.sessionId !== session.id) session.lost = true;
    if (PAUSE_MS > 0) await new Promise((resolve) => setTimeout(resolve, PAUSE_MS));
  }
}
const driving = Promise.all(sessions.map(drive));

const at = (share) => new Promise((resolve) => setTimeout(resolve, Math.max(0, t0 + SECONDS * 1000 * share - Date.now())));
const heldBy = (name) => sessions.filter((s) => s.node === name);
const busiest = (exclude) => [...replicas.values()].filter((r) => r.name !== exclude && r.child.exitCode === null).sort((a, b) => heldBy(b.name).length - heldBy(a.name).length)[0];

await at(0.25);
const killed = busiest();
const killedSessions = heldBy(killed.name);
const killedAt = Date.now();
killed.child.kill('SIGKILL');
events.push({ at: killedAt - t0, what: `kill -9 ${killed.name} (holding ${killedSessions.length} sessions)` });
say(events.at(-1).what);

await at(0.45);
await startReplica(killed.name, Number(killed.url.port));
events.push({ at: Date.now() - t0, what: `${killed.name} restarted` });
say(events.at(-1).what);

await at(0.65);
const termed = busiest(killed.name);
const termedSessions = heldBy(termed.name);
const termedAt = Date.now();
termed.child.kill('SIGTERM');
events.push({ at: termedAt - t0, what: `SIGTERM ${termed.name} (holding ${termedSessions.length} sessions)` });
say(events.at(-1).what);
await new Promise((resolve) => (termed.child.exitCode !== null || termed.child.signalCode !== null ? resolve() : termed.child.once('exit', resolve)));
const releasedLines = (termed.child.output().match(/released its sessions/g) ?? []).length;

await at(0.8);
await startReplica(termed.name, Number(termed.url.port));
events.push({ at: Date.now() - t0, what: `${termed.name} restarted` });
say(events.at(-1).what);

await at(1);
stop = true;
await driving;

// Every session still open: Redis memory and the events kept, per session.
const memoryAfter = usedMemory();
let eventsKept = 0;
for (const session of sessions) eventsKept += Number(redisCli('XLEN', `reactor:mcp:session:${session.id}:events`)) || 0;
const allFailures = sessions.flatMap((s) => s.failures);
// A call the killed replica was running when it died: started before the kill, by a session it held, ended (failed) after.
const inFlightAtKill = killedSessions.flatMap((s) => s.failures.filter((f) => f.startedAt <= killedAt && f.endedAt >= killedAt));
const lostInFlight = new Set(killedSessions.filter((s) => s.failures.some((f) => inFlightAtKill.includes(f))));
/**
 * From `since` to the answer of each session's first call started after it (a call answered just
 * before the kill but seen after it does not count), worst; sessions whose call in flight at the kill
 * failed are reported apart (inFlightFailedAfterMs).
 */
const waits = (list, since) => list.filter((s) => !lostInFlight.has(s)).map((s) => (s.answeredCalls.find((c) => c.startedAt >= since)?.endedAt ?? Date.now()) - since).sort((a, b) => a - b);
const worstWait = (list, since) => Math.max(0, ...waits(list, since));
const v1 = sessions.filter((s) => s.era === 'v1');
const report = {
  seconds: SECONDS,
  loadAverage: { atStart: loadAtStart, atEnd: loadavg().map((l) => Number(l.toFixed(2))) },
  sessions: { v1: v1.length, v2: sessions.length - v1.length },
  tools: readOnly,
  events,
  calls: sessions.reduce((n, s) => n + s.calls, 0) + allFailures.length,
  failedCalls: { inFlightAtKill: inFlightAtKill.length, other: allFailures.length - inFlightAtKill.length },
  // How long the calls in flight at the kill took to fail (the SDK's request timeout, when the client waits on a stream that cannot answer).
  inFlightFailedAfterMs: inFlightAtKill.map((f) => f.endedAt - killedAt),
  otherFailures: allFailures.filter((f) => !inFlightAtKill.includes(f)).slice(0, 10).map((f) => `${f.endedAt - t0} ms: ${f.message.slice(0, 200)}`),
  sessionsLost: sessions.filter((s) => s.lost).length,
  v1SessionsWithoutStream: v1.filter((s) => !s.streams.some((stream) => stream.open)).length,
  worstWaitMs: { afterKill: worstWait(killedSessions, killedAt), afterSigterm: worstWait(termedSessions, termedAt) },
  waitsAfterKillMs: waits(killedSessions, killedAt),
  releasedLinesOnSigterm: releasedLines,
  redis: { bytesPerOpenSession: Math.round((memoryAfter - memoryBefore) / sessions.length), eventsKeptPerSession: Math.round(eventsKept / sessions.length), usedMemoryBefore: memoryBefore, usedMemoryAfter: memoryAfter },
};
process.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
if (flags.json) writeFileSync(flags.json, JSON.stringify(report, null, 2));
for (const session of sessions) await session.client.close().catch(() => undefined);
await stopAll();
process.exit(0);
