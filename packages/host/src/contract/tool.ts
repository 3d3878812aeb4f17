/**
 * Tool specs: what an extension offers at `mcp.tools`. A spec is plain data plus
 * an ordinary handler function, so a test calls `tool.handler(args, ctx)` with
 * no server at all.
 */
import type { CallToolResult, InputRequiredResult, ServerContext, ToolAnnotations } from '@modelcontextprotocol/server';
import { isInputRequiredResult } from './inputRequired.js';
import { describeValue, ErrorCodes, ReactorError } from '../kernel/errors.js';
import { isSchemaLike, isStandardSchema, type InferSchema, type SchemaLike } from './schema.js';
import { isTimeLimit, MAX_TIMER_MS } from '../kernel/timeLimit.js';
import { TASK_SUPPORT, type TaskReporter, type TaskSupport } from './task.js';

export type { ToolAnnotations, CallToolResult, InputRequiredResult };

/**
 * The context a tool handler receives: the SDK's own handler context, unchanged,
 * plus the offering extension's name, the active toolsets, the tenant, and
 * `signal` — the call's abort signal (also at `mcpReq.signal`), aborted when the
 * client cancels or the call exceeds its time limit.
 */
export type ToolContext = ServerContext & {
  /** The name of the extension that offered the tool. */
  readonly extension: string;
  /** The toolsets active on this connection. */
  readonly toolsets: ReadonlySet<string>;
  /**
   * The tenant this connection serves (the HTTP app's `tenant(req)`, or `connect`'s
   * `tenant`), absent when the deployment has none. With `principalOf(ctx.http?.authInfo)`
   * it says whose call this is: state a tool keeps for a caller belongs to both.
   */
  readonly tenant?: string;
  /** Aborted on cancellation (`tasks/cancel` too) or time-out; the same as `mcpReq.signal`. */
  readonly signal: AbortSignal;
  /** Present when the call runs as a task (2026-07-28 tasks extension): its id and `status(message)`. */
  readonly task?: TaskReporter;
};

/**
 * A tool handler: any JSON value, a string, a `CallToolResult` or undefined
 * (or a promise of one). `Result` is what it returns — `unknown` unless a
 * definition says more (`defineTool` infers it from the handler).
 */
export type ToolHandler<Args = Record<string, unknown>, Result = unknown> = (args: Args, ctx: ToolContext) => Result;

/**
 * What `mcp.tools` holds: one tool, offered under its name. `Result` is the
 * handler's return type and `Output` the output schema's type; both default to
 * the loosest, so `ToolSpec<Args>` takes any spec with those arguments.
 */
export interface ToolSpec<Args = Record<string, unknown>, Result = unknown, Output extends SchemaLike | undefined = SchemaLike | undefined> {
  /** SEP-986 tool name: 1–128 of `A-Z a-z 0-9 . _ -`. */
  readonly name: string;
  /** Display name for clients. */
  readonly title?: string;
  /** What the tool does, for a model to read. Required. */
  readonly description: string;
  /** A zod object, a zod raw shape, any Standard Schema, or a plain JSON Schema object. */
  readonly inputSchema?: SchemaLike;
  /** Optional output schema; an object result then also becomes `structuredContent`. */
  readonly outputSchema?: Output;
  /** MCP tool annotations (hints), sent as is. */
  readonly annotations?: ToolAnnotations;
  /** The toolset it belongs to; default: its extension's first declared toolset. */
  readonly toolset?: string;
  /** Carried to the tool's `_meta`, never interpreted by the host. */
  readonly meta?: Record<string, unknown>;
  /** Time limit of one call, in milliseconds (overrides the host's `toolTimeoutMs`). */
  readonly timeoutMs?: number;
  /**
   * Former names of the tool, still callable after a rename: never listed, each
   * call logs a deprecation warning naming this tool and marks its result's
   * `_meta`. Names follow the same rule as `name`.
   */
  readonly aliases?: readonly string[];
  /**
   * Whether the tool may run as a task (`io.modelcontextprotocol/tasks`, 2026-07-28):
   * `'none'` (default), `'optional'` (a task when the client opts in), `'required'`.
   */
  readonly task?: TaskSupport;
  /**
   * With `task`: runs in the call, before it becomes a task (the client opted in).
   * Return `inputRequired(...)` to ask for input first (answered in the call,
   * multi-round-trip); return nothing to go on: the task starts, its handler
   * seeing those answers as `ctx.mcpReq.inputResponses`.
   */
  readonly beforeTask?: ToolHandler<Args, unknown>;
  /** Icons for clients that show them. */
  readonly icons?: ReadonlyArray<{ src: string; mimeType?: string; sizes?: string[] }>;
  /** The handler: an ordinary function. */
  readonly handler: ToolHandler<Args, Result>;
}

