/**
 * The hot path, proved by counting (never by timing): on a cached selection a
 * request touches the cache and mints, nothing else. Whatever the number of
 * tools, a `tools/call` registers no tool, and repeated `tools/list` convert
 * no schema, render no list and compute no blueprint — in every era.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMcpApp, type McpHost } from '../src/index.js';
import { fastPathFromEnv } from '../src/serve/http/options.js';
import { snapshotStats, statsSince } from '../src/kernel/stats.js';
import { manyToolsHost } from './helpers/fixtures.js';
import { CLIENT_KINDS, connectClient, listen, textOf, type Listening } from './helpers/http.js';
import { HOST_STATS } from '../src/host/internals.js';

const REPEATS = 5;

describe.each([10, 1000])('with %i tools', (count) => {
  let host: McpHost;
  const apps: Record<'sessions' | 'stateless', Listening | undefined> = { sessions: undefined, stateless: undefined };

  beforeAll(async () => {
    host = await manyToolsHost(count);
    apps.sessions = await listen(createMcpApp(host));
    apps.stateless = await listen(createMcpApp(host, { sessions: false }));
  });
  afterAll(async () => {
    await apps.sessions?.close();
    await apps.stateless?.close();
    await host.stop();
  });

  const cases = CLIENT_KINDS.flatMap((kind) => (['sessions', 'stateless'] as const).map((mode) => ({ kind, mode })));

  it.each(cases)('$kind ($mode): tools/call and tools/list do no per-tool or per-request resolution work', async ({ kind, mode }) => {
    const client = await connectClient(kind, apps[mode]!.url('/mcp'));
    try {
      // Warm: the blueprint for this selection exists after the first request.
      expect(await client.toolNames()).toHaveLength(count);
      const before = snapshotStats(host[HOST_STATS]);
      for (let i = 0; i < REPEATS; i++) {
        expect(textOf(await client.callTool(`tool_${count - 1}`, { n: i }))).toBe(`tool ${count - 1}: ${i}`);
        expect(await client.toolNames()).toHaveLength(count);
      }
      const spent = statsSince(before, host[HOST_STATS]);
      expect(spent.toolRegistrations).toBe(0);
      expect(spent.schemaConversions).toBe(0);
      expect(spent.listRenders).toBe(0);
      expect(spent.blueprints).toBe(0);
      expect(spent.resolutions).toBe(0);
      // A session keeps its server. Without a session, the SDK's per-request path mints one (cheaply)
      // per request, 2025 stateless and 2026-07-28 alike; the fast path's shared server was minted by the warm-up.
      const perRequest = (kind.includes('2026') || mode === 'stateless') && !fastPathFromEnv();
      expect(spent.mints).toBe(perRequest ? REPEATS * 2 : 0);
    } finally {
      await client.close();
    }
  });
});
