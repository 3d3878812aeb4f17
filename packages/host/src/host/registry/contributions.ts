/**
 * Contributions: what an extension declares (its toolsets, readable before it
 * is imported) and what it contributes once active (tools, tool extensions,
 * resources, prompts), read once, validated item by item.
 */
import { describeValue, ErrorCodes, errorMessage, ReactorError } from '../../kernel/errors.js';
import { isDeferredExtension, type ExtensionInput, type McpExtension } from '../../contract/extension.js';
import { assertValidMiddleware, type Middleware } from '../../contract/middleware.js';
import type { ProblemLog } from '../../kernel/problems.js';
import { assertValidPrompt, assertValidResource, type PromptSpec, type ResourceSpec } from '../../contract/resource.js';
import { assertValidToolSpec, type ToolSpec } from '../../contract/tool.js';
import type { ToolExtension } from '../../contract/toolExtension.js';
import { assertValidToolset, type Toolset } from '../../contract/toolset.js';

/** What an active extension contributes, read once and validated. */
export interface Contributions {
  readonly toolsets: readonly Toolset[];
  /** Tools with `toolset` filled in. */
  readonly tools: ReadonlyArray<ToolSpec<Record<string, unknown>> & { readonly toolset: string }>;
  readonly toolExtensions: ReadonlyArray<readonly [string, ToolExtension]>;
  readonly resources: ReadonlyArray<ResourceSpec & { readonly toolset: string }>;
  readonly prompts: ReadonlyArray<PromptSpec & { readonly toolset: string }>;
  /** Host-wide middleware, applied where the extension participates. */
  readonly middleware: readonly Middleware[];
}

/** The toolsets an extension declares (its own name, on by default, when it declares none). */
export function declaredToolsetsOf(input: ExtensionInput, name: string): Toolset[] {
  let toolsets: unknown;
  if (isDeferredExtension(input)) toolsets = input.toolsets;
  else if (typeof input.toolsets === 'function') {
    try {
      toolsets = input.toolsets();
    } catch (error) {
      throw new ReactorError(ErrorCodes.CONTRIBUTION_FAILED, {
        subject: `extension "${name}"`,
        problem: `toolsets() threw (${errorMessage(error)})`,
        hint: 'toolsets() must be cheap and free of side effects: return a constant array',
        extension: name,
        cause: error,
      });
    }
  }
  if (toolsets === undefined) return [{ name }];
  if (!Array.isArray(toolsets)) {
    throw new ReactorError(ErrorCodes.TOOLSET_INVALID, { subject: `extension "${name}"`, problem: 'toolsets() did not return an array', received: describeValue(toolsets), extension: name });
  }
  // An extension that declares none gets one toolset named after it, on by default.
  if (toolsets.length === 0) return [{ name }];
  const list = toolsets as Toolset[];
  for (const t of list) assertValidToolset(t, name);
  return [...list];
}

/**
 * Reads an extension's contributions. A throwing `tools()`/`resources()`/…
 * costs all of them (none half-made); an individual invalid tool, resource or
 * prompt costs only itself and is reported through `onInvalid`.
 */
export function readContributions(
  ext: McpExtension,
  name: string,
  declared: readonly Toolset[],
  onInvalid: (error: unknown, code: Parameters<ProblemLog['addError']>[1], subject: string | undefined) => void,
): Contributions {
  const call = <T>(point: string, fn: (() => T) | undefined, fallback: T): T => {
    if (fn === undefined) return fallback;
    if (typeof fn !== 'function') throw new ReactorError(ErrorCodes.CONTRIBUTION_FAILED, { subject: `extension "${name}"`, problem: `${point} is not a function`, received: describeValue(fn), extension: name });
    try {
      const value = fn.call(ext);
      if (!Array.isArray(value)) throw new Error(`returned ${describeValue(value)}, expected an array`);
      return value;
    } catch (error) {
      throw new ReactorError(ErrorCodes.CONTRIBUTION_FAILED, {
        subject: `extension "${name}"`,
        problem: `${point}() threw, so none of its contributions are served (${errorMessage(error)})`,
        hint: `fix ${point}() of "${name}"`,
        extension: name,
        cause: error,
      });
    }
  };
  // Re-read: a deferred extension's declaration was checked against its module on import.
  const toolsets = declared.length > 0 && !ext.toolsets ? declared : declaredToolsetsOf(ext, name);
  const home = toolsets[0]?.name ?? name;
  const rawTools = call('tools', ext.tools as (() => ToolSpec<Record<string, unknown>>[]) | undefined, []);
  const toolExtensions = call('toolExtensions', ext.toolExtensions, []);
  const rawResources = call('resources', ext.resources, []);
  const rawPrompts = call('prompts', ext.prompts, []);
  const rawMiddleware = call('middleware', ext.middleware, []);
  const keep = <T>(items: readonly T[], check: (item: T) => void, code: Parameters<ProblemLog['addError']>[1]): T[] =>
    items.filter((item) => {
      try {
        check(item);
        return true;
      } catch (error) {
        const name = (item as { name?: unknown } | null)?.name;
        onInvalid(error, code, typeof name === 'string' ? name : undefined);
        return false;
      }
    });
  const tools = keep(rawTools, (t) => assertValidToolSpec(t as ToolSpec<unknown>, name), ErrorCodes.TOOL_INVALID).map((t) => ({ ...t, toolset: t.toolset ?? home }));
  const validExtensions = keep(toolExtensions, (pair) => {
    if (!Array.isArray(pair) || typeof pair[0] !== 'string' || typeof pair[1] !== 'object' || pair[1] === null) {
      throw new ReactorError(ErrorCodes.CONTRIBUTION_FAILED, { subject: `extension "${name}"`, problem: 'a toolExtensions() entry is not a [toolName, extension] pair', received: describeValue(pair), extension: name });
    }
    const when = (pair[1] as { when?: unknown }).when;
    if (when !== undefined && when !== 'active' && when !== 'always') {
      throw new ReactorError(ErrorCodes.CONTRIBUTION_FAILED, { subject: `extension "${name}"'s extension of tool "${pair[0]}"`, problem: 'has an invalid "when"', expected: '"active" or "always"', received: describeValue(when), extension: name });
    }
  }, ErrorCodes.CONTRIBUTION_FAILED);
  const resources = keep(rawResources, (r) => assertValidResource(r, name), ErrorCodes.RESOURCE_INVALID).map((r) => ({ ...r, toolset: r.toolset ?? home }));
  const prompts = keep(rawPrompts, (p) => assertValidPrompt(p, name), ErrorCodes.PROMPT_INVALID).map((p) => ({ ...p, toolset: p.toolset ?? home }));
  const middleware = keep(rawMiddleware, (m) => assertValidMiddleware(m, name), ErrorCodes.CONTRIBUTION_FAILED);
  return { toolsets, tools, toolExtensions: validExtensions, resources, prompts, middleware };
}
