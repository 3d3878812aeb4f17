/**
 * The structure behind the figures in docs/performance.md, proved by counting
 * (never by timing; `pnpm bench` does the timing):
 *
 * - a minted server — a session's, or a request's — holds no per-tool state:
 *   the objects only it owns are as many at 1000 tools as at 10, because it
 *   serves the blueprint's shared tables instead of registering N tools;
 * - a per-request `tools/call` or `tools/list`, in both per-request eras, does
 *   the same work whatever the number of tools: one mint, no registration, no
 *   schema conversion, no list render, no extension resolution;
 * - held extensions are not imported at start-up, nor by the first request of
 *   the default selection: 48 held of 50 installed cost nothing until asked for.
 */
import { existsSync } from 'node:fs';
import { McpServer } from '@modelcontextprotocol/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { buildHost, createMcpApp, defineExtension, defineTool, loadExtensions, parseSelection, silentLogger, type McpHost } from '../src/index.js';
import { ownToolEntries } from '../src/host/mint/mint.js';
import { snapshotStats, statsSince, type HostStats } from '../src/kernel/stats.js';
import { connect } from '../src/testing/index.js';
import { extensionSource, layoutApp, type FixtureApp } from './fixtures/packages.js';
import { listen, messagesOf, post, type Listening } from './helpers/http.js';
import { HOST_STATS } from '../src/host/internals.js';

/**
 * Every object reachable from `root` through own properties (data
 * descriptors only: no getter runs; symbol keys included), Map keys and
 * values, and Set values. A minted server keeps its view of the blueprint's
 * tables on such a property, so what it holds is all reachable this way.
 */
function reachable(root: object): Set<object> {
  const seen = new Set<object>();
  const queue: unknown[] = [root];
  while (queue.length > 0) {
    const value = queue.pop();
    if ((typeof value !== 'object' && typeof value !== 'function') || value === null || seen.has(value)) continue;
    seen.add(value);
    if (value instanceof Map) for (const [k, v] of value) queue.push(k, v);
    if (value instanceof Set) for (const v of value) queue.push(v);
    for (const key of Reflect.ownKeys(value)) {
      const descriptor = Object.getOwnPropertyDescriptor(value, key);
      if (descriptor && 'value' in descriptor) queue.push(descriptor.value);
    }
  }
  return seen;
}

/** How many objects `server` owns: reachable from it but not from `other`, a server of the same kind. */
function ownedObjects(server: object, other: object): number {
  const shared = reachable(other);
  let owned = 0;
  for (const object of reachable(server)) if (!shared.has(object)) owned++;
  return owned;
}

function catalogue(count: number) {
  return defineExtension({
    manifest: { name: 'catalogue', version: '1.0.0' },
    toolsets: () => [{ name: 'catalogue' }],
    tools: () =>
      Array.from({ length: count }, (_, i) =>
        defineTool({
          name: `tool_${i}`,
          description: `Tool number ${i}.`,
          inputSchema: z.object({ query: z.string(), limit: z.number().int().optional() }),
          handler: ({ query }) => `tool_${i}: ${query}`,
        }),
      ),
  });
}

/** Per-server objects of a server minted for a connection, at `count` tools. */
async function ownedByMinted(count: number): Promise<number> {
  const host = await buildHost([catalogue(count)], { logger: silentLogger });
  const built = await host.build();
  const [a, b] = [await built.createServer(), await built.createServer()];
  await host.stop();
  return ownedObjects(a, b);
}

