/**
 * Deprecated tool names (`ToolSpec.aliases`): a renamed tool keeps answering
 * to its old names for a while, so agents and saved prompts do not break
 * overnight. An alias is callable, never listed; each call logs a deprecation
 * warning naming the new tool and marks the result's `_meta`.
 */
import type { ServedTool } from './blueprint.js';
import type { Logger } from '../../kernel/logger.js';

/** The `_meta` key an alias call's result carries. */
export const DEPRECATED_NAME_META = 'reactor/deprecated-name';

/** What {@link DEPRECATED_NAME_META} holds. */
export interface DeprecatedNameHint {
  /** The name the client called. */
  readonly calledAs: string;
  /** The tool's current name: call this instead. */
  readonly use: string;
  /** A sentence a model can act on. */
  readonly message: string;
}

/**
 * The served form of `alias` for `tool`: the same call, a warning in the log
 * and a hint in the result. The tool's own list entry is untouched.
 */
export function servedAlias(tool: ServedTool, alias: string, logger: Logger): ServedTool {
  const message = `Tool "${alias}" was renamed to "${tool.name}"; the old name still works for now but will be removed: call "${tool.name}" instead.`;
  const hint: DeprecatedNameHint = { calledAs: alias, use: tool.name, message };
  const log = logger.child({ extension: tool.extension, tool: tool.name });
  return {
    ...tool,
    invoke: async (args, ctx, connection) => {
      log.warn({ alias, use: tool.name }, `deprecated tool name "${alias}" called; extension "${tool.extension}" renamed it to "${tool.name}"`);
      const result = await tool.invoke(args, ctx, connection);
      return { ...result, _meta: { ...result._meta, [DEPRECATED_NAME_META]: hint } };
    },
  };
}
