/**
 * What every spaces tool shares: truthful annotations and the argument
 * schemas that recur.
 */
import { defineTool, type InferSchema, type SchemaLike, type ToolAnnotations, type ToolContext, type ToolDefinition, type ToolSpec } from '@reactor/host';
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

/** A tool spec whose handler keeps its result type (a plain `ToolSpec`'s handler returns `unknown`). */
export type SpacesTool<S extends SchemaLike, O> = Omit<ToolSpec<InferSchema<S>>, 'handler'> & {
  readonly handler: (args: InferSchema<S>, ctx: ToolContext) => Promise<O>;
};

/**
 * `defineTool`, keeping the handler's result type so callers — tests, and
 * extensions that wrap these tools — read typed results without casting.
 */
export function defineSpacesTool<S extends SchemaLike, O>(
  definition: Omit<ToolDefinition<S>, 'handler'> & { readonly inputSchema: S; readonly handler: (args: InferSchema<S>, ctx: ToolContext) => Promise<O> },
): SpacesTool<S, O> {
  return defineTool<S>(definition) as SpacesTool<S, O>;
}

/**
 * A camelCase argument name of 1.0 (`maxResults`, `caseSensitive`,
 * `includeOutputs`), still accepted for one release beside its snake_case
 * replacement, which wins when both are given. Optional, and marked deprecated
 * in the schema a client lists.
 */
export function deprecatedName<T extends z.ZodType>(schema: T, replacement: string) {
  return schema.optional().describe(`Deprecated: use ${replacement}. This name is accepted until the next major release.`);
}
