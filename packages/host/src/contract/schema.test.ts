import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { isReactorError } from '../kernel/errors.js';
import {
  EMPTY_OBJECT_SCHEMA,
  isRawShape,
  isSchemaLike,
  isStandardSchema,
  resolveSchema,
  type JsonSchemaObject,
  type StandardSchemaLike,
} from './schema.js';
import { createStats } from '../kernel/stats.js';

describe('resolveSchema', () => {
  it('lists a plain JSON Schema with every keyword as written (composition, conditionals, anchors, refs, 2020-12 vocabulary)', () => {
    const written = {
      $schema: 'https://json-schema.org/draft/2020-12/schema',
      type: 'object',
      $defs: { address: { $anchor: 'addressDef', type: 'object', properties: { city: { type: 'string' } } } },
      properties: { address: { $ref: '#/$defs/address' }, kind: { enum: ['a', 'b'] }, phone: { type: 'string' }, email: { type: 'string' } },
      allOf: [{ anyOf: [{ required: ['phone'] }, { required: ['email'] }] }],
      oneOf: [{ required: ['kind'] }, { not: { required: ['kind'] } }],
      not: { required: ['forbidden'] },
      if: { properties: { kind: { const: 'a' } } },
      then: { required: ['phone'] },
      else: { required: ['email'] },
      dependentSchemas: { phone: { required: ['kind'] } },
      unevaluatedProperties: false,
    };
    const { json, plain } = resolveSchema(structuredClone(written));
    expect(plain).toBe(true);
    expect(json).toEqual(written);
  });

  describe('a zod object', () => {
    const schema = z.object({ sandboxName: z.string(), variant: z.string().default('eval') });

    it('becomes a JSON Schema with no $schema noise', () => {
      const { json, plain } = resolveSchema(schema);
      expect(plain).toBe(false);
      expect(json).not.toHaveProperty('$schema');
      expect(json).toMatchObject({ type: 'object', properties: { sandboxName: { type: 'string' }, variant: { type: 'string', default: 'eval' } } });
    });

    it('on input, makes a field with a default optional (the client may leave it out)', () => {
      expect(resolveSchema(schema, 'input').json.required).toEqual(['sandboxName']);
    });

    it('on output, makes a field with a default required (the value always has it)', () => {
      expect(resolveSchema(schema, 'output').json.required).toEqual(['sandboxName', 'variant']);
    });

    it('resolves for input by default', () => {
      expect(resolveSchema(schema)).toBe(resolveSchema(schema, 'input'));
    });

    it('keeps the schema itself as the Standard Schema the SDK validates with', () => {
      expect(resolveSchema(schema).standard).toBe(schema);
    });
  });

  describe('a zod raw shape', () => {
    it('is wrapped in an object schema', () => {
      const { json, plain } = resolveSchema({ query: z.string(), limit: z.number().optional() });
      expect(plain).toBe(false);
      expect(json).toMatchObject({ type: 'object', properties: { query: { type: 'string' }, limit: { type: 'number' } }, required: ['query'] });
    });

    it('validates like the object it stands for', async () => {
      const resolved = resolveSchema({ query: z.string(), limit: z.number().default(10) });
      expect(await resolved.validate({ query: 'q' })).toEqual({ ok: true, value: { query: 'q', limit: 10 } });
      expect((await resolved.validate({ query: 1 })).ok).toBe(false);
    });

    it('that is empty is a tool with no arguments: a JSON Schema of type object', () => {
      // MCP requires `inputSchema.type === "object"`; clients reject the whole `tools/list` otherwise.
      expect(resolveSchema({}).json).toMatchObject({ type: 'object' });
    });
  });

  describe('a plain JSON Schema (for tools generated at run time from a catalogue)', () => {
    const catalogue = (): JsonSchemaObject => ({
      type: 'object',
      properties: { id: { type: 'string', 'x-catalogue': 'kept' }, count: { type: 'integer', minimum: 0 } },
      required: ['id'],
      additionalProperties: false,
    });

    it('is kept as is: the very object, unchanged', () => {
      const schema = catalogue();
      const resolved = resolveSchema(schema);
      expect(resolved.plain).toBe(true);
      expect(resolved.json).toBe(schema);
      expect(resolved.json).toEqual(catalogue());
    });

    it('validates through the SDK: a missing required field is not ok', async () => {
      const resolved = resolveSchema(catalogue());
      const result = await resolved.validate({ count: 1 });
      expect(result.ok).toBe(false);
      expect(result.ok ? '' : result.message).toContain('id');
    });

    it('validates through the SDK: a value of the wrong type is not ok', async () => {
      const result = await resolveSchema(catalogue()).validate({ id: 'a', count: -1 });
      expect(result.ok).toBe(false);
      expect(result.ok ? '' : result.message).toContain('count');
    });

    it('validates through the SDK: a conforming value is ok and returned', async () => {
      expect(await resolveSchema(catalogue()).validate({ id: 'a', count: 2 })).toEqual({ ok: true, value: { id: 'a', count: 2 } });
    });
  });

  describe('a Standard Schema that is not zod', () => {
    it('is converted through its own ~standard.jsonSchema', async () => {
      const custom: StandardSchemaLike<{ n: number }> = {
        '~standard': {
          version: 1,
          vendor: 'custom',
          validate: (value) =>
            typeof (value as { n?: unknown }).n === 'number' ? { value: value as { n: number } } : { issues: [{ message: 'n must be a number', path: ['n'] }] },
          jsonSchema: {
            input: () => ({ $schema: 'https://json-schema.org/draft/2020-12/schema', type: 'object', properties: { n: { type: 'number' } } }),
            output: () => ({ type: 'object', properties: { n: { type: 'number' } }, required: ['n'] }),
          },
        },
      };
      expect(resolveSchema(custom, 'input').json).toEqual({ type: 'object', properties: { n: { type: 'number' } } });
      expect(resolveSchema(custom, 'output').json.required).toEqual(['n']);
      expect(await resolveSchema(custom).validate({ n: 'x' })).toEqual({ ok: false, message: 'n: n must be a number' });
    });

    it('that cannot be converted to JSON Schema fails with a ReactorError, not a TypeError', () => {
      const opaque: StandardSchemaLike = { '~standard': { version: 1, vendor: 'opaque', validate: (value) => ({ value }) } };
      let error: unknown;
      try {
        resolveSchema(opaque);
      } catch (caught) {
        error = caught;
      }
      expect(isReactorError(error)).toBe(true);
    });
  });

  describe('is memoised per schema object and direction', () => {
    it('returns the same ResolvedSchema for the same object', () => {
      const schema = z.object({ a: z.string() });
      expect(resolveSchema(schema, 'input')).toBe(resolveSchema(schema, 'input'));
      expect(resolveSchema(schema, 'output')).toBe(resolveSchema(schema, 'output'));
      expect(resolveSchema(schema, 'input')).not.toBe(resolveSchema(schema, 'output'));
    });

    it('converts once per object and direction (stats.schemaConversions)', () => {
      const schema = z.object({ a: z.string() });
      const stats = createStats();
      resolveSchema(schema, 'input', stats);
      resolveSchema(schema, 'input', stats);
      expect(stats.schemaConversions).toBe(1);
      resolveSchema(schema, 'output', stats);
      resolveSchema(schema, 'output', stats);
      expect(stats.schemaConversions).toBe(2);
    });

    it('converts an equal but distinct object again (identity, not content)', () => {
      const stats = createStats();
      const first = resolveSchema({ type: 'object', properties: {} }, 'input', stats);
      const second = resolveSchema({ type: 'object', properties: {} }, 'input', stats);
      expect(first).not.toBe(second);
      expect(stats.schemaConversions).toBe(2);
    });
  });
});

