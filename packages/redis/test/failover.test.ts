/**
 * Failover without a retrying client: three replicas of the command on one
 * real Redis, with the default heartbeat (1 s, lasting 3 s), and the default
 * v1 and v2 SDK clients — no retry policy of the test's own.
 *
 * - A replica that does not hold a session relays the session's requests to
 *   the holder (whose heartbeat carries its address) and streams the answer
 *   back: a balancer that moves a session on every request, GET stream
 *   included, costs the client nothing.
 * - When the holder is killed (`kill -9`), a request for its session waits on
 *   the replica it reached until the holder's heartbeat expires, then that
 *   replica takes the session over and answers: the client sees no error, and
 *   a v1 client's notification stream, which re-opens twice and then never
 *   again, comes back under the same session.
 * - A call running on the holder when it is killed fails as soon as the
 *   session is taken over, with an error that says so — the replica that took
 *   it over answers the client's resumption of the call's stream — instead of
 *   at the client's request timeout.
 */
import { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as TransportV1 } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ResourceUpdatedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { createClient } from '@redis/client';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { DEFAULT_KEY_PREFIX, nodeHeartbeatKey } from '../src/keys.js';
import { startHaproxy, startReplica, type Balancer, type Replica } from './helpers/cluster.js';
import { startRedis, type TestRedis } from './helpers/redisServer.js';

/** The command's default heartbeat: death is detected within three of these. */
const HEARTBEAT_MS = 1_000;

let redis: TestRedis;
let inspector: ReturnType<typeof createClient>;
let replicas: Replica[] = [];
let balancer: Balancer;

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

const text = (result: unknown) => ((result as { content: Array<{ text: string }> }).content[0]!).text;
const nodeOf = (pong: string) => pong.replace('pong from ', '');