describe('a minted server holds no per-tool state', () => {
  it('the measure sees per-tool state where there is some: an SDK server registering N tools owns more than N objects', () => {
    const schema = z.object({ query: z.string() });
    const sdkServer = (count: number) => {
      const server = new McpServer({ name: 'sdk', version: '1.0.0' });
      for (let i = 0; i < count; i++) server.registerTool(`tool_${i}`, { inputSchema: schema }, () => ({ content: [] }));
      return server;
    };
    expect(ownedObjects(sdkServer(1000), sdkServer(1000))).toBeGreaterThan(1000);
    expect(ownedObjects(sdkServer(1000), sdkServer(1000))).toBeGreaterThan(ownedObjects(sdkServer(10), sdkServer(10)) + 990);
  });

  it('a server minted from a blueprint owns as many objects at 1000 tools as at 10', async () => {
    const small = await ownedByMinted(10);
    const large = await ownedByMinted(1000);
    expect(large).toBe(small);
    // Far below one object per tool: the tables stay with the blueprint.
    expect(large).toBeLessThan(1000);
  });

  it('a hook that changes one tool costs its server an overlay entry, not a copy of the table', async () => {
    // Declaring the active toolset makes the extension's onServer run on every server of it.
    const narrow = defineExtension({
      manifest: { name: 'narrow', version: '1.0.0' },
      toolsets: () => [{ name: 'catalogue' }],
      onServer: (_server, context) => context.tool('tool_0')?.disable(),
    });
    const owned = async (count: number) => {
      const host = await buildHost([catalogue(count), narrow], { logger: silentLogger });
      const built = await host.build();
      const [a, b] = [await built.createServer(), await built.createServer()];
      const client = await connect(host);
      expect(await client.toolNames()).toHaveLength(count - 1);
      await client.close();
      await host.stop();
      expect(ownToolEntries(a)).toBe(1);
      return ownedObjects(a, b);
    };
    const small = await owned(10);
    expect(await owned(1000)).toBe(small);
    expect(small).toBeGreaterThan(await ownedByMinted(10)); // the overlay is there, and it is small
  });

  it('without hooks a minted server holds no tool of its own', async () => {
    const host = await buildHost([catalogue(1000)], { logger: silentLogger });
    const server = await (await host.build()).createServer();
    expect(ownToolEntries(server)).toBe(0);
    expect(ownToolEntries(new McpServer({ name: 'not minted', version: '1.0.0' }))).toBeUndefined();
    await host.stop();
  });
});

