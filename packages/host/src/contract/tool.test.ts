import { describe, expect, expectTypeOf, it } from 'vitest';
import { z } from 'zod';
import { ErrorCodes, isReactorError, type ReactorError } from '../kernel/errors.js';
import { inputRequired } from './inputRequired.js';
import { testContext } from '../testing/index.js';
import {
  assertValidToolSpec,
  defineTool,
  isCallToolResult,
  TOOL_NAME_PATTERN,
  toCallToolResult,
  toolErrorResult,
  type CallToolResult,
  type StructuredContentOf,
  type ToolResultOf,
  type ToolSpec,
} from './tool.js';

/** What `fn` threw, asserting it was a ReactorError. */
function thrown(fn: () => unknown): ReactorError {
  try {
    fn();
  } catch (error) {
    if (isReactorError(error)) return error;
    throw new Error(`expected a ReactorError, got ${String(error)}`, { cause: error });
  }
  throw new Error('expected a ReactorError, nothing was thrown');
}

const valid = { name: 'list_spaces', description: 'List the spaces.', handler: () => 'ok' };

/** Any value in place of one field of an otherwise valid spec (the type system would refuse most of them). */
const withField = (field: string, value: unknown) => ({ ...valid, [field]: value }) as unknown as ToolSpec<unknown>;

