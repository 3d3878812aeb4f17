import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ErrorCodes, isReactorError, type ReactorError } from '../kernel/errors.js';
import { testContext } from '../testing/index.js';
import type { ToolSpec } from './tool.js';
import { applicationOrder, applyToolExtensions, type AnyToolHandler, type ExtensionOfTool, type ToolExtension } from './toolExtension.js';

type Spec = ToolSpec<Record<string, unknown>>;

const base = (): Spec => ({
  name: 'launch_sandbox',
  title: 'Launch Sandbox',
  description: 'Launch a sandbox.',
  inputSchema: z.object({ sandboxName: z.string(), variant: z.string() }),
  annotations: { readOnlyHint: false, destructiveHint: false, openWorldHint: true },
  toolset: 'sandboxes',
  meta: { 'acme/owner': 'sandboxes', 'acme/ui': 'form' },
  handler: (args) => ({ launched: args.sandboxName, variant: args.variant }),
});

let registration = 0;
/** A tool extension as the host stores it: who offered it and their registration index. */
const ext = (extension: string, toolExtension: ToolExtension, registrationIndex = registration++): ExtensionOfTool => ({
  extension,
  registrationIndex,
  toolExtension,
});

/** What applying `extensions` to `spec` threw, asserting it was a ReactorError. */
function failure(spec: Spec, extensions: ExtensionOfTool[]): ReactorError {
  try {
    applyToolExtensions(spec, extensions);
  } catch (error) {
    if (isReactorError(error)) return error;
    throw new Error(`expected a ReactorError, got ${String(error)}`, { cause: error });
  }
  throw new Error('expected a ReactorError, nothing was thrown');
}

const ctx = testContext({ extension: 'sandboxes' });

describe('applicationOrder', () => {
  it('sorts by order, lower first', () => {
    const sorted = applicationOrder([ext('late', { order: 10 }, 0), ext('early', { order: -5 }, 1), ext('default', {}, 2)]);
    expect(sorted.map((e) => e.extension)).toEqual(['early', 'default', 'late']);
  });

  it('breaks ties by registration index, whatever order they arrive in', () => {
    const a = ext('a', {}, 0);
    const b = ext('b', {}, 1);
    const c = ext('c', { order: 0 }, 2);
    expect(applicationOrder([c, a, b]).map((e) => e.extension)).toEqual(['a', 'b', 'c']);
    expect(applicationOrder([b, c, a]).map((e) => e.extension)).toEqual(['a', 'b', 'c']);
  });

  it('treats a missing order as 0', () => {
    expect(applicationOrder([ext('one', { order: 1 }, 0), ext('none', {}, 1)]).map((e) => e.extension)).toEqual(['none', 'one']);
  });

  it('does not reorder the list it was given', () => {
    const list = [ext('b', { order: 1 }, 0), ext('a', { order: 0 }, 1)];
    applicationOrder(list);
    expect(list.map((e) => e.extension)).toEqual(['b', 'a']);
  });
});