const MODERN_META = { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': {} };

/** A raw per-request `method` in one era; returns the JSON-RPC result. */
async function perRequest(app: Listening, era: '2025' | '2026', method: 'tools/list' | 'tools/call', tool: string): Promise<Record<string, unknown>> {
  const params = method === 'tools/call' ? { name: tool, arguments: { query: 'q' } } : {};
  const response =
    era === '2026'
      ? await post(app.url('/mcp'), { jsonrpc: '2.0', id: 1, method, params: { ...params, _meta: MODERN_META } }, { 'mcp-protocol-version': '2026-07-28', 'mcp-method': method, ...(method === 'tools/call' ? { 'mcp-name': tool } : {}) })
      : await post(app.url('/mcp'), { jsonrpc: '2.0', id: 1, method, params }, { 'mcp-protocol-version': '2025-11-25' });
  expect(response.status).toBe(200);
  const [message] = await messagesOf(response);
  return message?.result as Record<string, unknown>;
}

describe('a per-request server does the same work at 10 and at 1000 tools', () => {
  const hosts: Record<number, { host: McpHost; app: Listening; minted: McpServer[] }> = {};

  beforeAll(async () => {
    for (const count of [10, 1000]) {
      const minted: McpServer[] = [];
      // The default factory's server, kept so the test can look at what each request minted.
      const serverFactory = (name: string, instructions: string) => {
        const server = new McpServer({ name, version: '1.0.0' }, { capabilities: { logging: {} }, ...(instructions === '' ? {} : { instructions }) });
        minted.push(server);
        return server;
      };
      const host = await buildHost([catalogue(count)], { logger: silentLogger, serverFactory });
      // The SDK's per-request path (the fast path shares one server per blueprint: below).
      hosts[count] = { host, app: await listen(createMcpApp(host, { sessions: false, fastPath: false })), minted };
    }
  });
  afterAll(async () => {
    for (const { host, app } of Object.values(hosts)) {
      await app.close();
      await host.stop();
    }
  });

  const cases = (['2025', '2026'] as const).flatMap((era) => (['tools/call', 'tools/list'] as const).map((method) => ({ era, method })));

  it.each(cases)('$method ($era per request): one mint, no registration, conversion, render or resolution; the same per-server objects', async ({ era, method }) => {
    const spent: Record<number, HostStats> = {};
    const owned: Record<number, number> = {};
    for (const count of [10, 1000]) {
      const { host, app, minted } = hosts[count]!;
      const tool = `tool_${count - 1}`;
      await perRequest(app, era, method, tool); // warm: the blueprint exists after the first request
      const before = snapshotStats(host[HOST_STATS]);
      const result = await perRequest(app, era, method, tool);
      spent[count] = statsSince(before, host[HOST_STATS]);
      if (method === 'tools/list') expect((result.tools as unknown[]).length).toBe(count);
      else expect(result.content).toEqual([{ type: 'text', text: `${tool}: q` }]);
      owned[count] = ownedObjects(minted.at(-1)!, minted.at(-2)!);
    }
    expect(spent[1000]).toEqual(spent[10]);
    expect(spent[1000]).toMatchObject({ mints: 1, toolRegistrations: 0, schemaConversions: 0, listRenders: 0, resolutions: 0, blueprints: 0 });
    expect(owned[1000]).toBe(owned[10]);
  });
});

describe('the fast path mints nothing per request', () => {
  it.each(['tools/call', 'tools/list'] as const)('%s (2026): no mint, registration, conversion, render or resolution at 10 or 1000 tools', async (method) => {
    for (const count of [10, 1000]) {
      const host = await buildHost([catalogue(count)], { logger: silentLogger });
      const app = await listen(createMcpApp(host, { sessions: false, fastPath: true }));
      try {
        const tool = `tool_${count - 1}`;
        await perRequest(app, '2026', method, tool); // warm: the blueprint and its shared server exist after the first request
        const before = snapshotStats(host[HOST_STATS]);
        const result = await perRequest(app, '2026', method, tool);
        if (method === 'tools/list') expect((result.tools as unknown[]).length).toBe(count);
        else expect(result.content).toEqual([{ type: 'text', text: `${tool}: q` }]);
        // A call is answered by the shared server's lean tools/call, without the SDK's per-call parses (sdk/leanToolsCall.ts), and handed to it without the SDK's _onrequest (sdk/leanDispatch.ts).
        expect(statsSince(before, host[HOST_STATS])).toMatchObject({ mints: 0, toolRegistrations: 0, schemaConversions: 0, listRenders: 0, resolutions: 0, blueprints: 0, leanToolCalls: method === 'tools/call' ? 1 : 0, leanDispatches: method === 'tools/call' ? 1 : 0 });
      } finally {
        await app.close();
        await host.stop();
      }
    }
  });
});

describe('held extensions cost nothing at start-up (50 installed, 48 held)', () => {
  let app: FixtureApp;
  const heldNames = Array.from({ length: 48 }, (_, i) => `held${String(i).padStart(2, '0')}`);

  beforeAll(async () => {
    app = await layoutApp('pnpm', (scratch) => [
      ...['alpha', 'beta'].map((name) => ({
        name: `ext-${name}`,
        reactorMcp: { extensions: { [name]: './index.js' } },
        files: { 'index.js': extensionSource({ name, tools: [`${name}_tool`], importMarker: scratch(`${name}.marker`) }) },
      })),
      ...heldNames.map((name) => {
        const declared = { activationEvents: [`onToolset:${name}`], toolsets: [{ name, default: false }] };
        return {
          name: `ext-${name}`,
          reactorMcp: { extensions: { [name]: { module: './index.js', ...declared } } },
          files: { 'index.js': extensionSource({ name, ...declared, tools: [`${name}_tool`], importMarker: scratch(`${name}.marker`) }) },
        };
      }),
    ]);
  });
  afterAll(() => app.remove());

  const imported = () => [...heldNames, 'alpha', 'beta'].filter((name) => existsSync(app.scratch(`${name}.marker`)));

  it('imports only the two that are not held, at start-up and through the first list of the default selection', async () => {
    const host = await buildHost(await loadExtensions({ root: app.root, logger: silentLogger }), { logger: silentLogger });
    try {
      expect(imported()).toEqual(['alpha', 'beta']);
      expect(host.report().extensions.filter((e) => e.state === 'held')).toHaveLength(48);
      // The held extensions' toolsets are listed from package.json, without their code.
      expect(host.declaredToolsets().map((t) => t.name)).toEqual(expect.arrayContaining(heldNames));

      const listing = await listen(createMcpApp(host, { sessions: false }));
      try {
        const result = await perRequest(listing, '2026', 'tools/list', '');
        expect((result.tools as Array<{ name: string }>).map((t) => t.name)).toEqual(['alpha_tool', 'beta_tool']);
        expect(imported()).toEqual(['alpha', 'beta']);

        expect((await host.build(parseSelection('held07'))).toolNames).toContain('held07_tool');
        expect(imported()).toEqual(['held07', 'alpha', 'beta']);
      } finally {
        await listing.close();
      }
    } finally {
      await host.stop();
    }
  });
});
