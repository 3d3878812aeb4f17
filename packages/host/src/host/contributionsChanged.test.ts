/**
 * An extension whose surface is not fixed (a proxied server that lists new
 * tools, a catalogue that grows) keeps the context `onStart` gives it and calls
 * `contributionsChanged()`: the host reads its contributions again, all or
 * nothing, and what it serves from then on follows.
 */
import { describe, expect, it } from 'vitest';
import { ErrorCodes } from '../kernel/errors.js';
import { defineExtension, type ExtensionStartContext } from '../contract/extension.js';
import { buildHost } from './host.js';
import { silentLogger } from '../kernel/logger.js';
import { parseSelection } from '../selection/selection.js';
import { defineTool } from '../contract/tool.js';

const tool = (name: string) => defineTool({ name, description: `The ${name} tool.`, handler: () => name });

/** An extension serving whatever `names` holds, keeping its start context. */
function growing(names: string[]) {
  const started: ExtensionStartContext[] = [];
  let broken = false;
  const extension = defineExtension({
    manifest: { name: 'growing', version: '1.0.0' },
    tools: () => {
      if (broken) throw new Error('the upstream answered garbage');
      return names.map(tool);
    },
    onStart(context) {
      started.push(context);
    },
  });
  return { extension, started, breakNextRead: () => (broken = true) };
}

const served = async (host: Awaited<ReturnType<typeof buildHost>>) => [...(await host.build(parseSelection(''))).toolNames].sort();

describe('contributionsChanged()', () => {
  it('re-reads the extension: new builds serve its new tools, and listeners hear a surface change', async () => {
    const names = ['alpha'];
    const { extension, started } = growing(names);
    const host = await buildHost([extension], { logger: silentLogger });
    expect(await served(host)).toEqual(['alpha']);
    const changes: string[] = [];
    host.onChange((change) => changes.push(change.kind));
    const revision = host.revision;

    names.push('beta');
    expect(await served(host)).toEqual(['alpha']); // read once, at activation: nothing changes by itself
    expect(started[0]!.contributionsChanged()).toBe(true);
    expect(await served(host)).toEqual(['alpha', 'beta']);
    expect(host.revision).toBe(revision + 1);
    expect(changes).toEqual(['surface']);
    await host.stop();
  });

  it('keeps what is served, and reports why, when the re-read throws', async () => {
    const { extension, started, breakNextRead } = growing(['alpha']);
    const host = await buildHost([extension], { logger: silentLogger });
    breakNextRead();
    expect(started[0]!.contributionsChanged()).toBe(false);
    expect(await served(host)).toEqual(['alpha']);
    const problem = host.report().problems.find((p) => p.extension === 'growing');
    expect(problem).toMatchObject({ code: ErrorCodes.CONTRIBUTION_FAILED });
    expect(problem?.message).toContain('the upstream answered garbage');
    await host.stop();
  });

  it('is dead once the extension stopped: a kept context cannot change a stopped host', async () => {
    const names = ['alpha'];
    const { extension, started } = growing(names);
    const host = await buildHost([extension], { logger: silentLogger });
    await host.stop();
    names.push('beta');
    expect(started[0]!.contributionsChanged()).toBe(false);
  });
});
