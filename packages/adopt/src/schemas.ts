/**
 * Schemas of adopted modules, made something the host serves: zod 4 schemas
 * and raw shapes pass as they are (the host converts them); zod 3 schemas are
 * converted to JSON Schema by `zod-to-json-schema` (the converter the v1 SDK
 * itself uses) and still validated by the original schema, so `z.preprocess`,
 * defaults and transforms keep working; JSON Schema objects are kept.
 */
import { objectFromShape } from '@modelcontextprotocol/sdk/server/zod-compat.js';
import type { SchemaLike, StandardSchemaLike } from '@reactor/host';
import { zodToJsonSchema } from 'zod-to-json-schema';

/** A zod 3 schema, as far as adoption needs it. */
interface Zod3Like {
  readonly _def: object;
  safeParseAsync(value: unknown): Promise<{ success: true; data: unknown } | { success: false; error: { issues: Array<{ message: string; path: Array<string | number> }> } }>;
}

/** True for a zod 3 schema (zod 4's have `_zod`). */
export function isZod3(value: unknown): value is Zod3Like {
  return typeof value === 'object' && value !== null && '_def' in value && !('_zod' in value) && typeof (value as { safeParseAsync?: unknown }).safeParseAsync === 'function';
}

/** True for a zod 4 schema (or any Standard Schema). */
function isStandard(value: unknown): boolean {
  return typeof value === 'object' && value !== null && typeof (value as { '~standard'?: { validate?: unknown } })['~standard']?.validate === 'function';
}

/** True for a schema object of zod 3 or 4 (or any Standard Schema). */
export function isSchema(value: unknown): boolean {
  return isZod3(value) || isStandard(value);
}

/** True for a non-empty record whose values are all schemas (v1's "params schema" form). */
export function isRawShape(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value) || isSchema(value)) return false;
  const values = Object.values(value);
  return values.length > 0 && values.every(isSchema);
}

const converted = new WeakMap<object, StandardSchemaLike>();

/**
 * The schema the host is given for an adopted one. `undefined` stays
 * undefined; an empty raw shape `{}` means "no arguments" to both SDKs.
 */
export function toHostSchema(schema: unknown): SchemaLike | undefined {
  if (schema === undefined || schema === null) return undefined;
  if (typeof schema !== 'object') return undefined;
  if (isZod3(schema)) return fromZod3(schema);
  if (isStandard(schema)) return schema as SchemaLike;
  if (isRawShape(schema)) {
    const values = Object.values(schema);
    // A shape of zod 4 fields passes as is; any zod 3 field makes it a zod 3 object (built by the SDK's own helper).
    if (!values.some(isZod3)) return schema;
    return fromZod3(objectFromShape(schema as never) as unknown as Zod3Like);
  }
  if (Object.keys(schema).length === 0) return {};
  return schema as SchemaLike;
}

/** A zod 3 schema as a Standard Schema with its JSON Schema attached (converted once). */
function fromZod3(schema: Zod3Like): StandardSchemaLike {
  const hit = converted.get(schema);
  if (hit) return hit;
  const json = (io: 'input' | 'output') => {
    const { $schema: _ignored, ...rest } = zodToJsonSchema(schema as never, { target: 'jsonSchema7', $refStrategy: 'none', pipeStrategy: io, effectStrategy: io === 'input' ? 'input' : 'any' }) as Record<string, unknown>;
    return rest;
  };
  const input = json('input');
  const output = json('output');
  const standard: StandardSchemaLike = {
    '~standard': {
      version: 1,
      vendor: 'zod3',
      validate: async (value: unknown) => {
        const result = await schema.safeParseAsync(value);
        if (result.success) return { value: result.data };
        return { issues: result.error.issues.map((issue) => ({ message: issue.message, path: issue.path })) };
      },
      jsonSchema: { input: () => input, output: () => output },
    },
  };
  converted.set(schema, standard);
  return standard;
}

const COMPLETABLE = Symbol.for('mcp.completable');

/** The fields of an object schema or raw shape (zod 3 or 4), for prompt completions. */
export function fieldsOf(schema: unknown): Record<string, unknown> {
  if (typeof schema !== 'object' || schema === null) return {};
  if (isRawShape(schema)) return schema;
  const shape = (schema as { shape?: unknown; _zod?: { def?: { shape?: unknown } } }).shape ?? (schema as { _zod?: { def?: { shape?: unknown } } })._zod?.def?.shape;
  return typeof shape === 'object' && shape !== null ? (shape as Record<string, unknown>) : {};
}

/** The completion callback of a `completable(...)` field (either SDK line), if any; looks through `.optional()`. */
export function completerOf(field: unknown): ((value: string, context?: { arguments?: Record<string, string> }) => unknown) | undefined {
  let current: unknown = field;
  for (let depth = 0; depth < 3 && typeof current === 'object' && current !== null; depth++) {
    const meta = (current as { [COMPLETABLE]?: { complete?: unknown } })[COMPLETABLE];
    if (typeof meta?.complete === 'function') return meta.complete as never;
    const def = (current as { _def?: { innerType?: unknown }; _zod?: { def?: { innerType?: unknown } } });
    current = def._def?.innerType ?? def._zod?.def?.innerType;
  }
  return undefined;
}