describe('failover with the default SDK clients', () => {
  it('answers a session wherever its requests land: a replica that does not hold it relays them (GET stream included) to the holder', async () => {
    // A "balancer" that moves the session on purpose: each request goes to the next replica.
    let turn = 0;
    const statuses: number[] = [];
    const methods: string[] = [];
    const rotating = async (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
      const replica = replicas[turn++ % replicas.length]!;
      const url = new URL(typeof input === 'string' || input instanceof URL ? input.toString() : input.url);
      url.host = replica.address;
      if (typeof init?.body === 'string') methods.push(...[JSON.parse(init.body) as unknown].flat().map((m) => (m as { method?: string }).method ?? 'response'));
      const response = await fetch(url, init);
      statuses.push(response.status);
      return response;
    };
    const transport = new TransportV1(replicas[0]!.url, { fetch: rotating });
    const client = new ClientV1({ name: 'rotating-v1', version: '1.0.0' });
    const updates: string[] = [];
    client.setNotificationHandler(ResourceUpdatedNotificationSchema, (n) => void updates.push(n.params.uri));
    await client.connect(transport);
    await client.subscribeResource({ uri: 'test://clock' });

    const answers = new Set<string>();
    for (let call = 0; call < 9; call++) answers.add(nodeOf(text(await client.callTool({ name: 'ping', arguments: {} }))));
    // Nine calls over three replicas, each run by the one replica that holds the session.
    expect(answers).toEqual(new Set(['node-1']));
    // The GET stream, opened through another replica, hears the holder's notifications.
    await vi.waitFor(async () => {
      await client.callTool({ name: 'touch', arguments: {} });
      expect(updates).toContain('test://clock');
    }, { timeout: 20_000, interval: 200 });
    expect(statuses.filter((s) => s >= 400)).toEqual([]);
    expect(methods.filter((m) => m === 'initialize')).toHaveLength(1);
    await client.close();
  }, 90_000);

  it('keeps a session, its POSTs and its v1 GET stream through a kill -9 of its holder: the request waits for the takeover instead of failing', async () => {
    // The default clients, through the project's HAProxy recipe.
    const v1 = new ClientV1({ name: 'default-v1', version: '1.0.0' });
    // The statuses of the v1 client's GET streams (it re-opens one twice after a failure, then never again).
    const getStatuses: number[] = [];
    const v1Transport = new TransportV1(balancer.url, {
      fetch: async (input, init) => {
        const response = await fetch(input, init);
        if ((init?.method ?? 'GET') === 'GET') getStatuses.push(response.status);
        return response;
      },
    });
    const updates: string[] = [];
    // Which GET stream carried each update: the number of GET responses the client had when the update arrived.
    const updatesOnStream: number[] = [];
    v1.setNotificationHandler(ResourceUpdatedNotificationSchema, (n) => {
      updates.push(n.params.uri);
      updatesOnStream.push(getStatuses.length);
    });
    await v1.connect(v1Transport);
    await v1.subscribeResource({ uri: 'test://clock' });
    const holder = nodeOf(text(await v1.callTool({ name: 'ping', arguments: {} })));
    const id = v1Transport.sessionId!;

    // A v2 client whose session the same replica holds (HAProxy's round-robin places it; open until one lands there).
    let v2: Client | undefined;
    let v2Transport: StreamableHTTPClientTransport | undefined;
    for (let tries = 0; tries < 12 && !v2; tries++) {
      const client = new Client({ name: 'default-v2', version: '1.0.0' });
      const transport = new StreamableHTTPClientTransport(balancer.url);
      await client.connect(transport);
      if (nodeOf(text(await client.callTool({ name: 'ping', arguments: {} }))) === holder) [v2, v2Transport] = [client, transport];
      else await client.close();
    }
    expect(v2, `no v2 session landed on ${holder}`).toBeDefined();
    const v2Id = v2Transport!.sessionId!;

    // The v1 GET stream is up (a notification reaches it) before the kill.
    await vi.waitFor(async () => {
      await v1.callTool({ name: 'touch', arguments: {} });
      expect(updates).toContain('test://clock');
    }, { timeout: 20_000, interval: 200 });

    const victim = replicas.find((r) => r.name === holder)!;
    // Another session, on a replica that lives on, says test://clock changed (every node hears it through Redis).
    const toucher = new Client({ name: 'toucher', version: '1.0.0' });
    await toucher.connect(new StreamableHTTPClientTransport(replicas.find((r) => r.name !== holder)!.url));
    const getsBefore = getStatuses.length;
    await victim.stop('SIGKILL');

    // The v1 client sends nothing: its GET stream alone, re-opened at +1 s (its second and last attempt is at
    // +2.5 s, before the heartbeat expires), waits for the takeover of its session and hears the next update.
    // The wait is longer than the product's own bound on it (the re-opening arrives a second after the kill
    // and may be held HOLDER_WAIT_MS, 10 s, for the takeover), so that a loaded machine's slowness is not
    // taken for a failure to fail over.
    // Only an update heard on a stream opened after the kill counts: one the dead holder wrote just before it
    // died may still be on its way through the balancer and the client's SSE parser after the kill returns.
    await vi.waitFor(async () => {
      await toucher.callTool({ name: 'touch', arguments: {} });
      expect(updatesOnStream.some((streams) => streams > getsBefore), 'an update heard on a GET stream re-opened since the kill').toBe(true);
    }, { timeout: 20_000, interval: 200 });
    // Its first re-opening, a second after the kill while the heartbeat still lasted, was held and then answered, not refused.
    expect(getStatuses.slice(getsBefore), 'the statuses of the v1 GET stream\'s re-openings since the kill').toEqual([200]);

    // Its calls, and the v2 session's, are served by the replicas that took them over, under the same ids.
    const [after1, after2] = await Promise.all([v1.callTool({ name: 'ping', arguments: {} }), v2!.callTool({ name: 'ping', arguments: {} })]);
    expect(nodeOf(text(after1))).not.toBe(holder);
    expect(nodeOf(text(after2))).not.toBe(holder);
    expect(v2Transport!.sessionId).toBe(v2Id);
    await toucher.close();
    expect(await inspector.exists(nodeHeartbeatKey(DEFAULT_KEY_PREFIX, holder))).toBe(0);
    expect(v1Transport.sessionId).toBe(id);
    await v1.close();
    await v2!.close();
  }, 90_000);

  it('fails a call in flight on a killed holder within seconds, saying why, instead of at the client\'s request timeout', async () => {
    const live = replicas.filter((r) => r.child.exitCode === null && r.child.signalCode === null);
    // A v1 and a v2 session held by the same replica (HAProxy's round-robin places them; open until they share one).
    const open = async (era: 'v1' | 'v2') => {
      const transport = era === 'v1' ? new TransportV1(balancer.url) : new StreamableHTTPClientTransport(balancer.url);
      const client = era === 'v1' ? new ClientV1({ name: 'stalled-v1', version: '1.0.0' }) : new Client({ name: 'stalled-v2', version: '1.0.0' });
      await client.connect(transport);
      const node = nodeOf(text(await client.callTool({ name: 'ping', arguments: {} })));
      return { client, transport, node };
    };
    const v1 = await open('v1');
    let v2 = await open('v2');
    for (let tries = 0; tries < 12 && v2.node !== v1.node; tries++) {
      await v2.client.close();
      v2 = await open('v2');
    }
    expect(v2.node, `no v2 session landed on ${v1.node}`).toBe(v1.node);
    const victim = live.find((r) => r.name === v1.node)!;
    const v1Id = v1.transport.sessionId!;

    // Both calls are running on the holder when it dies. The clients' own timeout (30 s) would say "timed out".
    const timeout = 30_000;
    const calls = [
      (v1.client as ClientV1).callTool({ name: 'stall', arguments: {} }, undefined, { timeout }).then(() => 'answered', (error: Error) => error.message),
      (v2.client as Client).callTool({ name: 'stall', arguments: {} }, { timeout }).then(() => 'answered', (error: Error) => error.message),
    ];
    await vi.waitFor(() => expect(victim.output().match(/stall started on/g) ?? []).toHaveLength(2), { timeout: 20_000, interval: 20 });
    await victim.stop('SIGKILL');

    // The replica that took each session over answers the resumed stream with the reason, once the holder's heartbeat expired.
    const [v1Failure, v2Failure] = await Promise.all(calls);
    for (const failure of [v1Failure, v2Failure]) {
      expect(failure).toMatch(/Request interrupted: the node that was running request .* stopped before answering it/);
      expect(failure).toMatch(/repeat it if that is safe/);
    }
    // The session goes on, under its id, on another replica.
    expect(nodeOf(text(await (v1.client as ClientV1).callTool({ name: 'ping', arguments: {} })))).not.toBe(victim.name);
    expect(v1.transport.sessionId).toBe(v1Id);
    await v1.client.close();
    await v2.client.close();
  }, 90_000);

  it('says once, on SIGTERM, that a replica released its sessions', async () => {
    const leaving = replicas.find((r) => r.child.exitCode === null && r.child.signalCode === null)!;
    await leaving.stop('SIGTERM');
    expect(leaving.output().match(/released its sessions/g) ?? []).toHaveLength(1);
  });
});