describe('ResolvedSchema.validate', () => {
  const schema = z.object({ sandboxName: z.string(), variant: z.string().default('eval'), options: z.object({ cpus: z.array(z.number()) }).optional() });

  it('returns the parsed value with defaults applied', async () => {
    expect(await resolveSchema(schema).validate({ sandboxName: 'a' })).toEqual({ ok: true, value: { sandboxName: 'a', variant: 'eval' } });
  });

  it('answers at once for a schema that validates synchronously (zod), and awaits one that answers with a promise', async () => {
    // No promise for the common case: a tool call's arguments are checked without a turn of the microtask queue.
    expect(resolveSchema(schema).validate({ sandboxName: 'a' })).toEqual({ ok: true, value: { sandboxName: 'a', variant: 'eval' } });
    const later: StandardSchemaLike = {
      '~standard': {
        version: 1,
        vendor: 'async',
        validate: (value) => Promise.resolve(typeof value === 'object' ? { value } : { issues: [{ message: 'not an object' }] }),
        jsonSchema: { input: () => ({ type: 'object' }), output: () => ({ type: 'object' }) },
      },
    };
    const pending = resolveSchema(later).validate(1);
    expect(pending).toBeInstanceOf(Promise);
    expect(await pending).toEqual({ ok: false, message: 'not an object' });
    expect(await resolveSchema(later).validate({ a: 1 })).toEqual({ ok: true, value: { a: 1 } });
  });

  it('returns the parsed value, not the input (unknown keys stripped by zod)', async () => {
    expect(await resolveSchema(schema).validate({ sandboxName: 'a', extra: 1 })).toEqual({ ok: true, value: { sandboxName: 'a', variant: 'eval' } });
  });

  it('reports each issue readably, prefixed with its path', async () => {
    const result = await resolveSchema(schema).validate({ sandboxName: 1, variant: 2 });
    expect(result.ok).toBe(false);
    const message = result.ok ? '' : result.message;
    expect(message).toMatch(/^sandboxName: .*string.*; variant: .*string/);
  });

  it('joins a nested path with dots', async () => {
    const result = await resolveSchema(schema).validate({ sandboxName: 'a', options: { cpus: [1, 'two'] } });
    expect(result.ok ? '' : result.message).toMatch(/^options\.cpus\.1: /);
  });

  it('reports an issue of the whole value without a path', async () => {
    const result = await resolveSchema(schema).validate('not an object');
    expect(result.ok).toBe(false);
    expect(result.ok ? '' : result.message).toMatch(/^Invalid input: expected object/);
  });

  it('keeps the message bounded: at most 10 issues', async () => {
    const wide = z.object(Object.fromEntries(Array.from({ length: 30 }, (_, i) => [`f${i}`, z.string()])));
    const result = await resolveSchema(wide).validate({});
    expect(result.ok ? [] : result.message.split('; ')).toHaveLength(10);
  });
});

