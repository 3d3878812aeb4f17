/**
 * Three replicas of the command, each its own process, behind Debian's
 * HAProxy running deploy/haproxy.cfg, on one real Redis: real v1 and v2 SDK
 * clients see one service. 60 2025 sessions × 20 calls, driven concurrently,
 * get no error, and each sticks to one replica (by `X-Reactor-Node`); when that
 * replica is killed (`kill -9`), each of its sessions answers its next call
 * on another replica under the same id, and no client initialises again. A
 * change made on one replica reaches the listen streams on every replica.
 */
import { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as TransportV1 } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { createClient } from '@redis/client';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { nodeHeartbeatKey, DEFAULT_KEY_PREFIX } from '../src/keys.js';
import { startHaproxy, startReplica, type Balancer, type Replica } from './helpers/cluster.js';
import { post2026 } from './helpers/nodes.js';
import { startRedis, type TestRedis } from './helpers/redisServer.js';
import { readSse } from './helpers/sse.js';

/** A killed replica is gone after 3 heartbeats of 200 ms. */
const HEARTBEAT_MS = 200;
/** The size: 60 2025-era sessions (half v1, half v2 SDK clients) × 20 calls each. */
const SESSIONS = 60;
const CALLS = 20;

let redis: TestRedis;
let inspector: ReturnType<typeof createClient>;
let replicas: Replica[] = [];
let balancer: Balancer;
/** The sessions of the kill test, used again by the SIGTERM test. */
let survivors: Session[] = [];

beforeAll(async () => {
  redis = await startRedis();
  inspector = createClient({ url: redis.url });
  inspector.on('error', () => undefined);
  await inspector.connect();
  replicas = await Promise.all(['node-1', 'node-2', 'node-3'].map((name) => startReplica(name, redis.url, HEARTBEAT_MS)));
  balancer = await startHaproxy(replicas);
}, 60_000);

afterAll(async () => {
  await balancer?.stop('SIGTERM');
  await Promise.all(replicas.map((r) => r.stop('SIGTERM')));
  await inspector?.close();
  await redis?.stop();
});

/** A fetch that records which replica answered each request and which methods were sent. */
function recordingFetch() {
  const nodes: string[] = [];
  const methods: string[] = [];
  const recording = async (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
    if (typeof init?.body === 'string') methods.push(...[JSON.parse(init.body) as unknown].flat().map((m) => (m as { method?: string }).method ?? 'response'));
    const response = await fetch(input, init);
    nodes.push(response.headers.get('x-reactor-node') ?? '?');
    return response;
  };
  return { nodes, methods, fetch: recording };
}

/** A connected client of either SDK through the balancer, with what it sent and who answered. */
interface Session {
  readonly era: 'v1' | 'v2';
  readonly id: string;
  readonly recorded: ReturnType<typeof recordingFetch>;
  ping(): Promise<string>;
  close(): Promise<void>;
}

async function openV2(): Promise<Session> {
  const recorded = recordingFetch();
  const transport = new StreamableHTTPClientTransport(balancer.url, { fetch: recorded.fetch });
  const client = new Client({ name: 'haproxy-v2', version: '1.0.0' });
  await client.connect(transport);
  return {
    era: 'v2',
    id: transport.sessionId!,
    recorded,
    ping: async () => ((await client.callTool({ name: 'ping', arguments: {} })).content as Array<{ text: string }>)[0]!.text,
    close: () => client.close(),
  };
}

async function openV1(): Promise<Session> {
  const recorded = recordingFetch();
  const transport = new TransportV1(balancer.url, { fetch: recorded.fetch });
  const client = new ClientV1({ name: 'haproxy-v1', version: '1.0.0' });
  await client.connect(transport);
  return {
    era: 'v1',
    id: transport.sessionId!,
    recorded,
    ping: async () => ((await client.callTool({ name: 'ping', arguments: {} })).content as Array<{ text: string }>)[0]!.text,
    close: () => client.close(),
  };
}

const nodeOf = (pong: string) => pong.replace('pong from ', '');

