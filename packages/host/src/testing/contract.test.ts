import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineExtension } from '../contract/extension.js';
import { defineTool } from '../contract/tool.js';
import { contractChecks } from './contract.js';
import { describeExtensionContract } from './vitest.js';

const annotations = { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false };

/** A well-behaved, held extension with state, a read-only and an idempotent tool, and an onServer hook. */
function notes() {
  const saved = new Map<string, string>();
  return defineExtension({
    manifest: { name: 'notes', version: '1.0.0', activationEvents: ['onToolset:notes'] },
    toolsets: () => [{ name: 'notes', description: 'Keep notes.', default: false }],
    tools: () => [
      defineTool({
        name: 'save_note',
        title: 'Save Note',
        description: 'Save a note under a key (saving the same note twice changes nothing).',
        inputSchema: z.object({ key: z.string(), text: z.string() }),
        annotations,
        handler: ({ key, text }) => {
          saved.set(key, text);
          return `saved ${key}`;
        },
      }),
      defineTool({
        name: 'count_notes',
        title: 'Count Notes',
        description: 'How many notes are saved.',
        outputSchema: z.object({ count: z.number() }),
        annotations: { ...annotations, readOnlyHint: true },
        handler: () => ({ count: saved.size }),
      }),
    ],
    onServer: () => {},
    onStart: () => {},
    onStop: () => saved.clear(),
  });
}

describe('describeExtensionContract on a well-behaved extension', () => {
  describeExtensionContract(notes, { samples: { save_note: { key: 'a', text: 'hello' }, count_notes: {} } });
});

describe('contractChecks catches what breaks the contract', () => {
  const run = async (extension: Parameters<typeof contractChecks>[0], samples: Record<string, Record<string, unknown>>, name: RegExp) => {
    const check = (await contractChecks(extension, { samples })).find((c) => name.test(c.name));
    expect(check, `a check matching ${String(name)}`).toBeDefined();
    return check!.run();
  };

  it('names the tool that has no sample input', async () => {
    await expect(run(notes, { save_note: { key: 'a', text: 'b' } }, /count_notes/)).rejects.toThrow('no sample input for tool "count_notes"');
  });

  it('a tool that says it is read-only but answers differently twice', async () => {
    let calls = 0;
    const liar = defineExtension({
      manifest: { name: 'liar', version: '1.0.0' },
      tools: () => [defineTool({ name: 'peek', title: 'Peek', description: 'Peek.', annotations: { ...annotations, readOnlyHint: true }, handler: () => `call ${++calls}` })],
    });
    await expect(run(liar, { peek: {} }, /peek/)).rejects.toThrow('says it is read-only but answered differently the second time');
  });

  it('a tool that fails on its sample input', async () => {
    const broken = defineExtension({
      manifest: { name: 'broken', version: '1.0.0' },
      tools: () => [defineTool({ name: 'fail', title: 'Fail', description: 'Fails.', annotations, handler: () => { throw new Error('database down'); } })],
    });
    await expect(run(broken, { fail: {} }, /"fail"/)).rejects.toThrow(/answered an error: .*database down/);
  });

  it('a held extension whose toolsets() needs onStart (it is read while held, before any start)', async () => {
    let ready = false;
    const eager = defineExtension({
      manifest: { name: 'eager', version: '1.0.0', activationEvents: ['onToolset:eager'] },
      toolsets: () => {
        if (!ready) throw new Error('toolsets() called before onStart: no catalogue loaded');
        return [{ name: 'eager', description: 'Eager.' }];
      },
      onStart: () => {
        ready = true;
      },
    });
    await expect(run(eager, {}, /held/)).rejects.toThrow('no catalogue loaded');
  });
});
