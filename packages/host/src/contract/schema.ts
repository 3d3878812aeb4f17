/**
 * Tool and prompt schemas: a zod object, a zod raw shape, any Standard Schema,
 * or a plain JSON Schema object (kept as is, for tools generated at run time).
 * Each is converted to JSON Schema once per spec object (memoised), whichever
 * copy of zod the extension brought, and validated through the Standard Schema
 * interface so no host-side zod identity is needed.
 */
import { fromJsonSchema } from '@modelcontextprotocol/server';
import { z } from 'zod';
import { ErrorCodes, ReactorError } from '../kernel/errors.js';
import { portableSchema, type JsonSchemaObject } from './portableSchema.js';
import type { HostStats } from '../kernel/stats.js';
import { isThenable } from '../kernel/thenable.js';

export type { JsonSchemaObject };

/** The Standard Schema v1 interface (zod 4, valibot, arktype…), the part the host uses. */
export interface StandardSchemaLike<Output = unknown> {
  readonly '~standard': {
    readonly version: 1;
    readonly vendor: string;
    readonly validate: (value: unknown) => StandardResult<Output> | Promise<StandardResult<Output>>;
    readonly jsonSchema?: {
      readonly input: (options: { target: string }) => Record<string, unknown>;
      readonly output: (options: { target: string }) => Record<string, unknown>;
    };
  };
}

type StandardResult<Output> =
  | { readonly value: Output; readonly issues?: undefined }
  | { readonly issues: ReadonlyArray<{ readonly message: string; readonly path?: ReadonlyArray<PropertyKey | { key: PropertyKey }> }> };

/** A record of Standard Schemas, as in `{ name: z.string() }`. */
export type RawShapeLike = { readonly [key: string]: StandardSchemaLike };

/** What a tool's `inputSchema`/`outputSchema` or a prompt's `argsSchema` may be. */
export type SchemaLike = StandardSchemaLike | RawShapeLike | JsonSchemaObject;

/** The type of the values a schema accepts once validated. */
export type InferSchema<S> = S extends StandardSchemaLike<infer O>
  ? O
  : S extends RawShapeLike
    ? { [K in keyof S]: S[K] extends StandardSchemaLike<infer O> ? O : never }
    : Record<string, unknown>;

/** What validating a value found. */
export type Checked = { readonly ok: true; readonly value: unknown } | { readonly ok: false; readonly message: string };

/** A schema resolved for serving: its JSON form and a validator. */
export interface ResolvedSchema {
  readonly json: JsonSchemaObject;
  /** The Standard Schema the SDK can validate with (for prompts' completable args). */
  readonly standard: StandardSchemaLike;
  /**
   * Validates a value: the parsed value, or the issues as one readable
   * message — at once when the schema validates synchronously (zod does),
   * else as a promise.
   */
  validate(value: unknown): Checked | Promise<Checked>;
  /** True when the schema came from a plain JSON Schema object. */
  readonly plain: boolean;
}

/** True for anything implementing Standard Schema v1. */
export function isStandardSchema(value: unknown): value is StandardSchemaLike {
  if (typeof value !== 'object' || value === null) return false;
  const std = (value as { '~standard'?: unknown })['~standard'];
  return typeof std === 'object' && std !== null && typeof (std as { validate?: unknown }).validate === 'function';
}

/** True for a non-empty record whose values are all Standard Schemas. */
export function isRawShape(value: unknown): value is RawShapeLike {
  if (typeof value !== 'object' || value === null || Array.isArray(value) || isStandardSchema(value)) return false;
  const values = Object.values(value);
  return values.length > 0 && values.every(isStandardSchema);
}

