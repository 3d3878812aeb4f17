/**
 * Token counts in `describe()` (and so `/toolsets`): per toolset and for the
 * whole selection, from the rendered tools/list entries, counted once per
 * blueprint — a second describe of the same selection counts nothing again.
 */
import { describe, expect, it } from 'vitest';
import { buildHost, defineExtension, defineTool, parseSelection, silentLogger, type TokenCounter } from '../index.js';

/** A deterministic stand-in tokenizer: one token per 4 characters, and a tally of what it was asked. */
function quarterCounter(): TokenCounter & { calls: number } {
  return {
    name: 'test quarter-chars',
    calls: 0,
    count(text: string) {
      this.calls++;
      return Math.ceil(text.length / 4);
    },
  };
}

const spaces = defineExtension({
  manifest: { name: 'spaces', version: '1.0.0' },
  toolsets: () => [{ name: 'spaces' }, { name: 'library', default: false }],
  tools: () => [
    defineTool({ name: 'list_spaces', description: 'List the spaces.', handler: () => [] }),
    defineTool({ name: 'read_book', toolset: 'library', description: 'Read a book from the library, page by page.', handler: () => '' }),
  ],
});

describe('token counts', () => {
  it('counts each active toolset and the selection from the tools/list entries', async () => {
    const host = await buildHost([spaces], { logger: silentLogger, toolsetsTool: true });
    const counter = quarterCounter();
    const all = await host.describe(parseSelection('library'), { tokenCounter: counter });
    expect(all.tokens?.tokenizer).toBe('test quarter-chars');
    expect(Object.keys(all.tokens!.tools).sort()).toEqual(['list_server_toolsets', 'list_spaces', 'read_book']);
    expect(all.tokens!.toolsets).toEqual({ spaces: all.tokens!.tools['list_spaces'], library: all.tokens!.tools['read_book'] });
    // The host's own tool is in no toolset: it counts in the total only.
    expect(all.tokens!.total).toBe(Object.values(all.tokens!.tools).reduce((a, b) => a + b, 0));
    expect(all.tokens!.total).toBeGreaterThan(all.tokens!.toolsets['spaces']! + all.tokens!.toolsets['library']!);
    const fewer = await host.describe(parseSelection('only=spaces'), { tokenCounter: counter });
    expect(fewer.tokens!.total).toBeLessThan(all.tokens!.total);
    expect(fewer.tokens!.toolsets).toEqual({ spaces: all.tokens!.toolsets['spaces'] });
    await host.stop();
  });

  it('counts what a tool filter (tools=) leaves served, as tools/list answers it', async () => {
    const host = await buildHost([spaces], { logger: silentLogger, toolsetsTool: true });
    const counter = quarterCounter();
    const all = await host.describe(parseSelection('library'), { tokenCounter: counter });
    const narrowed = await host.describe(parseSelection('library&tools=read_book'), { tokenCounter: counter });
    // The host's own tool stays (a filter narrows the toolsets' tools); list_spaces is not served, so not counted.
    expect(narrowed.tools).toEqual(['list_server_toolsets', 'read_book']);
    expect(narrowed.tokens!.tools).toEqual({ list_server_toolsets: all.tokens!.tools['list_server_toolsets'], read_book: all.tokens!.tools['read_book'] });
    expect(narrowed.tokens!.toolsets).toEqual({ spaces: 0, library: all.tokens!.tools['read_book'] });
    expect(narrowed.tokens!.total).toBe(all.tokens!.tools['read_book']! + all.tokens!.tools['list_server_toolsets']!);
    await host.stop();
  });

  it('counts once per blueprint, never per request', async () => {
    const host = await buildHost([spaces], { logger: silentLogger });
    const counter = quarterCounter();
    await host.describe(parseSelection('library'), { tokenCounter: counter });
    const afterFirst = counter.calls;
    expect(afterFirst).toBe(2);
    for (let i = 0; i < 5; i++) await host.describe(parseSelection('toolsets=library'), { tokenCounter: counter });
    expect(counter.calls).toBe(afterFirst);
    // A new blueprint (the cache dropped) is counted afresh.
    host.forgetBuilt();
    await host.describe(parseSelection('library'), { tokenCounter: counter });
    expect(counter.calls).toBe(afterFirst * 2);
    await host.stop();
  });

  it('adds nothing without a counter, and answers copies a caller cannot change', async () => {
    const host = await buildHost([spaces], { logger: silentLogger });
    expect((await host.describe()).tokens).toBeUndefined();
    const counter = quarterCounter();
    const first = await host.describe(undefined, { tokenCounter: counter });
    first.tokens!.toolsets['spaces'] = -1;
    expect((await host.describe(undefined, { tokenCounter: counter })).tokens!.toolsets['spaces']).toBeGreaterThan(0);
    await host.stop();
  });
});
