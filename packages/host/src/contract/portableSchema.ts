/**
 * Portable JSON Schemas. zod's conversion is correct but some of what it
 * writes trips clients and the MCP Inspector's portability checks:
 *
 * - every `z.number().int()` gets `minimum: -9007199254740991` and
 *   `maximum: 9007199254740991` (JavaScript's safe-integer range) — noise a
 *   model reads on every integer, and a range some clients reject;
 * - `.nullable()` may come out as `type: ["string", "null"]`, a type array
 *   several clients do not accept — written here as `anyOf`;
 * - `z.unknown()` / `z.any()` come out as `{}`, a schema with no keyword —
 *   written as what it means: any JSON value, each type named (and dropped
 *   where it changes nothing: `additionalProperties: {}` is the default).
 *
 * The rewrite is equivalent for every JSON value (validation still runs
 * against the original schema), applied once per conversion. Plain JSON
 * Schema objects an extension wrote itself are kept exactly as written.
 */
/** A JSON Schema object, as sent to clients. */
export type JsonSchemaObject = { [key: string]: unknown };

const SAFE_INTEGER = 9_007_199_254_740_991;

/** Keywords whose value is one schema. */
const SCHEMA_KEYWORDS = ['items', 'additionalItems', 'unevaluatedItems', 'contains', 'propertyNames', 'not', 'if', 'then', 'else', 'unevaluatedProperties', 'contentSchema'];
/** Keywords whose value is a list of schemas. */
const LIST_KEYWORDS = ['anyOf', 'oneOf', 'allOf', 'prefixItems'];
/** Keywords whose value maps names to schemas. */
const MAP_KEYWORDS = ['properties', 'patternProperties', '$defs', 'definitions', 'dependentSchemas'];
/** Annotations kept on the outside when a node is split into `anyOf` branches. */
const ANNOTATIONS = ['title', 'description', 'default', 'examples', 'deprecated', 'readOnly', 'writeOnly', '$comment'];

/** Any JSON value, with each type named (the portable spelling of `{}`). */
export const ANY_JSON_VALUE: JsonSchemaObject = Object.freeze({
  anyOf: ['string', 'number', 'boolean', 'object', 'array', 'null'].map((type) => ({ type })),
});

/** The portable form of a converted schema (a new object; the input is not changed). */
export function portableSchema(schema: JsonSchemaObject): JsonSchemaObject {
  return rewrite(schema) as JsonSchemaObject;
}

function rewrite(node: unknown): unknown {
  if (typeof node !== 'object' || node === null || Array.isArray(node)) return node;
  const source = node as Record<string, unknown>;
  if (Object.keys(source).length === 0) return { ...ANY_JSON_VALUE };
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(source)) {
    if (key === 'additionalProperties') {
      // `{}` allows any extra property, as leaving the keyword out does.
      if (isEmptySchema(value)) continue;
      out[key] = rewrite(value);
    } else if (SCHEMA_KEYWORDS.includes(key)) out[key] = Array.isArray(value) ? value.map(rewrite) : rewrite(value);
    else if (LIST_KEYWORDS.includes(key) && Array.isArray(value)) out[key] = value.map(rewrite);
    else if (MAP_KEYWORDS.includes(key) && isRecord(value)) out[key] = Object.fromEntries(Object.entries(value).map(([name, schema]) => [name, rewrite(schema)]));
    else out[key] = value;
  }
  if (!Array.isArray(out.type)) return withoutSafeBounds(out);
  const split = splitTypes(out);
  if (Array.isArray(split.anyOf)) split.anyOf = (split.anyOf as Array<Record<string, unknown>>).map(withoutSafeBounds);
  return withoutSafeBounds(split);
}

/** An integer's bounds, when they are only JavaScript's safe-integer range, say nothing. */
function withoutSafeBounds(node: Record<string, unknown>): Record<string, unknown> {
  if (node.type !== 'integer') return node;
  if (node.minimum === -SAFE_INTEGER) delete node.minimum;
  if (node.maximum === SAFE_INTEGER) delete node.maximum;
  return node;
}

/** `type: ["string", "null"]` → `anyOf: [{ type: "string", … }, { type: "null" }]`, annotations outside. */
function splitTypes(node: Record<string, unknown>): Record<string, unknown> {
  const types = (node.type as unknown[]).filter((t): t is string => typeof t === 'string');
  const outside: Record<string, unknown> = {};
  const inside: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(node)) {
    if (key === 'type') continue;
    (ANNOTATIONS.includes(key) ? outside : inside)[key] = value;
  }
  if (types.length === 1) return { ...outside, ...inside, type: types[0] };
  // Type-specific keywords (minLength, items…) only constrain values of their own type, so each branch may carry them all.
  return { ...outside, anyOf: types.map((type) => (type === 'null' ? { type } : { type, ...inside })) };
}

function isEmptySchema(value: unknown): boolean {
  return isRecord(value) && Object.keys(value).length === 0;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
