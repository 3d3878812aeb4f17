/**
 * Collisions: two extensions offering the same tool name, resource URI (or
 * template) or prompt name in one build. The first registered is served; every
 * other party is named in a problem and a warning, never dropped silently.
 */
import { ErrorCodes } from '../../kernel/errors.js';
import type { Logger } from '../../kernel/logger.js';
import type { ProblemLog } from '../../kernel/problems.js';
import type { Conflict } from './resolve.js';

/** Records and logs the tool conflicts `selectOfferings` found. */
export function reportToolConflicts(conflicts: readonly Conflict[], problems: ProblemLog, logger: Logger): void {
  for (const conflict of conflicts) {
    const message = `tool "${conflict.tool}" is offered by extensions ${[conflict.served, ...conflict.ignored].map((e) => `"${e}"`).join(', ')}; "${conflict.served}" (registered first) is served, the others are left out; hint: rename one of the tools, or extend it with toolExtensions() instead of offering it again`;
    problems.report(logger, { code: ErrorCodes.TOOL_CONFLICT, subject: conflict.tool, message, phase: 'build' }, { level: 'warn', fields: { tool: conflict.tool, served: conflict.served, ignored: conflict.ignored } });
  }
}

/**
 * Resources (by URI or template) and prompts (by name) collide like tools: the
 * first registered is served, and the others are reported. A tool's view comes
 * first among resources, so it is the one served at its URI.
 */
export function firstOffered<T, O extends { extension: string; spec: T } = { extension: string; spec: T }>(
  kind: 'resource' | 'prompt',
  items: O[],
  keyOf: (spec: T) => string,
  problems: ProblemLog,
  logger: Logger,
): O[] {
  const first = new Map<string, O>();
  for (const item of items) {
    const key = keyOf(item.spec);
    const winner = first.get(key);
    if (!winner) {
      first.set(key, item);
      continue;
    }
    const code = kind === 'resource' ? ErrorCodes.RESOURCE_INVALID : ErrorCodes.PROMPT_INVALID;
    const viewOf = (winner as { forTools?: readonly string[] }).forTools;
    const message = viewOf !== undefined
      ? `resource "${key}" of extension "${item.extension}" is at the URI of the view of tool "${viewOf[0]}" (extension "${winner.extension}"); the view is served there (its tool links to it), the resource is left out; hint: give the resource another URI, or attach it to its tool with defineView({ uri, html })`
      : `${kind} "${key}" is offered by extensions "${winner.extension}" and "${item.extension}"; "${winner.extension}" (registered first) is served, the other is left out; hint: give one of them another ${kind === 'resource' ? 'URI' : 'name'}`;
    problems.report(logger, { code, extension: item.extension, subject: key, message, phase: 'build' }, { level: 'warn', fields: { served: winner.extension, [kind]: key } });
  }
  return [...first.values()];
}