describe('applyToolExtensions', () => {
  it('returns the spec unchanged in content when there is nothing to apply', () => {
    const spec = base();
    expect(applyToolExtensions(spec, [])).toEqual(spec);
  });

  it('does not modify the original spec', () => {
    const spec = base();
    const before = { ...spec };
    applyToolExtensions(spec, [ext('audit', { title: 'Audited', meta: { x: 1 }, wrap: (original) => original })]);
    expect(spec).toEqual(before);
  });

  describe('wrap', () => {
    it('makes the returned function the handler, which may call the original', async () => {
      const extended = applyToolExtensions(base(), [
        ext('audit', { wrap: (original) => async (args, c) => ({ audited: true, result: await original(args, c) }) }),
      ]);
      expect(await extended.handler({ sandboxName: 'a', variant: 'v' }, ctx)).toEqual({ audited: true, result: { launched: 'a', variant: 'v' } });
    });

    it('may replace the handler, ignoring the original', async () => {
      let originalCalled = false;
      const spec: Spec = { ...base(), handler: () => (originalCalled = true) };
      const extended = applyToolExtensions(spec, [ext('stub', { wrap: () => () => 'stubbed' })]);
      expect(await extended.handler({}, ctx)).toBe('stubbed');
      expect(originalCalled).toBe(false);
    });

    it('passes the context through to the original unchanged', async () => {
      let seen: unknown;
      const spec = { ...base(), handler: (_args: Record<string, unknown>, c: unknown) => (seen = c) };
      const extended = applyToolExtensions(spec, [ext('audit', { wrap: (original) => (args, c) => original(args, c) })]);
      await extended.handler({}, ctx);
      expect(seen).toBe(ctx);
    });

    it('lets a narrowing wrapper fill an argument in, removing it from the input schema', async () => {
      const narrowed = applyToolExtensions(base(), [
        ext('tenant-sandbox', {
          inputSchema: z.object({ sandboxName: z.string() }),
          wrap: (original) => (args, c) => original({ ...args, variant: 'tenant-default' }, c),
        }),
      ]);
      const shape = (narrowed.inputSchema as z.ZodObject).shape;
      expect(Object.keys(shape)).toEqual(['sandboxName']);
      expect(await narrowed.handler({ sandboxName: 'a' }, ctx)).toEqual({ launched: 'a', variant: 'tenant-default' });
    });

    it('makes the last applied the outermost: its code runs first at call time', async () => {
      const calls: string[] = [];
      const recorder =
        (label: string) =>
        (original: AnyToolHandler): AnyToolHandler =>
        async (args, c) => {
          calls.push(`${label}:before`);
          const result = await original(args, c);
          calls.push(`${label}:after`);
          return result;
        };
      const spec: Spec = { ...base(), handler: () => calls.push('original') };
      const extended = applyToolExtensions(spec, [
        ext('b', { wrap: recorder('b') }, 1),
        ext('a', { wrap: recorder('a') }, 0),
        ext('z', { wrap: recorder('z'), order: -1 }, 2),
      ]);
      await extended.handler({}, ctx);
      // Applied z (order -1), then a, then b: b is outermost.
      expect(calls).toEqual(['b:before', 'a:before', 'z:before', 'original', 'z:after', 'a:after', 'b:after']);
    });

    it('is called once, when the extension is applied, with the handler as extended so far', () => {
      const seen: AnyToolHandler[] = [];
      const spec = base();
      const first: AnyToolHandler = () => 'first';
      applyToolExtensions(spec, [
        ext('one', { wrap: () => first }, 0),
        ext('two', { wrap: (original) => (seen.push(original), original) }, 1),
      ]);
      expect(seen).toEqual([first]);
    });
  });

  describe('texts, annotations and meta', () => {
    it('replaces title and description; left undefined, they are kept', () => {
      const renamed = applyToolExtensions(base(), [ext('brand', { title: 'Start a Sandbox', description: 'Start one.' })]);
      expect(renamed).toMatchObject({ title: 'Start a Sandbox', description: 'Start one.' });
      const kept = applyToolExtensions(base(), [ext('noop', { title: undefined, description: undefined })]);
      expect(kept).toMatchObject({ title: 'Launch Sandbox', description: 'Launch a sandbox.' });
    });

    it('gives the last applied the last word on title, description and annotations', () => {
      const extended = applyToolExtensions(base(), [
        ext('later', { title: 'Later', description: 'later', annotations: { readOnlyHint: true } }, 1),
        ext('earlier', { title: 'Earlier', description: 'earlier', annotations: { idempotentHint: true } }, 0),
      ]);
      expect(extended).toMatchObject({ title: 'Later', description: 'later' });
      expect(extended.annotations).toEqual({ readOnlyHint: true });
    });

    it('replaces annotations whole, never merging them', () => {
      const extended = applyToolExtensions(base(), [ext('guard', { annotations: { readOnlyHint: true } })]);
      expect(extended.annotations).toEqual({ readOnlyHint: true });
    });

    it('shallow-merges meta over the tool\'s own, the extension winning', () => {
      const extended = applyToolExtensions(base(), [ext('ui', { meta: { 'acme/ui': 'wizard', 'acme/audit': true } })]);
      expect(extended.meta).toEqual({ 'acme/owner': 'sandboxes', 'acme/ui': 'wizard', 'acme/audit': true });
    });

    it('merges meta shallowly: a nested object is replaced, not merged', () => {
      const spec = { ...base(), meta: { ui: { kind: 'form', size: 'large' } } };
      const extended = applyToolExtensions(spec, [ext('ui', { meta: { ui: { kind: 'wizard' } } })]);
      expect(extended.meta).toEqual({ ui: { kind: 'wizard' } });
    });

    it('gives a tool without meta the extension\'s meta', () => {
      const { meta: _meta, ...withoutMeta } = base();
      expect(applyToolExtensions<Spec>(withoutMeta, [ext('ui', { meta: { a: 1 } })]).meta).toEqual({ a: 1 });
    });
  });

  describe('schemas', () => {
    it('replaces the input and output schemas', () => {
      const input = z.object({ sandboxName: z.string() });
      const output = { type: 'object', properties: { launched: { type: 'string' } } };
      const extended = applyToolExtensions(base(), [ext('narrow', { inputSchema: input, outputSchema: output })]);
      expect(extended.inputSchema).toBe(input);
      expect(extended.outputSchema).toBe(output);
    });

    it('keeps the schemas when the extension gives none', () => {
      const spec = base();
      expect(applyToolExtensions(spec, [ext('audit', { title: 'x' })]).inputSchema).toBe(spec.inputSchema);
    });
  });

  describe('deriving the description and the output schema from the original', () => {
    const output = z.object({ launched: z.string(), variant: z.string(), truncated: z.boolean() });
    const withOutput = (): Spec => ({ ...base(), outputSchema: output });

    it('passes the description as the extensions before left it, and uses what the function returns', () => {
      const seen: string[] = [];
      const extended = applyToolExtensions(base(), [
        ext('first', { description: 'Launch a sandbox (pooled).' }, 0),
        ext('second', { description: (original) => (seen.push(original), `${original} Sandboxes are culled after an hour.`) }, 1),
      ]);
      expect(seen).toEqual(['Launch a sandbox (pooled).']);
      expect(extended.description).toBe('Launch a sandbox (pooled). Sandboxes are culled after an hour.');
    });

    it('extends the original output schema rather than retyping it: its fields, required ones and all, are kept', () => {
      const extended = applyToolExtensions(withOutput(), [
        ext('audit', { outputSchema: (original) => (original as typeof output).extend({ auditId: z.string().optional() }) }),
      ]);
      const derived = extended.outputSchema as z.ZodObject;
      expect(Object.keys(derived.shape)).toEqual(['launched', 'variant', 'truncated', 'auditId']);
      expect(derived.safeParse({ launched: 'a', variant: 'b', truncated: false }).success).toBe(true);
      expect(derived.safeParse({ launched: 'a', variant: 'b' }).success).toBe(false); // truncated is still required
      expect(withOutput().outputSchema).toBe(output); // the original is untouched
    });

    it('hands a tool without an output schema undefined, and may give it one', () => {
      const seen: unknown[] = [];
      const extended = applyToolExtensions(base(), [ext('typed', { outputSchema: (original) => (seen.push(original), output) })]);
      expect(seen).toEqual([undefined]);
      expect(extended.outputSchema).toBe(output);
    });

    it('still takes a Standard Schema that is itself a function (arktype\'s are) as a plain value', () => {
      const callable = Object.assign(() => undefined, { '~standard': { version: 1 as const, vendor: 'callable', validate: (value: unknown) => ({ value }) } });
      const extended = applyToolExtensions(withOutput(), [ext('callable', { outputSchema: callable })]);
      expect(extended.outputSchema).toBe(callable);
    });

    it.each([
      ['a description function returns an empty string', { description: () => '' }, 'description'],
      ['a description function returns a non-string', { description: () => 42 as unknown as string }, 'description'],
      ['an output schema function returns a non-schema', { outputSchema: () => 'loose' as never }, 'outputSchema'],
      [
        'a deriving function throws',
        {
          outputSchema: () => {
            throw new Error('no schema today');
          },
        },
        'no schema today',
      ],
    ])('fails closed when %s', (_label, toolExtension, mentioned) => {
      const error = failure(withOutput(), [ext('deriver', toolExtension)]);
      expect(error.code).toBe(ErrorCodes.TOOL_EXTENSION_FAILED);
      expect(error.extension).toBe('deriver');
      expect(error.message).toContain(mentioned);
    });
  });

  describe('name and toolset can never change', () => {
    it('ignores an extension object that tries to set them', () => {
      const sneaky = { name: 'renamed_tool', toolset: 'elsewhere', title: 'T' } as unknown as ToolExtension;
      const extended = applyToolExtensions(base(), [ext('sneaky', sneaky)]);
      expect(extended.name).toBe('launch_sandbox');
      expect(extended.toolset).toBe('sandboxes');
      expect(extended.title).toBe('T');
    });

    it('does not give a tool without a toolset one', () => {
      const { toolset: _toolset, ...withoutToolset } = base();
      const extended = applyToolExtensions(withoutToolset, [ext('sneaky', { toolset: 'elsewhere' } as unknown as ToolExtension)]);
      expect(extended).not.toHaveProperty('toolset');
    });
  });

  describe('fails closed', () => {
    it.each([
      ['wrap returns undefined', { wrap: () => undefined as unknown as AnyToolHandler }],
      ['wrap returns an object', { wrap: () => ({ handler: () => 1 }) as unknown as AnyToolHandler }],
      ['wrap is not a function', { wrap: 'original' } as unknown as ToolExtension],
      [
        'wrap throws',
        {
          wrap: () => {
            throw new Error('no licence');
          },
        },
      ],
    ])('when %s: REACTOR_TOOL_EXTENSION_FAILED naming the tool and the extension', (_label, toolExtension) => {
      const error = failure(base(), [ext('guard', toolExtension)]);
      expect(error.code).toBe(ErrorCodes.TOOL_EXTENSION_FAILED);
      expect(error.extension).toBe('guard');
      expect(error.message).toContain('tool "launch_sandbox"');
      expect(error.message).toContain('extension "guard"');
      expect(error.message).toContain('left out');
    });

    it('carries what the extension threw, as message and cause', () => {
      const thrown = new Error('no licence');
      const error = failure(base(), [
        ext('guard', {
          wrap: () => {
            throw thrown;
          },
        }),
      ]);
      expect(error.message).toContain('no licence');
      expect(error.cause).toBe(thrown);
    });

    it('names the extension that failed among several', () => {
      const error = failure(base(), [ext('fine', { title: 'Fine' }, 0), ext('broken', { wrap: () => null as unknown as AnyToolHandler }, 1), ext('after', {}, 2)]);
      expect(error.extension).toBe('broken');
      expect(error.message).toContain('returned null');
    });
  });
});
