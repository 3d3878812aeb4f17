/**
 * Blueprint assembly: from the awake extensions' resolved offerings to
 * everything the servers of one (tenant, set of active toolsets) share —
 * served tools (collisions settled, schemas converted once per offering),
 * the rendered `tools/list`, resources, prompts, instructions and the
 * extensions whose `onServer` participates. Runs on a cache miss only.
 */
import { ErrorCodes } from '../../kernel/errors.js';
import type { Logger } from '../../kernel/logger.js';
import type { ProblemLog } from '../../kernel/problems.js';
import type { ExtensionRecord } from '../registry/registry.js';
import type { PromptSpec, ResourceSpec } from '../../contract/resource.js';
import { offeringFor, selectOfferings, type Offering } from './resolve.js';
import type { HostStats } from '../../kernel/stats.js';
import { LIST_SERVER_TOOLSETS, renderToolList, type Blueprint, type ServedTool } from './blueprint.js';
import { firstOffered, reportToolConflicts } from './collisions.js';
import type { CacheEntry } from './cacheTypes.js';
import { composeMiddleware, MIDDLEWARE_METHODS, type MiddlewareOfExtension } from '../../contract/middleware.js';
import { servedAlias } from './toolAlias.js';
import type { BlueprintMiddleware, Offered } from './blueprint.js';
import { viewResources } from './views.js';

/** What assembling one blueprint needs. */
export interface AssemblyInput {
  readonly key: string;
  readonly tenant: string | undefined;
  readonly revision: number;
  readonly active: ReadonlySet<string>;
  readonly instructions: string;
  /** Every offering of the tenant's awake extensions (tool extensions applied). */
  readonly offerings: readonly Offering[];
  /** The tenant's active extension records, in registration order. */
  readonly records: readonly ExtensionRecord[];
  /** The host's `list_server_toolsets`, when it serves one. */
  readonly listTool: ServedTool | undefined;
  /** The dynamic-toolset tools, for a dynamic blueprint (`?dynamic`). */
  readonly dynamicTools?: readonly ServedTool[] | undefined;
  /** The served tool of an offering (memoised by the cache); throws for a schema that cannot be served. */
  readonly serve: (offering: Offering) => ServedTool;
  readonly problems: ProblemLog;
  readonly logger: Logger;
  readonly stats: HostStats;
}

export function assembleBlueprint(input: AssemblyInput): CacheEntry {
  const { active, problems, logger } = input;
  input.stats.blueprints++;
  const selected = selectOfferings(input.offerings, active);
  const conflicts = selected.conflicts;
  // `when: 'active'` tool extensions apply per build: the served variant, made once per combination.
  const served = selected.served.flatMap((o) => offeringFor(o, active, problems, logger) ?? []);
  reportToolConflicts(conflicts, problems, logger);
  const tools: ServedTool[] = [];
  for (const offering of served) {
    try {
      tools.push(input.serve(offering));
    } catch (error) {
      // A schema that cannot be served costs that tool only.
      problems.reportError(logger, error, ErrorCodes.TOOL_INVALID, 'build', { extension: offering.extension, subject: offering.spec.name }, { fields: { tool: offering.spec.name } });
    }
  }
  if (input.listTool) {
    if (tools.some((t) => t.name === LIST_SERVER_TOOLSETS)) {
      logger.warn({ tool: LIST_SERVER_TOOLSETS }, `an extension offers its own "${LIST_SERVER_TOOLSETS}"; it is served instead of the host's`);
    } else tools.push(input.listTool);
  }
  for (const tool of input.dynamicTools ?? []) {
    if (tools.some((t) => t.name === tool.name)) {
      logger.warn({ tool: tool.name }, `an extension offers its own "${tool.name}"; it is served instead of the host's dynamic-toolset tool`);
    } else tools.push(tool);
  }
  const aliased = indexWithAliases(tools, problems, logger);
  const offered = <T>(pick: (r: ExtensionRecord) => ReadonlyArray<T & { toolset: string }>) =>
    input.records.flatMap((r) => pick(r).filter((x) => active.has(x.toolset)).map((spec) => ({ extension: r.name, spec })));
  const blueprint: Blueprint = {
    key: input.key,
    tenant: input.tenant,
    revision: input.revision,
    toolsets: active,
    instructions: input.instructions,
    tools,
    toolIndex: aliased.index,
    aliases: aliased.aliases,
    listResult: renderToolList(tools, input.stats),
    // A served tool's view is a resource of its blueprint, ahead of the extensions' own: the tool links to
    // its URI, so a resource another extension declares there by hand cannot take the view's place.
    resources: firstOffered<ResourceSpec, Offered<ResourceSpec>>('resource', [...viewResources(tools, problems, logger), ...offered<ResourceSpec>((r) => r.contributions?.resources ?? [])], (s: ResourceSpec) => s.uri ?? s.template ?? s.name, problems, logger),
    prompts: firstOffered<PromptSpec>('prompt', offered<PromptSpec>((r) => r.contributions?.prompts ?? []), (s) => s.name, problems, logger),
    participants: participantsOf(input.records, active),
    middleware: middlewareOf(input.records, active),
    ...(input.dynamicTools ? { dynamic: true } : {}),
  };
  return { blueprint, conflicts, offerings: served };
}

