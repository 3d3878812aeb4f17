/**
 * An awake extension that cannot serve (nothing configured, nothing
 * installed) stays listed; `describe()` says why per toolset and `report()`
 * (hence `/healthz`) per extension, without counting it as a failure.
 */
import { describe, expect, it } from 'vitest';
import { defineExtension, type McpExtension } from './extension.js';
import { buildHost } from '../host/host.js';
import { silentLogger } from '../kernel/logger.js';
import { parseSelection } from '../selection/selection.js';
import { unavailableOf } from './availability.js';

function lab(available: () => boolean): McpExtension {
  return defineExtension({
    manifest: { name: 'lab', version: '1.0.0', activationEvents: ['onToolset:lab'] },
    toolsets: () => [{ name: 'lab', description: 'Run things.', default: false }],
    // Its tools follow its availability: none offered while it cannot serve.
    tools: () => (available() ? [{ name: 'run', description: 'Run.', inputSchema: {}, handler: () => 'ran' }] : []),
    availability: () => (available() ? { available: true } : { available: false, reason: 'no lab server is configured', hint: 'set LAB_URL' }),
  });
}

describe('availability', () => {
  it('lists the toolset of an unavailable extension with its reason and hint, and offers none of its tools', async () => {
    const host = await buildHost([lab(() => false)], { strict: true, logger: silentLogger });
    const description = await host.describe(parseSelection('lab'));
    expect(description.toolsets).toEqual([
      { name: 'lab', title: 'lab', description: 'Run things.', default: false, always: false, active: true, unavailable: { extension: 'lab', reason: 'no lab server is configured', hint: 'set LAB_URL' } },
    ]);
    expect(description.tools).toEqual([]);
    const report = host.report();
    expect(report.ok).toBe(true);
    expect(report.extensions[0]).toMatchObject({ name: 'lab', state: 'active', unavailable: { reason: 'no lab server is configured', hint: 'set LAB_URL' } });
    await host.stop();
  });

  it('says nothing for a held extension (it has not been asked) nor for an available one', async () => {
    const host = await buildHost([lab(() => true)], { strict: true, logger: silentLogger });
    expect(host.report().extensions[0]).not.toHaveProperty('unavailable');
    const description = await host.describe(parseSelection('lab'));
    expect(description.toolsets[0]).not.toHaveProperty('unavailable');
    expect(description.tools).toEqual(['run']);
    await host.stop();
  });

  it('treats a throwing availability() as unavailable, naming the error', () => {
    const ext = defineExtension({ manifest: { name: 'x', version: '1.0.0' }, availability: () => { throw new Error('boom'); } });
    expect(unavailableOf(ext)).toEqual({ reason: 'availability() threw (boom)' });
    expect(unavailableOf(defineExtension({ manifest: { name: 'y', version: '1.0.0' } }))).toBeUndefined();
  });
});
