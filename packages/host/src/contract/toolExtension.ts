/**
 * Extending another extension's tool (`mcp.tools::<name>`): wrap its handler,
 * replace its schemas, texts and annotations (or derive the description and
 * output schema from the tool's own), merge its meta. Applied in a
 * declared order — by `order`, then by the extending extension's registration
 * order — and fail closed: a tool whose extension fails is left out, never
 * served half-extended.
 */
import type { ToolAnnotations } from '@modelcontextprotocol/server';
import { describeValue, ErrorCodes, errorMessage, ReactorError } from '../kernel/errors.js';
import { isSchemaLike, type SchemaLike } from './schema.js';
import type { ToolHandler, ToolSpec } from './tool.js';

/** A handler as a wrapper sees it: args already validated, result not yet converted. */
export type AnyToolHandler = ToolHandler<Record<string, unknown>>;

/** What `toolExtensions()` pairs with a target tool name. */
export interface ToolExtension {
  /** Returns the new handler; may call `original` (narrow, guard, reshape) or not (replace). */
  wrap?(original: AnyToolHandler): AnyToolHandler;
  /** Replaces the input schema (a wrapper that fills an argument in removes it here). */
  readonly inputSchema?: SchemaLike;
  /**
   * Replaces the output schema — or, as a function, derives it from the tool's
   * own (as the extensions applied before left it; undefined when it has none):
   * `(original) => original.extend({ … })` keeps every field the offering
   * extension declares, so the two cannot drift apart.
   */
  readonly outputSchema?: SchemaLike | DeriveOutputSchema;
  /** Replaces the title a client shows. */
  readonly title?: string;
  /**
   * Replaces the description a model reads — or, as a function, derives it
   * from the tool's own: `(original) => `${original} …``.
   */
  readonly description?: string | ((original: string) => string);
  /** Replaces the annotations whole. */
  readonly annotations?: ToolAnnotations;
  /** Shallow-merged over the tool's own `meta` (this extension wins). */
  readonly meta?: Record<string, unknown>;
  /** Lower applies first; the last applied is outermost. Default 0. */
  readonly order?: number;
  /**
   * `'always'` (the default): applied wherever the tool is served. `'active'`:
   * applied only in builds where one of the extending extension's own toolsets
   * is active — for an extension that points the model at tools of its own,
   * which are not served otherwise.
   */
  readonly when?: 'active' | 'always';
}

/**
 * Derives a tool's output schema from its own (undefined when it has none);
 * returning undefined leaves the tool without one.
 */
export type DeriveOutputSchema = (original: SchemaLike | undefined) => SchemaLike | undefined;

/** A tool extension with who offered it and where it stands in registration order. */
export interface ExtensionOfTool {
  readonly extension: string;
  readonly registrationIndex: number;
  readonly toolExtension: ToolExtension;
  /** The extending extension's toolsets (what `when: 'active'` looks for). */
  readonly toolsets?: readonly string[];
}

/** Sorts extensions of one tool into application order (first applied first). */
export function applicationOrder(extensions: readonly ExtensionOfTool[]): ExtensionOfTool[] {
  return [...extensions].sort(
    (a, b) => (a.toolExtension.order ?? 0) - (b.toolExtension.order ?? 0) || a.registrationIndex - b.registrationIndex,
  );
}

/**
 * Applies a tool's extensions in order and returns the extended spec. Throws a
 * {@link ReactorError} (`REACTOR_TOOL_EXTENSION_FAILED`) naming the tool and the
 * extension when one throws or `wrap` returns a non-function; the caller then
 * leaves the tool out. `name` and `toolset` never change.
 */
export function applyToolExtensions<T extends ToolSpec<Record<string, unknown>>>(spec: T, extensions: readonly ExtensionOfTool[]): T {
  let current: ToolSpec<Record<string, unknown>> = spec;
  for (const { extension, toolExtension } of applicationOrder(extensions)) {
    try {
      current = applyOne(current, toolExtension);
    } catch (error) {
      throw new ReactorError(ErrorCodes.TOOL_EXTENSION_FAILED, {
        subject: `tool "${spec.name}" extended by extension "${extension}"`,
        problem: `the tool extension failed, so the tool is left out of this build (${errorMessage(error)})`,
        hint: `fix extension "${extension}"'s toolExtensions() entry for "${spec.name}"; wrap must return a function`,
        extension,
        cause: error,
      });
    }
  }
  return current as T;
}

function applyOne(spec: ToolSpec<Record<string, unknown>>, ext: ToolExtension): ToolSpec<Record<string, unknown>> {
  let handler = spec.handler;
  if (ext.wrap !== undefined) {
    if (typeof ext.wrap !== 'function') throw new Error(`wrap is ${describeValue(ext.wrap)}, not a function`);
    const wrapped: unknown = ext.wrap(spec.handler);
    if (typeof wrapped !== 'function') throw new Error(`wrap returned ${describeValue(wrapped)}, expected a function`);
    handler = wrapped as AnyToolHandler;
  }
  const outputSchema = ext.outputSchema === undefined ? spec.outputSchema : derivedSchema(ext.outputSchema, spec.outputSchema);
  const { outputSchema: _previous, ...rest } = spec;
  return {
    ...rest,
    handler,
    ...(ext.inputSchema !== undefined ? { inputSchema: ext.inputSchema } : {}),
    ...(outputSchema !== undefined ? { outputSchema } : {}),
    ...(ext.title !== undefined ? { title: ext.title } : {}),
    ...(ext.description !== undefined ? { description: derivedDescription(ext.description, spec.description) } : {}),
    ...(ext.annotations !== undefined ? { annotations: ext.annotations } : {}),
    ...(ext.meta !== undefined ? { meta: { ...spec.meta, ...ext.meta } } : {}),
    // Never changeable by an extension:
    name: spec.name,
    ...(spec.toolset !== undefined ? { toolset: spec.toolset } : {}),
  };
}

// A function is a deriver unless it carries the Standard Schema key (arktype's types are callable).
function derivedSchema(given: SchemaLike | DeriveOutputSchema, original: SchemaLike | undefined): SchemaLike | undefined {
  if (typeof given !== 'function' || '~standard' in given) return given as SchemaLike;
  const derived: unknown = given(original);
  if (derived !== undefined && !isSchemaLike(derived)) throw new Error(`outputSchema(original) returned ${describeValue(derived)}, expected a schema (or undefined for none)`);
  return derived;
}

function derivedDescription(given: string | ((original: string) => string), original: string): string {
  if (typeof given !== 'function') return given;
  const derived: unknown = given(original);
  if (typeof derived !== 'string' || derived.trim() === '') throw new Error(`description(original) returned ${describeValue(derived)}, expected a non-empty string`);
  return derived;
}