/** True for a value usable as a schema at all (for spec validation). */
export function isSchemaLike(value: unknown): value is SchemaLike {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

const cache = new WeakMap<object, { input?: ResolvedSchema; output?: ResolvedSchema }>();

/**
 * Resolves a schema once per schema object and direction. `io: 'input'` gives
 * the shape a client sends (defaults optional); `'output'` the shape produced.
 * The memo is keyed weakly on the schema object (it goes when the spec goes);
 * a conversion is counted in the `stats` of the host that asked for it.
 */
export function resolveSchema(schema: SchemaLike, io: 'input' | 'output' = 'input', stats?: HostStats): ResolvedSchema {
  let entry = cache.get(schema);
  if (!entry) {
    entry = {};
    cache.set(schema, entry);
  }
  const hit = entry[io];
  if (hit) return hit;
  if (stats) stats.schemaConversions++;
  const resolved = convert(schema, io);
  entry[io] = resolved;
  return resolved;
}

function convert(schema: SchemaLike, io: 'input' | 'output'): ResolvedSchema {
  if (isStandardSchema(schema)) return fromStandard(schema, io);
  // `{}` is the usual way to say "no arguments": an empty raw shape, not an empty JSON Schema.
  if (Object.keys(schema).length === 0) return fromStandard(z.object({}), io);
  if (isRawShape(schema)) {
    // A raw shape is wrapped in an object schema; zod 4 accepts fields from
    // another copy of zod because it reads their definitions structurally.
    return fromStandard(z.object(schema as unknown as z.ZodRawShape), io);
  }
  return fromPlainJsonSchema(schema);
}

function fromStandard(schema: StandardSchemaLike, io: 'input' | 'output'): ResolvedSchema {
  const json = toJsonSchema(schema, io);
  return {
    json,
    standard: schema,
    plain: false,
    validate: validatorOf(schema),
  };
}

function toJsonSchema(schema: StandardSchemaLike, io: 'input' | 'output'): JsonSchemaObject {
  const std = schema['~standard'];
  let json: Record<string, unknown>;
  if (std.jsonSchema) {
    json = std.jsonSchema[io]({ target: 'draft-2020-12' });
  } else if (typeof (schema as { _zod?: unknown })._zod === 'object') {
    // A zod 4 schema from before Standard JSON Schema support.
    json = z.toJSONSchema(schema as unknown as z.ZodType, { io, unrepresentable: 'any' });
  } else {
    throw new ReactorError(ErrorCodes.TOOL_INVALID, {
      subject: `a ${std.vendor} schema`,
      problem: 'cannot be converted to JSON Schema, which MCP clients need',
      expected: 'a schema with Standard JSON Schema support (zod ≥ 4.2, …) or a plain JSON Schema object',
      received: `a Standard Schema from "${std.vendor}" without ~standard.jsonSchema`,
      hint: 'pass a zod schema or write the JSON Schema by hand',
    });
  }
  // `$schema` is noise on the wire; clients assume draft 2020-12.
  const { $schema: _ignored, ...rest } = json;
  return portableSchema(rest);
}

function fromPlainJsonSchema(schema: JsonSchemaObject): ResolvedSchema {
  // Kept as is: a generated catalogue's schema must reach clients unchanged.
  const standard = fromJsonSchema(schema as Parameters<typeof fromJsonSchema>[0]) as unknown as StandardSchemaLike;
  return {
    json: schema,
    standard,
    plain: true,
    validate: validatorOf(standard),
  };
}

/** A Standard Schema's validation as a {@link ResolvedSchema.validate}: no promise made for a schema that answers synchronously. */
function validatorOf(schema: StandardSchemaLike): (value: unknown) => Checked | Promise<Checked> {
  return (value) => {
    const result = schema['~standard'].validate(value);
    // Any thenable a validator returns is awaited, as before: only a plain result is taken at once.
    return isThenable(result) ? Promise.resolve(result).then(checkedOf) : checkedOf(result);
  };
}

function checkedOf(result: StandardResult<unknown>): Checked {
  return result.issues ? { ok: false, message: formatIssues(result.issues) } : { ok: true, value: result.value };
}

function formatIssues(issues: ReadonlyArray<{ readonly message: string; readonly path?: ReadonlyArray<PropertyKey | { key: PropertyKey }> }>): string {
  return issues
    .slice(0, 10)
    .map((issue) => {
      const path = (issue.path ?? []).map((p) => String(typeof p === 'object' ? p.key : p)).join('.');
      return path ? `${path}: ${issue.message}` : issue.message;
    })
    .join('; ');
}

/** The JSON Schema of a tool that takes no arguments. */
export const EMPTY_OBJECT_SCHEMA: JsonSchemaObject = Object.freeze({ type: 'object', properties: {} });
