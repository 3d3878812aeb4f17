/**
 * Dynamic toolsets across replicas: a session's enabled toolsets are part of
 * its record in Redis, so the replica that takes the session over after its
 * holder is killed (`kill -9`) serves what the session had enabled — the
 * model does not have to enable it again, and its tool list does not shrink.
 * Two replicas of the real command (`--dynamic-toolsets`) on one real Redis,
 * the default v1 SDK client, no retry policy of the test's own.
 */
import { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as TransportV1 } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ToolListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startReplica, type Replica } from './helpers/cluster.js';
import { startRedis, type TestRedis } from './helpers/redisServer.js';

const HEARTBEAT_MS = 1_000;

let redis: TestRedis;
let replicas: Replica[] = [];

beforeAll(async () => {
  redis = await startRedis();
  replicas = await Promise.all(['node-a', 'node-b'].map((name) => startReplica(name, redis.url, HEARTBEAT_MS, ['--dynamic-toolsets'])));
}, 60_000);

afterAll(async () => {
  await Promise.all(replicas.map((r) => r.stop('SIGTERM')));
  await redis?.stop();
});

const text = (result: unknown) => ((result as { content: Array<{ text: string }> }).content[0]!).text;

describe('a dynamic session across replicas', () => {
  it('keeps the toolsets it enabled after its holder is killed: the replica that takes it over serves them', async () => {
    const [holder, survivor] = replicas as [Replica, Replica];
    // A balancer the test controls: the holder while it lives, then the survivor.
    let target = holder;
    const balanced = (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
      const url = new URL(typeof input === 'string' || input instanceof URL ? input.toString() : input.url);
      url.host = target.address;
      return fetch(url, init);
    };
    const transport = new TransportV1(new URL(`${holder.url.href}?dynamic`), { fetch: balanced });
    const client = new ClientV1({ name: 'dynamic-v1', version: '1.0.0' });
    let listChanged = 0;
    client.setNotificationHandler(ToolListChangedNotificationSchema, () => void (listChanged += 1));
    await client.connect(transport);
    const id = transport.sessionId!;

    const before = (await client.listTools()).tools.map((t) => t.name);
    expect(before).toEqual(expect.arrayContaining(['ping', 'list_available_toolsets', 'get_toolset_tools', 'enable_toolset']));
    expect(before).not.toContain('report');

    await client.callTool({ name: 'enable_toolset', arguments: { toolset: 'reports' } });
    expect((await client.listTools()).tools.map((t) => t.name)).toContain('report');
    expect(text(await client.callTool({ name: 'report', arguments: {} }))).toBe('report from node-a');
    expect(listChanged).toBeGreaterThanOrEqual(1);

    await holder.stop('SIGKILL');
    target = survivor;
    // The survivor waits out the holder's heartbeat, takes the session over, and rebuilds it with what it had enabled.
    expect(text(await client.callTool({ name: 'report', arguments: {} }))).toBe('report from node-b');
    expect(transport.sessionId).toBe(id);
    const after = (await client.listTools()).tools.map((t) => t.name);
    expect(after).toEqual(expect.arrayContaining(['report', 'ping', 'enable_toolset']));
    await client.close();
  }, 60_000);
});
