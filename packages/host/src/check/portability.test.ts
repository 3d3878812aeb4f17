import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { resolveSchema } from '../contract/schema.js';
import { portabilityIssues } from './portability.js';

const rules = (schema: unknown) => portabilityIssues(schema, 'inputSchema').map((i) => `${i.rule} ${i.path}`);

describe('portabilityIssues', () => {
  it('finds nothing in a schema every client takes', () => {
    expect(rules({ type: 'object', properties: { name: { type: 'string' }, tags: { type: 'array', items: { type: 'string' } } }, additionalProperties: false })).toEqual([]);
  });

  it('flags a type array (what zod makes of .nullable() today) and says how to spell it', () => {
    const [issue] = portabilityIssues({ type: 'object', properties: { notes: { type: ['string', 'null'] } } }, 'outputSchema');
    expect(issue).toMatchObject({ rule: 'type-union', severity: 'warning', path: 'outputSchema.properties.notes' });
    expect(issue!.hint).toContain('{"anyOf": [{"type": "string"}, {"type": "null"}]}');
  });

  it('flags keyword-less {} wherever a schema stands, including additionalProperties (z.record(z.string(), z.unknown()))', () => {
    expect(rules({ type: 'object', properties: { input: {}, config: { type: 'object', additionalProperties: {} } } })).toEqual([
      'untyped-schema inputSchema.properties.input',
      'untyped-schema inputSchema.properties.config.additionalProperties',
    ]);
  });

  it('accepts {} under not (the always-false schema is {"not": {}}) and conditionals that constrain as a pair', () => {
    expect(rules({ type: 'object', properties: { never: { not: {} }, odd: { if: { type: 'string' }, then: { minLength: 1 } } } })).toEqual([]);
  });

  it('flags bare booleans as errors, except where they are the conventional spelling', () => {
    const issues = portabilityIssues({ type: 'object', properties: { anything: true }, additionalProperties: false }, 'inputSchema');
    expect(issues.map((i) => [i.rule, i.severity, i.path])).toEqual([['boolean-schema', 'error', 'inputSchema.properties.anything']]);
  });

  it('flags $ref outside the document unless the schema embeds ids', () => {
    expect(rules({ type: 'object', properties: { a: { $ref: 'https://example.com/a.json' }, b: { $ref: '#/$defs/b' } }, $defs: { b: { type: 'string' } } })).toEqual(['remote-ref inputSchema.properties.a']);
    expect(rules({ type: 'object', $id: 'https://example.com/root', properties: { a: { $ref: 'other.json' } } })).toEqual([]);
  });

  it("flags zod's default safe-integer bounds, and not real ones", () => {
    // The host's own conversion drops zod's bounds (so a zod schema comes out clean); a schema written with them is flagged.
    expect(rules(resolveSchema(z.object({ count: z.number().int(), page: z.number().int().min(1).max(100) })).json)).toEqual([]);
    const written = { type: 'object', properties: { count: { type: 'integer', minimum: -9007199254740991, maximum: 9007199254740991 }, page: { type: 'integer', minimum: 1, maximum: 100 } } };
    expect(rules(written)).toEqual(['integer-bounds inputSchema.properties.count']);
  });

  it('walks arrays of subschemas and quotes names that are not identifiers', () => {
    expect(rules({ type: 'object', properties: { 'a-b': { anyOf: [{ type: 'string' }, {}] } } })).toEqual(['untyped-schema inputSchema.properties["a-b"].anyOf[1]']);
  });
});
