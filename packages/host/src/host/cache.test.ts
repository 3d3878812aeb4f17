/**
 * The blueprint cache, proven by counting (never by timing): a cache hit
 * resolves no extension and converts no schema, and minting a server for a
 * new connection registers nothing per tool and renders no list.
 */
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { buildHost } from './host.js';
import { defineExtension } from '../contract/extension.js';
import { defineTool } from '../contract/tool.js';
import { parseSelection } from '../selection/selection.js';
import { silentLogger } from '../kernel/logger.js';
import { snapshotStats, statsSince, type HostStats } from '../kernel/stats.js';
import type { McpHost } from './host.js';
import { connect } from '../testing/index.js';
import { HOST_STATS, HOST_USAGE } from './internals.js';

function manyTools(count: number) {
  return defineExtension({
    manifest: { name: 'catalogue', version: '1.0.0' },
    toolsets: () => [{ name: 'catalogue' }, { name: 'extra', default: false }],
    tools: () =>
      Array.from({ length: count }, (_, i) =>
        defineTool({
          name: `tool_${i}`,
          description: `Tool number ${i}.`,
          inputSchema: z.object({ id: z.string(), limit: z.number().int().default(10) }),
          handler: (args) => `${i}:${args.id}`,
        }),
      ),
  });
}

const delta = (host: McpHost, before: HostStats) => statsSince(before, host[HOST_STATS]);

describe.each([10, 1000])('the blueprint cache at %i tools', (count) => {
  it('a first build resolves each tool once and converts each schema once', async () => {
    const host = await buildHost([manyTools(count)], { logger: silentLogger });
    const before = snapshotStats(host[HOST_STATS]);
    await host.build();
    const d = delta(host, before);
    expect(d.resolutions).toBe(count);
    expect(d.schemaConversions).toBe(count);
    expect(d.blueprints).toBe(1);
    expect(d.listRenders).toBe(1);
    expect(d.toolRegistrations).toBe(0);
  });

  it('a cache hit — equal selections in any spelling — resolves nothing and converts nothing', async () => {
    const host = await buildHost([manyTools(count)], { logger: silentLogger });
    await host.build(parseSelection('extra'));
    const before = snapshotStats(host[HOST_STATS]);
    for (const query of ['extra', 'toolsets=extra', 'extra=1', 'extra&catalogue', 'catalogue,extra']) await host.build(parseSelection(query));
    expect(delta(host, before)).toEqual({ schemaConversions: 0, resolutions: 0, blueprints: 0, mints: 0, toolRegistrations: 0, listRenders: 0, views: 0, fastAnswers: 0, fetchRequests: 0, leanToolCalls: 0, leanDispatches: 0 });
  });

  it('minting a server per connection registers no tool, converts no schema and renders no list', async () => {
    const host = await buildHost([manyTools(count)], { logger: silentLogger });
    const built = await host.build();
    const before = snapshotStats(host[HOST_STATS]);
    for (let i = 0; i < 20; i++) await built.createServer();
    const d = delta(host, before);
    expect(d.mints).toBe(20);
    expect(d.toolRegistrations).toBe(0);
    expect(d.schemaConversions).toBe(0);
    expect(d.listRenders).toBe(0);
    expect(d.resolutions).toBe(0);
  });

  it('tools/list and tools/call through a real client convert and render nothing anew', async () => {
    const host = await buildHost([manyTools(count)], { logger: silentLogger });
    const first = await connect(host);
    await first.toolNames();
    const before = snapshotStats(host[HOST_STATS]);
    const conn = await connect(host);
    const names = await conn.toolNames();
    expect(names).toHaveLength(count);
    expect((await conn.callTool(`tool_${count - 1}`, { id: 'x' })).content).toEqual([{ type: 'text', text: `${count - 1}:x` }]);
    const d = delta(host, before);
    expect(d.schemaConversions).toBe(0);
    expect(d.listRenders).toBe(0);
    expect(d.resolutions).toBe(0);
    expect(d.toolRegistrations).toBe(0);
    await first.close();
    await conn.close();
  });

  it('after forgetBuilt the next build resolves again but reuses each tool spec\'s converted schema', async () => {
    const host = await buildHost([manyTools(count)], { logger: silentLogger });
    await host.build();
    host.forgetBuilt();
    const before = snapshotStats(host[HOST_STATS]);
    await host.build();
    const d = delta(host, before);
    expect(d.resolutions).toBe(count);
    expect(d.schemaConversions).toBe(0);
  });
});

describe('the cache bound', () => {
  it('keeps at most maxCachedSelections blueprints, least recently used first out', async () => {
    const toolsets = Array.from({ length: 12 }, (_, i) => ({ name: `t${i}`, default: false }));
    const host = await buildHost([defineExtension({ manifest: { name: 'wide', version: '1.0.0' }, toolsets: () => toolsets })], { logger: silentLogger, maxCachedSelections: 4 });
    const keep = await host.build(parseSelection('t0'));
    for (let i = 1; i < 12; i++) {
      await host.build(parseSelection(`t${i}`));
      await host.build(parseSelection('t0')); // keep t0 recently used
    }
    expect(await host.build(parseSelection('t0'))).toBe(keep);
    const before = snapshotStats(host[HOST_STATS]);
    await host.build(parseSelection('t1'));
    expect(delta(host, before).blueprints).toBe(1); // t1 was evicted long ago
  });
});

describe('the last build, answered again', () => {
  const wide = () => defineExtension({ manifest: { name: 'wide', version: '1.0.0' }, toolsets: () => Array.from({ length: 4 }, (_, i) => ({ name: `t${i}`, default: false })) });

  it('answers the same selection object with the same server, counted as a cache hit', async () => {
    const host = await buildHost([wide()], { logger: silentLogger });
    const selection = parseSelection('t0');
    const first = await host.build(selection);
    const hits = host[HOST_USAGE].blueprintHits;
    expect(await host.build(selection)).toBe(first);
    expect(await host.build(selection)).toBe(first);
    expect(host[HOST_USAGE].blueprintHits).toBe(hits + 2);
  });

  it('never answers past a change: an evicted blueprint, forgetBuilt, a denied toolset, another tenant', async () => {
    const host = await buildHost([wide()], { logger: silentLogger, maxCachedSelections: 2 });
    const selection = parseSelection('t0');
    const first = await host.build(selection);
    // Described, not built: the blueprints of t1 and t2 come in through the cache alone, and t0's goes out.
    await host.describe(parseSelection('t1'));
    await host.describe(parseSelection('t2'));
    const before = snapshotStats(host[HOST_STATS]);
    const rebuilt = await host.build(selection);
    expect(delta(host, before).blueprints).toBe(1);
    expect(rebuilt).not.toBe(first);
    host.forgetBuilt();
    const afterForget = await host.build(selection);
    expect(afterForget).not.toBe(rebuilt);
    expect([...afterForget.toolsets]).toEqual(['t0']);
    const denied = await host.build(selection, { denied: ['t0'] });
    expect([...denied.toolsets]).toEqual([]);
    expect(await host.build(selection)).toBe(afterForget);
    const tenant = await host.build(selection, { tenant: 'acme' });
    expect(tenant).not.toBe(afterForget);
    expect(await host.build(selection)).not.toBe(tenant);
  });
});