/**
 * Whether an extension participates in a blueprint: it declares an active
 * toolset or contributed a tool, resource or prompt in one. Participants'
 * `onServer` hooks run on its servers and their middleware wraps its requests.
 */
function participates(r: ExtensionRecord, active: ReadonlySet<string>): boolean {
  const c = r.contributions;
  return (
    (c?.toolsets ?? []).some((t) => active.has(t.name)) ||
    // Contributed, not only served: an extension whose tool lost a collision still participates.
    (c?.tools ?? []).some((t) => active.has(t.toolset)) ||
    (c?.resources ?? []).some((x) => active.has(x.toolset)) ||
    (c?.prompts ?? []).some((x) => active.has(x.toolset))
  );
}

/** The extensions whose `onServer` runs on this blueprint's servers, in registration order. */
function participantsOf(records: readonly ExtensionRecord[], active: ReadonlySet<string>): Blueprint['participants'] {
  return records
    .filter((r) => typeof r.instance?.onServer === 'function' && participates(r, active))
    .flatMap((r) => (r.instance ? [{ name: r.name, extension: r.instance, logger: r.logger }] : []));
}

/** The participants' middleware, composed once per method for this blueprint. */
function middlewareOf(records: readonly ExtensionRecord[], active: ReadonlySet<string>): BlueprintMiddleware {
  const layers: MiddlewareOfExtension[] = [];
  records.forEach((r, registrationIndex) => {
    if (!participates(r, active)) return;
    for (const middleware of r.contributions?.middleware ?? []) layers.push({ extension: r.name, registrationIndex, middleware });
  });
  if (layers.length === 0) return {};
  const chains: Record<string, unknown> = {};
  for (const method of MIDDLEWARE_METHODS) {
    const chain = composeMiddleware(layers, method);
    if (chain) chains[method] = chain;
  }
  return chains;
}

/**
 * The served tools by name, plus each tool's deprecated names (callable,
 * never listed). An alias that names another served tool, or an alias already
 * taken, is a collision: the real tool (or the first alias) wins, reported.
 */
function indexWithAliases(tools: readonly ServedTool[], problems: ProblemLog, logger: Logger): { index: Map<string, ServedTool>; aliases: Map<string, string> } {
  const index = new Map(tools.map((t) => [t.name, t]));
  const aliases = new Map<string, string>();
  for (const tool of tools) {
    for (const alias of tool.spec.aliases ?? []) {
      const taken = index.get(alias);
      if (taken) {
        const message = `alias "${alias}" of tool "${tool.name}" (extension "${tool.extension}") is also the name of ${aliases.has(alias) ? `an alias of tool "${taken.name}"` : `tool "${taken.name}" (extension "${taken.extension}")`}; "${taken.name}" keeps the name and the alias is not served; hint: drop the alias, or rename one of the tools`;
        problems.add({ code: ErrorCodes.TOOL_CONFLICT, extension: tool.extension, subject: alias, message, phase: 'build' });
        logger.warn({ code: ErrorCodes.TOOL_CONFLICT, extension: tool.extension, tool: tool.name, alias }, message);
        continue;
      }
      index.set(alias, servedAlias(tool, alias, logger));
      aliases.set(alias, tool.name);
    }
  }
  return { index, aliases };
}