describe('defineTool', () => {
  it('returns the very definition it was given', () => {
    const definition = { ...valid };
    expect(defineTool(definition)).toBe(definition);
  });

  it('keeps the handler an ordinary function a test calls without any server', () => {
    const launchSandbox = defineTool({
      name: 'launch_sandbox',
      title: 'Launch Sandbox',
      description: 'Launch a sandbox for this session to run code in.',
      inputSchema: z.object({ sandboxName: z.string(), variant: z.string().default('eval') }),
      handler: (args, ctx) => ({ sandbox: args.sandboxName, variant: args.variant, by: ctx.extension }),
    });
    const ctx = testContext({ extension: 'sandboxes' });
    expect(launchSandbox.handler({ sandboxName: 'a', variant: 'b' }, ctx)).toEqual({ sandbox: 'a', variant: 'b', by: 'sandboxes' });
  });

  describe('infers the handler\'s arguments (type level)', () => {
    it('from a zod object, defaults applied (output type)', () => {
      const tool = defineTool({
        name: 'launch_sandbox',
        description: 'd',
        inputSchema: z.object({ sandboxName: z.string(), variant: z.string().default('eval') }),
        handler: (args) => {
          expectTypeOf(args).toEqualTypeOf<{ sandboxName: string; variant: string }>();
          return args.sandboxName;
        },
      });
      expectTypeOf(tool.handler).parameter(0).toEqualTypeOf<{ sandboxName: string; variant: string }>();
    });

    it('from a zod raw shape', () => {
      const tool = defineTool({
        name: 'search',
        description: 'd',
        inputSchema: { query: z.string(), limit: z.number().optional() },
        handler: (args) => {
          expectTypeOf(args.query).toEqualTypeOf<string>();
          expectTypeOf(args.limit).toEqualTypeOf<number | undefined>();
          return args.query;
        },
      });
      expectTypeOf(tool.handler).parameter(0).toHaveProperty('query').toEqualTypeOf<string>();
    });

    it('as a plain record from a JSON Schema or without a schema', () => {
      defineTool({
        name: 'generated',
        description: 'd',
        inputSchema: { type: 'object', properties: { q: { type: 'string' } } },
        handler: (args) => {
          expectTypeOf(args).toEqualTypeOf<Record<string, unknown>>();
        },
      });
      defineTool({
        name: 'no_args',
        description: 'd',
        handler: (args) => {
          expectTypeOf(args).toEqualTypeOf<Record<string, unknown>>();
        },
      });
    });

    it('refuses a handler reading an argument the schema does not have', () => {
      defineTool({
        name: 't',
        description: 'd',
        inputSchema: z.object({ a: z.string() }),
        handler: (args) => {
          // @ts-expect-error `b` is not in the schema
          const b: unknown = args.b;
          return b;
        },
      });
    });
  });

  describe('keeps the handler\'s result type (type level)', () => {
    it('so a test or a wrapping extension reads a typed result without casting', async () => {
      const readFile = defineTool({
        name: 'read_file',
        description: 'd',
        inputSchema: z.object({ path: z.string() }),
        handler: (args) => Promise.resolve({ path: args.path, text: 'hello', nextOffset: null as number | null }),
      });
      expectTypeOf(readFile.handler).returns.resolves.toEqualTypeOf<{ path: string; text: string; nextOffset: number | null }>();
      expectTypeOf<ToolResultOf<typeof readFile>>().toEqualTypeOf<{ path: string; text: string; nextOffset: number | null }>();
      const result = await readFile.handler({ path: 'a.md' }, testContext());
      expectTypeOf(result.text).toEqualTypeOf<string>();
      expect(result).toEqual({ path: 'a.md', text: 'hello', nextOffset: null });
    });

    it('for a synchronous handler, and one without an input schema', () => {
      const ping = defineTool({ name: 'ping', description: 'd', handler: () => 'pong' as const });
      expectTypeOf(ping.handler).returns.toEqualTypeOf<'pong'>();
      expectTypeOf<ToolResultOf<typeof ping>>().toEqualTypeOf<'pong'>();
    });

    it('and the structured content\'s type where an output schema is given', () => {
      const output = z.object({ total: z.number(), items: z.array(z.string()) });
      const list = defineTool({
        name: 'list_items',
        description: 'd',
        inputSchema: { prefix: z.string() },
        outputSchema: output,
        handler: (args) => ({ total: 1, items: [args.prefix] }),
      });
      expectTypeOf<StructuredContentOf<typeof list>>().toEqualTypeOf<{ total: number; items: string[] }>();
      expectTypeOf(list.outputSchema).toEqualTypeOf<typeof output | undefined>();
      const _shaped = defineTool({ name: 'shaped', description: 'd', outputSchema: { n: z.number() }, handler: () => ({ n: 1 }) });
      expectTypeOf<StructuredContentOf<typeof _shaped>>().toEqualTypeOf<{ n: number }>();
      // A spec typed without an output schema has no structured content; one whose type does not say has a plain record.
      expectTypeOf<StructuredContentOf<ToolSpec<{ a: string }, number, undefined>>>().toBeNever();
      expectTypeOf<StructuredContentOf<ToolSpec>>().toEqualTypeOf<Record<string, unknown>>();
    });

    it('while every existing way of calling it still compiles', () => {
      const schema = z.object({ a: z.string() });
      // An explicit schema type argument, as callers wrote before: the result is then unknown, as it was.
      const explicit = defineTool<typeof schema>({ name: 'explicit', description: 'd', inputSchema: schema, outputSchema: z.object({ b: z.string() }), handler: (args) => ({ b: args.a }) });
      expectTypeOf(explicit).toExtend<ToolSpec<{ a: string }>>();
      expectTypeOf(explicit.handler).returns.toEqualTypeOf<unknown>();
      // A typed tool still goes wherever a ToolSpec does.
      const typed = defineTool({ name: 'typed', description: 'd', inputSchema: schema, handler: () => Promise.resolve(1) });
      const specs: ToolSpec<never>[] = [typed, explicit];
      const plainSpec: ToolSpec<{ a: string }> = typed;
      expect(specs.length + (plainSpec === typed ? 1 : 0)).toBe(3);
    });
  });

  describe('tool names (SEP-986: [A-Za-z0-9._-]{1,128})', () => {
    it.each([
      ['snake_case', 'list_spaces'],
      ['dots and dashes', 'spaces.list-all'],
      ['mixed case and digits', 'List2Spaces'],
      ['one character', 'a'],
      ['128 characters', 'a'.repeat(128)],
    ])('accepts %s', (_label, name) => {
      expect(TOOL_NAME_PATTERN.test(name)).toBe(true);
      expect(() => defineTool({ ...valid, name })).not.toThrow();
    });

    it.each([
      ['129 characters', 'a'.repeat(129)],
      ['a space', 'list spaces'],
      ['a slash', 'spaces/list'],
      ['the empty string', ''],
      ['non-ASCII letters', 'café'],
      ['an emoji', 'rocket_🚀'],
      ['a trailing newline', 'list_spaces\n'],
      ['a colon', 'spaces:list'],
    ])('rejects %s with REACTOR_TOOL_INVALID naming the tool', (_label, name) => {
      const error = thrown(() => defineTool({ ...valid, name }));
      expect(error.code).toBe(ErrorCodes.TOOL_INVALID);
      expect(error.message).toContain('has an invalid name');
      expect(error.message).toContain('SEP-986');
    });

    it('names the tool in the message', () => {
      expect(thrown(() => defineTool({ ...valid, name: 'list spaces' })).message).toMatch(/^tool "list spaces": has an invalid name/);
    });

    it('rejects a name that is not a string', () => {
      const error = thrown(() => defineTool(withField('name', 42) as never));
      expect(error.code).toBe(ErrorCodes.TOOL_INVALID);
      expect(error.message).toContain('tool (unnamed)');
      expect(error.received).toBe('the number 42');
    });
  });

  describe('other fields', () => {
    it.each([
      ['a missing description', 'description', undefined, 'has no description'],
      ['an empty description', 'description', '', 'has no description'],
      ['a blank description', 'description', '  \n ', 'has no description'],
      ['a description that is not a string', 'description', 42, 'has no description'],
      ['a missing handler', 'handler', undefined, 'has no handler'],
      ['a handler that is not a function', 'handler', 'run', 'has no handler'],
      ['an inputSchema that is a string', 'inputSchema', 'object', 'has an invalid inputSchema'],
      ['an inputSchema that is an array', 'inputSchema', [z.string()], 'has an invalid inputSchema'],
      ['an outputSchema that is a number', 'outputSchema', 1, 'has an invalid outputSchema'],
      // MCP requires `type: "object"` at the top of both schemas; a client rejects the whole `tools/list` otherwise.
      ['an inputSchema JSON Schema that is not of type object', 'inputSchema', { type: 'string' }, 'has an invalid inputSchema'],
      ['an outputSchema JSON Schema that is not of type object', 'outputSchema', { type: 'array', items: {} }, 'has an invalid outputSchema'],
      ['a raw shape mixing schemas and other values', 'inputSchema', { query: z.string(), limit: 10 }, 'has an invalid inputSchema'],
      ['an empty toolset', 'toolset', '', 'has an invalid toolset'],
      ['a toolset that is not a string', 'toolset', ['a'], 'has an invalid toolset'],
      ['a timeoutMs of 0', 'timeoutMs', 0, 'has an invalid timeoutMs'],
      ['a negative timeoutMs', 'timeoutMs', -5, 'has an invalid timeoutMs'],
      ['a NaN timeoutMs', 'timeoutMs', Number.NaN, 'has an invalid timeoutMs'],
      ['a timeoutMs given as a string', 'timeoutMs', '1000', 'has an invalid timeoutMs'],
      // Node fires a timer of more than 2^31-1 ms (or Infinity) after 1 ms: every call would time out at once.
      ['an Infinity timeoutMs', 'timeoutMs', Number.POSITIVE_INFINITY, 'has an invalid timeoutMs'],
      ['a timeoutMs beyond what a timer can wait (2^31 ms)', 'timeoutMs', 2 ** 31, 'has an invalid timeoutMs'],
      // Task support is one of three words; `true` (FastMCP's spelling) would silently mean nothing.
      ['a task support of true', 'task', true, 'has an invalid task'],
      ['a task support that is not one of none/optional/required', 'task', 'always', 'has an invalid task'],
    ])('rejects %s with REACTOR_TOOL_INVALID naming the tool', (_label, field, value, problem) => {
      const error = thrown(() => defineTool(withField(field, value) as never));
      expect(error.code).toBe(ErrorCodes.TOOL_INVALID);
      expect(error.message).toContain(`tool "list_spaces": ${problem}`);
      expect(error.expected).toBeTruthy();
      expect(error.hint).toBeTruthy();
    });

    it('describes what it received without dumping it', () => {
      const error = thrown(() => defineTool(withField('handler', { secret: 'token' }) as never));
      expect(error.received).toBe('an object');
      expect(error.message).not.toContain('token');
    });

    it('accepts a full spec', () => {
      expect(() =>
        defineTool({
          ...valid,
          title: 'List spaces',
          inputSchema: { type: 'object', properties: {} },
          outputSchema: z.object({ spaces: z.array(z.string()) }),
          annotations: { readOnlyHint: true },
          toolset: 'spaces',
          meta: { 'acme/ui': 'table' },
          timeoutMs: 1500,
          task: 'optional',
          icons: [{ src: 'https://example.com/icon.png' }],
        }),
      ).not.toThrow();
    });
  });

  it('accepts an empty raw shape for a tool that takes no arguments', () => {
    expect(() => defineTool({ ...valid, inputSchema: {} })).not.toThrow();
  });

  it('rejects a value that is not a spec at all', () => {
    const error = thrown(() => assertValidToolSpec(null as never));
    expect(error.code).toBe(ErrorCodes.TOOL_INVALID);
    expect(error.message).toContain('is not a tool spec');
  });

  it('names the extension when the host checks a spec built without defineTool', () => {
    const error = thrown(() => assertValidToolSpec(withField('description', ''), 'spaces'));
    expect(error.message).toMatch(/^tool "list_spaces" of extension "spaces": has no description/);
    expect(error.extension).toBe('spaces');
  });
});