describe('schema predicates', () => {
  it('isStandardSchema: anything with ~standard.validate (zod 4 included)', () => {
    expect(isStandardSchema(z.string())).toBe(true);
    expect(isStandardSchema({ '~standard': { validate: () => ({ value: 1 }) } })).toBe(true);
    expect(isStandardSchema({ type: 'object' })).toBe(false);
    expect(isStandardSchema(null)).toBe(false);
  });

  it('isRawShape: a non-empty record of Standard Schemas only', () => {
    expect(isRawShape({ a: z.string(), b: z.number() })).toBe(true);
    expect(isRawShape(z.object({ a: z.string() }))).toBe(false);
    expect(isRawShape({ type: 'object' })).toBe(false);
    expect(isRawShape({ a: z.string(), b: 42 })).toBe(false);
    expect(isRawShape([z.string()])).toBe(false);
  });

  it('isSchemaLike: any non-array object', () => {
    expect(isSchemaLike({})).toBe(true);
    expect(isSchemaLike(z.object({}))).toBe(true);
    expect(isSchemaLike([])).toBe(false);
    expect(isSchemaLike('object')).toBe(false);
    expect(isSchemaLike(null)).toBe(false);
  });

  it('EMPTY_OBJECT_SCHEMA is the frozen schema of a tool with no arguments', () => {
    expect(EMPTY_OBJECT_SCHEMA).toEqual({ type: 'object', properties: {} });
    expect(Object.isFrozen(EMPTY_OBJECT_SCHEMA)).toBe(true);
  });
});
