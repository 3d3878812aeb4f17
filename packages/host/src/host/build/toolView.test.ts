/**
 * Tool filters over the blueprint cache, proven by counting: a filter builds no
 * blueprint, resolves no extension and converts no schema — it makes one
 * narrowed view per distinct filter (its list rendered once), and a repeated
 * filter, however it is spelled, is a pure cache hit.
 */
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineExtension } from '../../contract/extension.js';
import { buildHost, type McpHost } from '../host.js';
import { silentLogger } from '../../kernel/logger.js';
import { parseSelection } from '../../selection/selection.js';
import { snapshotStats, statsSince, type HostStats } from '../../kernel/stats.js';
import { connect } from '../../testing/index.js';
import { defineTool } from '../../contract/tool.js';
import { MAX_VIEWS_PER_BLUEPRINT } from './toolView.js';
import { HOST_STATS } from '../internals.js';

function catalogue(count: number) {
  return defineExtension({
    manifest: { name: 'catalogue', version: '1.0.0' },
    tools: () =>
      Array.from({ length: count }, (_, i) =>
        defineTool({
          name: `tool_${i}`,
          description: `Tool number ${i}.`,
          inputSchema: z.object({ id: z.string() }),
          annotations: { readOnlyHint: i % 2 === 0 },
          handler: (args) => `${i}:${args.id}`,
        }),
      ),
  });
}

const delta = (host: McpHost, before: HostStats) => statsSince(before, host[HOST_STATS]);

describe.each([10, 1000])('tool filters at %i tools', (count) => {
  it('a first filter makes one view: no blueprint, no resolution, no conversion, one list render', async () => {
    const host = await buildHost([catalogue(count)], { logger: silentLogger });
    await host.build();
    const before = snapshotStats(host[HOST_STATS]);
    const built = await host.build(parseSelection('tools=tool_1,tool_2'));
    expect(built.toolNames).toEqual(['tool_1', 'tool_2']);
    expect(delta(host, before)).toEqual({ schemaConversions: 0, resolutions: 0, blueprints: 0, mints: 0, toolRegistrations: 0, listRenders: 1, views: 1, fastAnswers: 0, fetchRequests: 0, leanToolCalls: 0, leanDispatches: 0 });
  });

  it('the same filter in any spelling, form or order is a cache hit that makes nothing', async () => {
    const host = await buildHost([catalogue(count)], { logger: silentLogger });
    const first = await host.build(parseSelection('tools=tool_1,tool_2&readonly'));
    const before = snapshotStats(host[HOST_STATS]);
    for (const query of ['tools=tool_2,tool_1&readonly', 'readonly=yes&tools=tool_2&tools=tool_1', 'tools=tool_1+tool_2&readonly&catalogue']) {
      expect(await host.build(parseSelection(query))).toBe(first);
    }
    expect(delta(host, before)).toEqual({ schemaConversions: 0, resolutions: 0, blueprints: 0, mints: 0, toolRegistrations: 0, listRenders: 0, views: 0, fastAnswers: 0, fetchRequests: 0, leanToolCalls: 0, leanDispatches: 0 });
  });

  it('counts one view per distinct filter, on one blueprint', async () => {
    const host = await buildHost([catalogue(count)], { logger: silentLogger });
    await host.build();
    const before = snapshotStats(host[HOST_STATS]);
    const filters = ['tools=tool_0', 'tools=tool_1', 'exclude_tools=tool_0', 'readonly', 'readonly&exclude_tools=tool_0'];
    for (const query of filters) await host.build(parseSelection(query));
    for (const query of filters) await host.build(parseSelection(query));
    const d = delta(host, before);
    expect(d.blueprints).toBe(0);
    expect(d.views).toBe(filters.length);
    expect(d.schemaConversions + d.resolutions).toBe(0);
  });

  it('serves a filtered view to a real client: listing and calling convert and render nothing anew', async () => {
    const host = await buildHost([catalogue(count)], { logger: silentLogger });
    const warm = await connect(host, { selection: 'readonly' });
    await warm.toolNames();
    await warm.close();
    const before = snapshotStats(host[HOST_STATS]);
    const conn = await connect(host, { selection: 'readonly' });
    expect(await conn.toolNames()).toHaveLength(Math.ceil(count / 2));
    expect((await conn.callTool('tool_0', { id: 'x' })).content).toEqual([{ type: 'text', text: '0:x' }]);
    await conn.close();
    const d = delta(host, before);
    expect({ conversions: d.schemaConversions, renders: d.listRenders, views: d.views, blueprints: d.blueprints }).toEqual({ conversions: 0, renders: 0, views: 0, blueprints: 0 });
  });
});

describe('the views of one blueprint are bounded', () => {
  it('keeps at most MAX_VIEWS_PER_BLUEPRINT filters, least recently used first out', async () => {
    const host = await buildHost([catalogue(10)], { logger: silentLogger });
    for (let i = 0; i < MAX_VIEWS_PER_BLUEPRINT * 3; i++) await host.build(parseSelection(`tools=invented_${i}`));
    const before = snapshotStats(host[HOST_STATS]);
    await host.build(parseSelection(`tools=invented_${MAX_VIEWS_PER_BLUEPRINT * 3 - 1}`));
    expect(delta(host, before).views).toBe(0);
    await host.build(parseSelection('tools=invented_0'));
    expect(delta(host, before).views).toBe(1);
  });
});