describe('toCallToolResult (what a handler returned, converted after the outermost wrapper)', () => {
  it('passes a CallToolResult through as is', () => {
    const result: CallToolResult = {
      content: [{ type: 'text', text: 'done' }],
      structuredContent: { a: 1 },
      isError: false,
      _meta: { x: 1 },
    };
    expect(toCallToolResult(result, true)).toBe(result);
    expect(toCallToolResult(result, false)).toBe(result);
  });

  it('passes an input-required result (2026-07-28) through unchanged: it has no content and is not JSON to show', () => {
    const asking = inputRequired({ inputRequests: { roots: inputRequired.listRoots() }, requestState: 'r1' });
    expect(toCallToolResult(asking, true)).toBe(asking);
  });

  it('passes an error result through as is', () => {
    const result = toolErrorResult('no such space');
    expect(toCallToolResult(result, false)).toBe(result);
  });

  it('makes a string one text item', () => {
    expect(toCallToolResult('hello', false)).toEqual({ content: [{ type: 'text', text: 'hello' }] });
    expect(toCallToolResult('', true)).toEqual({ content: [{ type: 'text', text: '' }] });
  });

  it('makes undefined an empty content list', () => {
    expect(toCallToolResult(undefined, false)).toEqual({ content: [] });
    expect(toCallToolResult(undefined, true)).toEqual({ content: [] });
  });

  it('makes an object a JSON text item, without structuredContent when the tool has no outputSchema', () => {
    expect(toCallToolResult({ sandbox: 'a', n: 1 }, false)).toEqual({ content: [{ type: 'text', text: '{"sandbox":"a","n":1}' }] });
  });

  it('adds an object as structuredContent when the tool has an outputSchema', () => {
    const value = { sandbox: 'a', nested: { n: 1 } };
    const result = toCallToolResult(value, true);
    expect(result.content).toEqual([{ type: 'text', text: JSON.stringify(value) }]);
    expect(result.structuredContent).toEqual(value);
  });

  it.each([
    ['a number', 42, '42'],
    ['a boolean', true, 'true'],
    ['null', null, 'null'],
    ['an array', [1, 'a'], '[1,"a"]'],
  ])('makes %s a JSON text item, never structuredContent (which must be an object)', (_label, value, text) => {
    const result = toCallToolResult(value, true);
    expect(result).toEqual({ content: [{ type: 'text', text }] });
    expect(result).not.toHaveProperty('structuredContent');
  });

  it('renders BigInt, Map and Set readably instead of throwing', () => {
    expect(toCallToolResult({ big: 10n }, false).content).toEqual([{ type: 'text', text: '{"big":"10"}' }]);
    expect(toCallToolResult({ map: new Map([['k', 1]]) }, false).content).toEqual([{ type: 'text', text: '{"map":{"k":1}}' }]);
    expect(toCallToolResult({ set: new Set(['x', 'y']) }, false).content).toEqual([{ type: 'text', text: '{"set":["x","y"]}' }]);
    expect(() => toCallToolResult(10n, false)).not.toThrow();
  });

  it('keeps structuredContent plain JSON (BigInt and Map rendered) when the tool has an outputSchema', () => {
    expect(toCallToolResult({ big: 10n, map: new Map([['k', 1]]) }, true).structuredContent).toEqual({ big: '10', map: { k: 1 } });
  });

  it.each([
    ['a Set (JSON: an array)', new Set([1, 2]), '[1,2]'],
    ['a Date (JSON: a string)', new Date(0), '"1970-01-01T00:00:00.000Z"'],
    ['an object whose toJSON is a number', { toJSON: () => 1 }, '1'],
  ])('judges %s by its JSON: not an object, so no structuredContent (which must be an object)', (_label, value, text) => {
    const result = toCallToolResult(value, true);
    expect(result.content).toEqual([{ type: 'text', text }]);
    expect(result).not.toHaveProperty('structuredContent');
  });

  it('does not mistake a domain object with a `content` array of non-items for a CallToolResult', () => {
    const document = { title: 'Notes', content: ['first paragraph', 'second paragraph'] };
    expect(toCallToolResult(document, false)).toEqual({ content: [{ type: 'text', text: JSON.stringify(document) }] });
  });
});

describe('isCallToolResult', () => {
  it('is true for an object with a content array', () => {
    expect(isCallToolResult({ content: [] })).toBe(true);
    expect(isCallToolResult({ content: [{ type: 'text', text: 'a' }], isError: true })).toBe(true);
  });

  it.each([[null], [undefined], ['text'], [{ content: 'text' }], [{ contents: [] }], [[{ type: 'text', text: 'a' }]]])('is false for %o', (value) => {
    expect(isCallToolResult(value)).toBe(false);
  });
});

describe('toolErrorResult', () => {
  it('is an isError result carrying the message as one text item', () => {
    expect(toolErrorResult('Space "x" not found')).toEqual({ content: [{ type: 'text', text: 'Space "x" not found' }], isError: true });
  });
});
