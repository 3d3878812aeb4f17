import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ANY_JSON_VALUE, portableSchema } from './portableSchema.js';
import { resolveSchema, type JsonSchemaObject } from './schema.js';

/** Every node of a schema, for checks that must hold everywhere. */
function nodes(schema: unknown, out: unknown[] = []): unknown[] {
  if (Array.isArray(schema)) schema.forEach((s) => nodes(s, out));
  else if (typeof schema === 'object' && schema !== null) {
    out.push(schema);
    for (const value of Object.values(schema)) nodes(value, out);
  }
  return out;
}

describe('portableSchema', () => {
  it('drops the safe-integer bounds zod puts on every integer, and keeps real ones', () => {
    const json = resolveSchema(z.object({ count: z.number().int(), page: z.number().int().min(1).max(50) })).json;
    expect(json.properties).toEqual({ count: { type: 'integer' }, page: { type: 'integer', minimum: 1, maximum: 50 } });
  });

  it('writes a type array as anyOf, annotations outside', () => {
    expect(portableSchema({ type: ['string', 'null'], description: 'A note.', minLength: 1 })).toEqual({
      description: 'A note.',
      anyOf: [{ type: 'string', minLength: 1 }, { type: 'null' }],
    });
    expect(portableSchema({ type: ['integer'], minimum: -9007199254740991 })).toEqual({ type: 'integer' });
  });

  it('spells a keyword-less {} as any JSON value, and drops additionalProperties: {}', () => {
    const json = resolveSchema(z.object({ input: z.unknown(), config: z.record(z.string(), z.unknown()) }), 'output').json;
    expect((json.properties as Record<string, JsonSchemaObject>).input).toEqual(ANY_JSON_VALUE);
    expect((json.properties as Record<string, JsonSchemaObject>).config).not.toHaveProperty('additionalProperties');
  });

  it('leaves maps of schemas alone where empty (properties: {} is not a schema)', () => {
    expect(portableSchema({ type: 'object', properties: {} })).toEqual({ type: 'object', properties: {} });
  });

  it('leaves nothing non-portable in a zod schema full of nullables, unknowns and integers', () => {
    const schema = z.object({
      runs: z.array(z.object({ id: z.string(), notes: z.string().nullable(), score: z.number().nullable(), passed: z.number().int(), config: z.record(z.string(), z.unknown()) })),
      anything: z.unknown(),
      nested: z.object({ deep: z.array(z.number().int().nullable()) }).nullable(),
    });
    for (const io of ['input', 'output'] as const) {
      for (const node of nodes(resolveSchema(schema, io).json)) {
        const n = node as Record<string, unknown>;
        expect(Array.isArray(n.type), JSON.stringify(n)).toBe(false);
        expect(n.maximum).not.toBe(9007199254740991);
        expect(n.minimum).not.toBe(-9007199254740991);
      }
      const json = resolveSchema(schema, io).json;
      const schemaNodes = JSON.stringify(json);
      expect(schemaNodes).not.toMatch(/"(items|additionalProperties|anything|notes)":\{\}/);
    }
  });

  it('keeps a plain JSON Schema object exactly as the extension wrote it', () => {
    const plain = { type: 'object', properties: { n: { type: ['integer', 'null'], maximum: 9007199254740991 } } };
    expect(resolveSchema(plain).json).toBe(plain);
  });
});
