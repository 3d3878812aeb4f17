// The latency the Redis event store adds per SSE event, for `pnpm bench:cluster`
// (scripts/bench-cluster.mjs imports it). Two apps in this process, built the same
// way but for their event store — the MCP SDK's in-memory store (its example
// `InMemoryEventStore`) and `@reactor/redis`'s `RedisEventStore` on the bench's
// Redis — each serve a `chatter` tool that sends N progress notifications, each an
// SSE event on the call's response stream. The SDK stores every event before
// writing it, one after the other, so the gap between two events is what storing
// one costs (plus writing it). Calls alternate between the two apps, so both see
// the same machine load; per store: the p50/p99 gap between events, the p50 call,
// and the difference per event.
import { createServer } from 'node:http';
import { createRequire } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { openSession, readSseEvents } from './mcpWire.mjs';

const pct = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
const round = (x, digits = 3) => Math.round(x * 10 ** digits) / 10 ** digits;

/** Imports `specifier` as packages/redis resolves it (its dependencies and workspace links). */
async function importFromRedisPackage(root, specifier) {
  const require = createRequire(path.join(root, 'packages', 'redis', 'package.json'));
  return await import(pathToFileURL(require.resolve(specifier)).href);
}

/** One app serving `chatter` with `eventStore`, on a loopback port; its URL and a stop(). */
async function serve(host, eventStore) {
  const { createMcpApp } = host.module;
  const app = createMcpApp(host.instance, { eventStore });
  const server = createServer(app);
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: new URL(`http://127.0.0.1:${server.address().port}/mcp`),
    async stop() {
      await app.close();
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

/** One `chatter` call: the time of each SSE event's arrival, ms, and the call's duration. */
async function chatter(url, headers, id) {
  const t0 = performance.now();
  const response = await fetch(url, { method: 'POST', headers, body: JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'chatter', arguments: {}, _meta: { progressToken: id } } }) });
  if (response.status !== 200 || !response.headers.get('content-type')?.includes('text/event-stream')) throw new Error(`chatter answered HTTP ${response.status} ${response.headers.get('content-type')}: ${await response.text()}`);
  const arrivals = [];
  // Only messages: the SDK's priming event (an id, empty data) is not one of the N.
  await readSseEvents(response.body.getReader(), (_id, data) => data !== '' && arrivals.push(performance.now()));
  return { arrivals, durationMs: performance.now() - t0 };
}

/**
 * Measures both stores in one run: `calls` calls per store of `events` events
 * each, alternating. `root` is the repository; `redisUrl` the bench's Redis.
 */
export async function measureSseStoreLatency({ root, redisUrl, calls = 40, events = 50 }) {
  const hostModule = await importFromRedisPackage(root, '@reactor/host');
  const { RedisEventStore } = await import(pathToFileURL(path.join(root, 'packages', 'redis', 'dist', 'index.js')).href);
  const { createClient } = await importFromRedisPackage(root, '@redis/client');
  const { InMemoryEventStore } = await importFromRedisPackage(root, '@modelcontextprotocol/sdk/examples/shared/inMemoryEventStore.js');
  const { buildHost, defineExtension, defineTool, silentLogger } = hostModule;
  const chatterTool = defineTool({
    name: 'chatter',
    description: `Sends ${events} progress notifications, then answers.`,
    inputSchema: {},
    handler: async (_args, ctx) => {
      const progressToken = ctx.mcpReq._meta?.progressToken;
      for (let i = 1; i <= events; i++) await ctx.mcpReq.notify({ method: 'notifications/progress', params: { progressToken, progress: i, total: events } });
      return 'done';
    },
  });
  const extension = defineExtension({ manifest: { name: 'chatter', version: '1.0.0' }, tools: () => [chatterTool] });
  const client = createClient({ url: redisUrl });
  client.on('error', () => undefined);
  await client.connect();
  const stores = {
    memory: new InMemoryEventStore(),
    redis: new RedisEventStore(client, { ttlMs: 60_000, keyPrefix: 'bench:sse' }),
  };
  const apps = {};
  const hosts = [];
  try {
    for (const [name, store] of Object.entries(stores)) {
      const instance = await buildHost([extension], { logger: silentLogger });
      hosts.push(instance);
      apps[name] = await serve({ module: hostModule, instance }, store);
      apps[name].session = await openSession(apps[name].url, 'bench-sse-store');
    }
    const gaps = { memory: [], redis: [] };
    const durations = { memory: [], redis: [] };
    // Warm-up: one call each, not counted.
    for (const name of ['memory', 'redis']) await chatter(apps[name].url, apps[name].session, 1);
    for (let i = 0; i < calls; i++) {
      for (const name of i % 2 === 0 ? ['memory', 'redis'] : ['redis', 'memory']) {
        const { arrivals, durationMs } = await chatter(apps[name].url, apps[name].session, 10 + i);
        if (arrivals.length !== events + 1) throw new Error(`a ${name} chatter call delivered ${arrivals.length} events; expected ${events} notifications and the result`);
        // Gaps between notifications only: the first waits on the call's start, the result on the handler's end.
        for (let k = 1; k < events; k++) gaps[name].push(arrivals[k] - arrivals[k - 1]);
        durations[name].push(durationMs);
      }
    }
    const summary = (name) => {
      const g = gaps[name].sort((a, b) => a - b);
      const d = durations[name].sort((a, b) => a - b);
      return { gapP50Ms: round(pct(g, 50)), gapP99Ms: round(pct(g, 99)), callP50Ms: round(pct(d, 50), 2) };
    };
    const memory = summary('memory');
    const redis = summary('redis');
    return {
      calls,
      eventsPerCall: events,
      memory,
      redis,
      addedPerEventMs: round((redis.callP50Ms - memory.callP50Ms) / events),
      gapP50DiffMs: round(redis.gapP50Ms - memory.gapP50Ms),
    };
  } finally {
    for (const app of Object.values(apps)) await app.stop();
    for (const host of hosts) await host.stop();
    await client.close();
  }
}