describe('behind HAProxy (deploy/haproxy.cfg)', () => {
  it('spreads 2026-07-28 listen streams over every replica, and a disable on one replica reaches all of them', async () => {
    // Round-robin spreads them, over the replicas HAProxy's health check has marked up: on a loaded machine one may
    // not be yet, so streams are opened until each replica holds one (a second one on a replica is closed).
    const streams = new Map<string, Response>();
    for (let id = 101; id <= 112 && streams.size < 3; id++) {
      const stream = await post2026(balancer.url, id, 'subscriptions/listen', { notifications: { toolsListChanged: true } });
      const node = stream.headers.get('x-reactor-node') ?? 'none';
      if (streams.has(node)) await stream.body?.cancel();
      else streams.set(node, stream);
    }
    expect(new Set(streams.keys())).toEqual(new Set(['node-1', 'node-2', 'node-3']));
    const readers = [...streams.values()].map(readSse);
    for (const reader of readers) expect((await reader.next()).message['method']).toBe('notifications/subscriptions/acknowledged');

    const disabled = await post2026(balancer.url, 10, 'tools/call', { name: 'disable-guard', arguments: {} });
    expect(await disabled.text()).toContain('disabled');
    for (const reader of readers) expect((await reader.next()).message['method']).toBe('notifications/tools/list_changed');
    // Not only told: every replica serves the change.
    for (const replica of replicas) {
      await vi.waitFor(async () => {
        const listed = await (await post2026(replica.url, 11, 'tools/list', {})).text();
        expect(listed).toContain('"ping"');
        expect(listed).not.toContain('"guarded"');
      }, { timeout: 10_000, interval: 50 });
    }
    const enabled = await post2026(balancer.url, 12, 'tools/call', { name: 'enable-guard', arguments: {} });
    expect(await enabled.text()).toContain('enabled');
    for (const reader of readers) expect((await reader.next()).message['method']).toBe('notifications/tools/list_changed');
    for (const replica of replicas) await vi.waitFor(async () => expect(await (await post2026(replica.url, 13, 'tools/list', {})).text()).toContain('"guarded"'), { timeout: 10_000, interval: 50 });
    for (const reader of readers) reader.close();
  });

  it('spreads 2026-07-28 clients over every replica: each request is balanced on its own, and every replica takes a share', async () => {
    const CLIENTS = 6;
    const CALLS_EACH = 10;
    const clients = await Promise.all(
      Array.from({ length: CLIENTS }, async () => {
        const recorded = recordingFetch();
        const client = new Client({ name: 'haproxy-2026', version: '1.0.0' }, { versionNegotiation: { mode: 'auto' } });
        const transport = new StreamableHTTPClientTransport(balancer.url, { fetch: recorded.fetch });
        await client.connect(transport);
        expect(client.getNegotiatedProtocolVersion()).toBe('2026-07-28');
        expect(transport.sessionId).toBeUndefined();
        return { client, recorded };
      }),
    );
    const answeredBy = new Map<string, number>();
    await Promise.all(
      clients.map(async ({ client, recorded }) => {
        for (let call = 0; call < CALLS_EACH; call++) {
          const before = recorded.nodes.length;
          const pong = ((await client.callTool({ name: 'ping', arguments: {} })).content as Array<{ text: string }>)[0]!.text;
          // The header names the replica that ran the tool.
          expect(recorded.nodes.slice(before)).toEqual([nodeOf(pong)]);
          answeredBy.set(nodeOf(pong), (answeredBy.get(nodeOf(pong)) ?? 0) + 1);
        }
      }),
    );
    for (const { client } of clients) await client.close();
    expect([...answeredBy.values()].reduce((a, b) => a + b, 0)).toBe(CLIENTS * CALLS_EACH);
    expect(new Set(answeredBy.keys()), `shares: ${JSON.stringify(Object.fromEntries(answeredBy))}`).toEqual(new Set(['node-1', 'node-2', 'node-3']));
    for (const [node, count] of answeredBy) expect(count, `${node}'s share of ${CLIENTS * CALLS_EACH} calls`).toBeGreaterThan(0);
  });

  it(`keeps each of ${SESSIONS} sessions (v1 and v2 clients) on one replica for ${CALLS} calls with no error, and moves every session of a killed replica to another under the same id`, async () => {
    // Half v2, half v1, opened and driven concurrently: each session's calls are sequential, as one client's are.
    const opened = await Promise.allSettled(Array.from({ length: SESSIONS }, (_, i) => (i % 2 === 0 ? openV2() : openV1())));
    const failures = opened.flatMap((o) => (o.status === 'rejected' ? [`initialize: ${String(o.reason)}`] : []));
    const sessions = opened.flatMap((o) => (o.status === 'fulfilled' ? [o.value] : []));
    const servedBy = new Map<Session, string>();
    await Promise.all(
      sessions.map(async (session) => {
        const answers: string[] = [];
        for (let call = 0; call < CALLS; call++) {
          try {
            answers.push(nodeOf(await session.ping()));
          } catch (error) {
            failures.push(`${session.era} session ${session.id}, call ${call + 1}: ${String(error)}`);
          }
        }
        servedBy.set(session, answers[0]!);
        // Every answer — initialize, the initialized notification, each call — came from one replica, by its X-Reactor-Node header and by the tool's own answer.
        expect(new Set([...answers, ...session.recorded.nodes]), `${session.era} session ${session.id} moved`).toEqual(new Set([answers[0]]));
      }),
    );
    expect(failures).toEqual([]);
    expect(sessions).toHaveLength(SESSIONS);
    expect(new Set(servedBy.values()), 'the balancer spread the sessions over every replica').toEqual(new Set(['node-1', 'node-2', 'node-3']));

    const victimName = servedBy.get(sessions[0]!)!;
    const victim = replicas.find((r) => r.name === victimName)!;
    const moved = sessions.filter((s) => servedBy.get(s) === victimName);
    await victim.stop('SIGKILL');
    // Until its heartbeat expires the others hold its sessions' requests, then take the sessions over; wait for that here.
    await vi.waitFor(async () => expect(await inspector.exists(nodeHeartbeatKey(DEFAULT_KEY_PREFIX, victimName))).toBe(0), { timeout: 5_000, interval: 50 });

    await Promise.all(
      sessions.map(async (session) => {
        const now = nodeOf(await session.ping());
        if (moved.includes(session)) expect(now, `${session.era} session ${session.id}`).not.toBe(victimName);
        else expect(now, `${session.era} session ${session.id} stayed`).toBe(servedBy.get(session));
        // Same session id, never a second initialize.
        expect(session.recorded.methods.filter((m) => m === 'initialize')).toHaveLength(1);
        expect(await inspector.hGet(`${DEFAULT_KEY_PREFIX}:session:${session.id}:record`, 'node')).toBe(now);
      }),
    );
    survivors = sessions;
  }, 90_000);

  it('drains a replica on SIGTERM with no failed 2026-07-28 request, and its sessions move at once (its heartbeat is deleted first)', async () => {
    const alive = replicas.filter((r) => r.child.exitCode === null && r.child.signalCode === null);
    expect(alive).toHaveLength(2);
    const [leaving, staying] = alive as [Replica, Replica];
    const failures: string[] = [];
    let answered = 0;
    let stop = false;
    let afterExit = 0;
    const worker = async (w: number) => {
      for (let i = 0; !stop; i++) {
        const response = await post2026(balancer.url, w * 100_000 + i, 'tools/call', { name: 'ping', arguments: {} }).catch((error: unknown) => new Response(String(error), { status: 599 }));
        const body = await response.text();
        if (response.status !== 200 || !body.includes('pong from')) failures.push(`${response.status} ${body.slice(0, 120)}`);
        else answered++;
        if (leaving.child.exitCode !== null) afterExit++;
        if (afterExit >= 20) stop = true;
      }
    };
    const load = Promise.all([1, 2, 3, 4].map(worker));
    await vi.waitFor(() => expect(answered).toBeGreaterThan(20), { timeout: 10_000, interval: 20 });
    await leaving.stop('SIGTERM');
    expect(await inspector.exists(nodeHeartbeatKey(DEFAULT_KEY_PREFIX, leaving.name))).toBe(0);
    await load;
    expect(failures, balancer.output().split('\n').filter((l) => / 50\d /.test(l)).slice(-20).join('\n')).toEqual([]);

    // No waiting for a heartbeat to expire: every session answers on the last replica now.
    for (const session of survivors) {
      expect(nodeOf(await session.ping())).toBe(staying.name);
      expect(session.recorded.methods.filter((m) => m === 'initialize')).toHaveLength(1);
    }
    for (const session of survivors) await session.close();
  });
});
