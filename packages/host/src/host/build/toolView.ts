/**
 * Narrowed views: what `tools=`, `exclude_tools=` and read-only serve of a
 * blueprint. A view shares everything with its blueprint — served tools,
 * converted schemas, resources, prompts, hooks, middleware — and owns only its
 * tool list (rendered once) and index. Views are cached on their blueprint's
 * cache entry by filter key (bounded), so a repeated filter resolves, converts
 * and renders nothing, and a new filter builds no blueprint.
 */
import { DYNAMIC_TOOLSET_TOOLS, LIST_SERVER_TOOLSETS, renderToolList, type Blueprint, type ServedTool } from './blueprint.js';
import type { CacheEntry, ToolView } from './cacheTypes.js';
import { LruCache } from '../../kernel/lruCache.js';
import type { HostStats } from '../../kernel/stats.js';
import { applyToolFilter, toolFilterKey, type ToolFilter } from '../../selection/toolFilter.js';
import { resourcesForTools } from './views.js';

/** How many distinct filters one blueprint keeps views for; the least recently used go first. */
export const MAX_VIEWS_PER_BLUEPRINT = 32;

// The host's own list tool (and the dynamic-toolset tools) are never filtered out: they are how a model learns what it can select.
const ALWAYS_KEPT: ReadonlySet<string> = new Set([LIST_SERVER_TOOLSETS, ...DYNAMIC_TOOLSET_TOOLS]);

/** The view of `entry`'s blueprint for `filter`, from the entry's cache or made now. */
export function viewOf(entry: CacheEntry, filter: ToolFilter, stats: HostStats): ToolView {
  entry.views ??= new LruCache<string, ToolView>(MAX_VIEWS_PER_BLUEPRINT);
  return entry.views.getOrCreate(toolFilterKey(filter), () => narrow(entry.blueprint, filter, stats));
}

function narrow(blueprint: Blueprint, filter: ToolFilter, stats: HostStats): ToolView {
  stats.views++;
  const { kept, unknown } = applyToolFilter(blueprint.tools, filter, ALWAYS_KEPT);
  const keptNames = new Set(kept.map((t) => t.name));
  // Aliases follow their tool: callable in the view exactly when the tool is served in it.
  const toolIndex = new Map<string, ServedTool>();
  for (const [name, tool] of blueprint.toolIndex) if (keptNames.has(tool.name)) toolIndex.set(name, tool);
  const aliases = new Map<string, string>();
  for (const [alias, name] of blueprint.aliases) if (keptNames.has(name)) aliases.set(alias, name);
  return {
    // A tool's view (MCP Apps) goes with it.
    blueprint: { ...blueprint, tools: kept, toolIndex, aliases, listResult: renderToolList(kept, stats), resources: resourcesForTools(blueprint.resources, keptNames), filter },
    unknownTools: unknown,
  };
}