/**
 * The definition `defineTool` takes: a spec whose handler's args are inferred
 * from `inputSchema`, and whose result type and output schema's type are kept.
 */
export type ToolDefinition<S extends SchemaLike | undefined, Result = unknown, Output extends SchemaLike | undefined = SchemaLike | undefined> = Omit<
  ToolSpec<InferSchema<S>, Result, Output>,
  'inputSchema' | 'handler'
> & {
  readonly inputSchema?: S;
  readonly handler: ToolHandler<InferSchema<S>, Result>;
};

/** What a tool's handler answers, awaited: `ToolResultOf<typeof readFile>`. */
export type ToolResultOf<T extends { readonly handler: (...args: never[]) => unknown }> = Awaited<ReturnType<T['handler']>>;

/**
 * The type of a tool's `structuredContent`: its output schema's type when the
 * schema's type is known (`defineTool` keeps it), `never` for a spec typed
 * without one (it then has no structured content), and a plain record when
 * the type does not say.
 */
export type StructuredContentOf<T extends { readonly outputSchema?: SchemaLike | undefined }> = [NonNullable<T['outputSchema']>] extends [never]
  ? never
  : SchemaLike extends NonNullable<T['outputSchema']>
    ? Record<string, unknown>
    : InferSchema<NonNullable<T['outputSchema']>>;

/** SEP-986: the characters and length a tool name may have. */
export const TOOL_NAME_PATTERN = /^[A-Za-z0-9._-]{1,128}$/;

/**
 * Defines a tool, typed from its input schema, and checks it at once: an
 * invalid name, a missing description or a handler that is not a function
 * throws a {@link ReactorError} (`REACTOR_TOOL_INVALID`).
 */
export function defineTool<S extends SchemaLike | undefined = undefined, Result = unknown, Output extends SchemaLike | undefined = SchemaLike | undefined>(
  definition: ToolDefinition<S, Result, Output>,
): ToolSpec<InferSchema<S>, Result, Output> {
  assertValidToolSpec(definition as unknown as ToolSpec<unknown>);
  return definition;
}

/**
 * Checks a spec's shape, naming the extension when known. Used by `defineTool`
 * and again by the host for specs built without it.
 */
