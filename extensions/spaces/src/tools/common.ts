/**
 * What every spaces tool shares: truthful annotations and the argument
 * schemas that recur.
 */
import type { InferSchema, SchemaLike, ToolAnnotations, ToolSpec } from '@reactor/host';
import { z } from 'zod';

/**
 * Every spaces tool only reads local files: it changes nothing (read-only, not
 * destructive), asking twice gives the same answer while the files stay the
 * same (idempotent), and it reaches nothing beyond the configured folders
 * (closed world).
 */
export const READ_ONLY_LOCAL: ToolAnnotations = Object.freeze({
  readOnlyHint: true,
  destructiveHint: false,
  idempotentHint: true,
  openWorldHint: false,
});

/** The `space` argument. */
export const spaceArg = z.string().min(1).describe('The space\'s name, as list_spaces gives it (e.g. "climate-lab").');

/** A path argument: relative to the space. */
export const pathArg = z.string().describe('A path relative to the space, with "/" separators (e.g. "data/results.csv"). ".." and absolute paths are refused.');

/**
 * A spaces tool's spec: `defineTool` keeps the handler's result type, so this
 * is only a name for it.
 * @deprecated Use `ToolSpec<InferSchema<S>, Promise<O>>` (or `ToolResultOf`) from `@reactor/host`.
 */
export type SpacesTool<S extends SchemaLike, O> = ToolSpec<InferSchema<S>, Promise<O>>;

/**
 * A camelCase argument name of 1.0 (`maxResults`, `caseSensitive`,
 * `includeOutputs`), still accepted for one release beside its snake_case
 * replacement, which wins when both are given. Optional, and marked deprecated
 * in the schema a client lists.
 */
export function deprecatedName<T extends z.ZodType>(schema: T, replacement: string) {
  return schema.optional().describe(`Deprecated: use ${replacement}. This name is accepted until the next major release.`);
}
