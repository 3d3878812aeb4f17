/**
 * Three replicas of the command behind OSS nginx running
 * deploy/nginx.conf.template (filled in as envsubst would), on one real Redis.
 * nginx cannot learn stickiness from a response header: it balances round-robin,
 * with no stickiness at all, and a replica that does not hold the session relays
 * the request to the holder. A real client sees one service: every call of a
 * session runs on its holder, and when the holder is killed the session moves
 * under the same id.
 */
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { createClient } from '@redis/client';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { DEFAULT_KEY_PREFIX, nodeHeartbeatKey } from '../src/keys.js';
import { startNginx, startReplica, type Balancer, type Replica } from './helpers/cluster.js';
import { startRedis, type TestRedis } from './helpers/redisServer.js';

let redis: TestRedis;
let inspector: ReturnType<typeof createClient>;
let replicas: Replica[] = [];
let balancer: Balancer;

beforeAll(async () => {
  redis = await startRedis();
  inspector = createClient({ url: redis.url });
  inspector.on('error', () => undefined);
  await inspector.connect();
  replicas = await Promise.all(['node-1', 'node-2', 'node-3'].map((name) => startReplica(name, redis.url, 200)));
  balancer = await startNginx(replicas);
}, 60_000);

afterAll(async () => {
  await balancer?.stop();
  await Promise.all(replicas.map((r) => r.stop('SIGTERM')));
  await inspector?.close();
  await redis?.stop();
});

describe('behind nginx (deploy/nginx.conf.template)', () => {
  it('runs every call of a session on its holder, and moves the session of a killed holder under the same id', async () => {
    const sessions = await Promise.all(
      [1, 2, 3, 4, 5, 6].map(async () => {
        const initializes: string[] = [];
        const transport = new StreamableHTTPClientTransport(balancer.url, {
          fetch: (input, init) => {
            if (typeof init?.body === 'string' && init.body.includes('"initialize"')) initializes.push(init.body);
            return fetch(input, init);
          },
        });
        const client = new Client({ name: 'nginx-test', version: '1.0.0' });
        await client.connect(transport);
        const ping = async () => ((await client.callTool({ name: 'ping', arguments: {} })).content as Array<{ text: string }>)[0]!.text.replace('pong from ', '');
        return { client, transport, ping, initializes };
      }),
    );
    const holders = new Map<(typeof sessions)[number], string>();
    for (const session of sessions) {
      const answers = [await session.ping(), await session.ping(), await session.ping()];
      expect(new Set(answers).size, answers.join(', ')).toBe(1);
      holders.set(session, answers[0]!);
    }
    expect(new Set(holders.values()).size, 'initialize requests spread over the replicas').toBeGreaterThan(1);

    const victim = replicas.find((r) => r.name === holders.get(sessions[0]!))!;
    const id = sessions[0]!.transport.sessionId;
    await victim.stop('SIGKILL');
    await vi.waitFor(async () => expect(await inspector.exists(nodeHeartbeatKey(DEFAULT_KEY_PREFIX, victim.name))).toBe(0), { timeout: 5_000, interval: 50 });
    for (const session of sessions) {
      const now = await session.ping();
      if (holders.get(session) === victim.name) expect(now).not.toBe(victim.name);
      else expect(now).toBe(holders.get(session));
      expect(session.initializes).toHaveLength(1);
    }
    expect(sessions[0]!.transport.sessionId).toBe(id);
    for (const session of sessions) await session.client.close();
  });
});