export function assertValidToolSpec(spec: ToolSpec<unknown>, extension?: string): void {
  const of = extension === undefined ? '' : ` of extension "${extension}"`;
  const fail = (problem: string, expected: string, received: string, hint: string): never => {
    throw new ReactorError(ErrorCodes.TOOL_INVALID, {
      subject: `tool ${typeof spec?.name === 'string' ? JSON.stringify(spec.name) : '(unnamed)'}${of}`,
      problem,
      expected,
      received,
      hint,
      ...(extension === undefined ? {} : { extension }),
    });
  };
  if (typeof spec !== 'object' || spec === null) {
    fail('is not a tool spec', 'an object with name, description and handler', describeValue(spec), 'build tools with defineTool({ name, description, handler })');
  }
  if (typeof spec.name !== 'string' || !TOOL_NAME_PATTERN.test(spec.name)) {
    fail(
      'has an invalid name',
      '1 to 128 characters of A-Z, a-z, 0-9, ".", "_" or "-" (SEP-986)',
      describeValue(spec.name),
      'use snake_case, e.g. "list_spaces"',
    );
  }
  if (typeof spec.description !== 'string' || spec.description.trim() === '') {
    fail('has no description', 'a non-empty string a model can read', describeValue(spec.description), 'say what the tool does and when to use it');
  }
  if (typeof spec.handler !== 'function') {
    fail('has no handler', 'a function (args, ctx) => result', describeValue(spec.handler), 'pass handler: async (args, ctx) => …');
  }
  for (const key of ['inputSchema', 'outputSchema'] as const) {
    const schema = spec[key];
    if (schema === undefined) continue;
    if (!isSchemaLike(schema)) {
      fail(`has an invalid ${key}`, 'a zod object, a zod raw shape or a JSON Schema object', describeValue(schema), 'use z.object({ … })');
    }
    if (isStandardSchema(schema)) continue;
    const values = Object.values(schema);
    const standard = values.filter(isStandardSchema).length;
    if (standard > 0 && standard < values.length) {
      const odd = Object.entries(schema).filter(([, v]) => !isStandardSchema(v)).map(([k]) => `"${k}"`);
      fail(`has an invalid ${key} (it mixes schemas and plain values)`, 'a raw shape whose every field is a schema', `plain values at ${odd.join(', ')}`, 'wrap each field in a schema, e.g. z.number().default(10)');
    }
    // MCP requires object schemas: one tool of another type would break tools/list for every tool.
    if (standard === 0 && values.length > 0 && (schema as { type?: unknown }).type !== 'object') {
      fail(`has an invalid ${key} (not an object schema)`, 'a JSON Schema with type "object"', `type ${describeValue((schema as { type?: unknown }).type)}`, 'MCP tool arguments and structured results are objects: wrap the value in a property');
    }
  }
  if (spec.toolset !== undefined && (typeof spec.toolset !== 'string' || spec.toolset === '')) {
    fail('has an invalid toolset', 'a toolset name', describeValue(spec.toolset), 'leave toolset out to use the extension\'s first toolset');
  }
  if (spec.aliases !== undefined) {
    if (!Array.isArray(spec.aliases)) {
      fail('has invalid aliases', 'an array of former tool names', describeValue(spec.aliases), 'aliases: ["old_name"]');
    }
    const seen = new Set<string>();
    for (const alias of spec.aliases as readonly unknown[]) {
      if (typeof alias !== 'string' || !TOOL_NAME_PATTERN.test(alias)) {
        fail('has an invalid alias', '1 to 128 characters of A-Z, a-z, 0-9, ".", "_" or "-" (SEP-986)', describeValue(alias), 'an alias is a former name of the tool, e.g. "get_benchmark_run"');
      }
      if (alias === spec.name || seen.has(alias as string)) {
        fail('has a repeated alias', 'aliases that differ from each other and from the tool\'s name', JSON.stringify(alias), 'list each former name once');
      }
      seen.add(alias as string);
    }
  }
  if (spec.task !== undefined && !TASK_SUPPORT.includes(spec.task)) {
    fail('has an invalid task', `one of ${TASK_SUPPORT.map((t) => `"${t}"`).join(', ')}`, describeValue(spec.task), 'task: "optional" runs it as a task when the client opts in');
  }
  if (spec.beforeTask !== undefined && typeof spec.beforeTask !== 'function') {
    fail('has an invalid beforeTask', 'a function (args, ctx) => inputRequired(…) | undefined', describeValue(spec.beforeTask), 'leave it out unless the tool asks for input before its task starts');
  }
  if (spec.timeoutMs !== undefined && !isTimeLimit(spec.timeoutMs)) {
    fail('has an invalid timeoutMs', `a positive, finite number of milliseconds up to ${MAX_TIMER_MS}`, describeValue(spec.timeoutMs), 'leave it out to use the host default');
  }
}

/** True for a value that already is a `CallToolResult`: a `content` array of MCP content items. */
export function isCallToolResult(value: unknown): value is CallToolResult {
  if (typeof value !== 'object' || value === null) return false;
  const content = (value as { content?: unknown }).content;
  return Array.isArray(content) && content.every((item) => typeof item === 'object' && item !== null && typeof (item as { type?: unknown }).type === 'string');
}

/**
 * Converts what the outermost handler returned into a `CallToolResult`:
 * a result passes through; an input-required result (`inputRequired({ … })`,
 * the 2026-07-28 multi-round-trip pattern) passes through unchanged too; a
 * string becomes one text item; `undefined` an empty list; any other JSON
 * value a JSON text item — and `structuredContent` too when the tool has an
 * output schema and the value is an object.
 */
export function toCallToolResult(value: unknown, hasOutputSchema: boolean): CallToolResult | InputRequiredResult {
  if (isCallToolResult(value) || isInputRequiredResult(value)) return value;
  if (value === undefined) return { content: [] };
  if (typeof value === 'string') return { content: [{ type: 'text', text: value }] };
  // JSON.stringify answers undefined for functions and symbols: say what they were instead.
  const text = JSON.stringify(value, jsonReplacer) ?? describeValue(value);
  const result: CallToolResult = { content: [{ type: 'text', text }] };
  if (hasOutputSchema) {
    // Judge by the JSON, not the value: a Set, a Date or a toJSON() may not be an object on the wire.
    const parsed: unknown = JSON.parse(text);
    if (typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)) result.structuredContent = parsed;
  }
  return result;
}

// BigInts and Maps are not JSON; render them readably instead of throwing.
function jsonReplacer(_key: string, value: unknown): unknown {
  if (typeof value === 'bigint') return value.toString();
  if (value instanceof Map) return Object.fromEntries(value);
  if (value instanceof Set) return [...value];
  return value;
}

/** The error result a thrown error becomes: its message, never its stack. */
export function toolErrorResult(message: string): CallToolResult {
  return { content: [{ type: 'text', text: message }], isError: true };
}
