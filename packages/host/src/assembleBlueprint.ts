/**
 * Blueprint assembly: from the awake extensions' resolved offerings to
 * everything the servers of one (tenant, set of active toolsets) share —
 * served tools (collisions settled, schemas converted once per offering),
 * the rendered `tools/list`, resources, prompts, instructions and the
 * extensions whose `onServer` participates. Runs on a cache miss only.
 */
import { ErrorCodes } from './errors.js';
import type { Logger } from './logger.js';
import type { ProblemLog } from './problems.js';
import type { ExtensionRecord } from './registry.js';
import type { PromptSpec, ResourceSpec } from './resource.js';
import { selectOfferings, type Offering } from './resolve.js';
import type { HostStats } from './stats.js';
import { renderToolList, type Blueprint, type ServedTool } from './blueprint.js';
import { firstOffered, reportToolConflicts } from './collisions.js';
import type { CacheEntry } from './hostCache.js';
import { LIST_SERVER_TOOLSETS } from './listToolsets.js';

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
  /** The served tool of an offering (memoised by the cache); throws for a schema that cannot be served. */
  readonly serve: (offering: Offering) => ServedTool;
  readonly problems: ProblemLog;
  readonly logger: Logger;
  readonly stats: HostStats;
}

export function assembleBlueprint(input: AssemblyInput): CacheEntry {
  const { active, problems, logger } = input;
  input.stats.blueprints++;
  const { served, conflicts } = selectOfferings(input.offerings, active);
  reportToolConflicts(conflicts, problems, logger);
  const tools: ServedTool[] = [];
  for (const offering of served) {
    try {
      tools.push(input.serve(offering));
    } catch (error) {
      // A schema that cannot be served costs that tool only.
      const problem = problems.addError(error, ErrorCodes.TOOL_INVALID, 'build', offering.extension, offering.spec.name);
      logger.error({ code: problem.code, extension: offering.extension, tool: offering.spec.name }, problem.message);
    }
  }
  if (input.listTool) {
    if (tools.some((t) => t.name === LIST_SERVER_TOOLSETS)) {
      logger.warn({ tool: LIST_SERVER_TOOLSETS }, `an extension offers its own "${LIST_SERVER_TOOLSETS}"; it is served instead of the host's`);
    } else tools.push(input.listTool);
  }
  const offered = <T>(pick: (r: ExtensionRecord) => ReadonlyArray<T & { toolset: string }>) =>
    input.records.flatMap((r) => pick(r).filter((x) => active.has(x.toolset)).map((spec) => ({ extension: r.name, spec })));
  const blueprint: Blueprint = {
    key: input.key,
    tenant: input.tenant,
    revision: input.revision,
    toolsets: active,
    instructions: input.instructions,
    tools,
    toolIndex: new Map(tools.map((t) => [t.name, t])),
    listResult: renderToolList(tools, input.stats),
    resources: firstOffered('resource', offered<ResourceSpec>((r) => r.contributions?.resources ?? []), (s) => s.uri ?? s.template ?? s.name, problems, logger),
    prompts: firstOffered('prompt', offered<PromptSpec>((r) => r.contributions?.prompts ?? []), (s) => s.name, problems, logger),
    participants: participantsOf(input.records, active),
  };
  return { blueprint, conflicts, offerings: served };
}

/**
 * The extensions whose `onServer` runs on this blueprint's servers: those that
 * declare an active toolset or contributed a tool, resource or prompt in one.
 */
function participantsOf(records: readonly ExtensionRecord[], active: ReadonlySet<string>): Blueprint['participants'] {
  return records
    .filter((r) => typeof r.instance?.onServer === 'function')
    .filter((r) => {
      const c = r.contributions;
      return (
        (c?.toolsets ?? []).some((t) => active.has(t.name)) ||
        // Contributed, not only served: an extension whose tool lost a collision still participates.
        (c?.tools ?? []).some((t) => active.has(t.toolset)) ||
        (c?.resources ?? []).some((x) => active.has(x.toolset)) ||
        (c?.prompts ?? []).some((x) => active.has(x.toolset))
      );
    })
    .flatMap((r) => (r.instance ? [{ name: r.name, extension: r.instance, logger: r.logger }] : []));
}
