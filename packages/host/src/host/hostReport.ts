/**
 * What a host says about itself: `describe()` (what a connection with a given
 * selection would get: `GET /toolsets`, `list_server_toolsets`) and `report()`
 * (every extension's status and every contained problem: `/healthz`).
 */
import { unavailableField, withUnavailable } from '../contract/availability.js';
import type { Unavailable } from '../contract/extension.js';
import type { Problem } from '../kernel/problems.js';
import type { ExtensionRecord, ExtensionState } from './registry/registry.js';
import { orphanToolExtensions, type Conflict } from './build/resolve.js';
import { compareCodePoints } from '../selection/selection.js';
import { describeToolset, type DescribedToolset, type Toolset } from '../contract/toolset.js';
import type { CacheEntry } from './build/cacheTypes.js';
import type { ToolFilter } from '../selection/toolFilter.js';
import type { ToolView } from './build/cacheTypes.js';
import { HOST_VERSION } from '../kernel/version.js';
import { blueprintTokens, type TokenCounter, type ToolTokens } from './tokens.js';

/** What `describe()`, `GET /toolsets` and `list_server_toolsets` answer. */
export interface HostDescription {
  toolsets: DescribedToolset[];
  active: string[];
  tools: string[];
  unknown: string[];
  conflicts: Conflict[];
  /** Who offers each listed tool, who extends it, (when it has any) its deprecated names, and (when it has one) its view's `ui://` URI (MCP Apps). */
  provenance: Record<string, { offeredBy: string; extendedBy: string[]; aliases?: string[]; view?: string }>;
  /** Tool extensions whose target no awake extension offers. */
  unappliedExtensions: Array<{ tool: string; extension: string }>;
  /** Problems the host contained (extensions, tools or hooks left out). */
  problems: Problem[];
  /** Toolsets this caller may not have (its token lacks their scopes); present when any are. */
  denied?: string[];
  /** What the selection's `tools/list` costs a model; present when `describe()` was given a `tokenCounter`. */
  tokens?: ToolTokens;
  /** Present when the selection or the operator narrowed the tools (`tools=`, `exclude_tools=`, read-only). */
  filter?: DescribedToolFilter;
}

/** How a selection's tools were narrowed, as `describe()` reports it. */
export interface DescribedToolFilter {
  /** `tools=`: the names asked for (unknown ones are also under `unknown`). */
  tools?: string[];
  /** `exclude_tools=`: the names left out. */
  excludeTools?: string[];
  /** Only read-only tools are served. */
  readOnly: boolean;
  /** Who asked for read-only: the URL or header, or the operator's bound. */
  readOnlyBy?: 'selection' | 'operator';
  /** What the selection asked that was not obeyed, e.g. `readonly=false` under the operator's bound. */
  ignored?: string[];
}

/** One extension as `report()` lists it. */
export interface ExtensionStatus {
  name: string;
  version: string;
  package?: string;
  state: ExtensionState | 'disabled';
  started: boolean;
  toolsets: string[];
  tools: number;
  activationEvents: string[];
  /** Present when the extension is awake but says it cannot serve (see `availability.ts`). */
  unavailable?: Unavailable;
}

/** What `host.report()` answers: every extension's status and every contained problem. */
export interface HostReport {
  name: string;
  version: string;
  hostVersion: string;
  revision: number;
  ok: boolean;
  extensions: ExtensionStatus[];
  problems: Problem[];
}

/** What `describe()` assembles from. */
export interface DescriptionInput {
  readonly declared: readonly Toolset[];
  readonly active: ReadonlySet<string>;
  readonly unknown: ReadonlySet<string>;
  readonly entry: CacheEntry;
  /** The view a tool filter narrowed the blueprint to, when one did. */
  readonly view: ToolView | undefined;
  /** True when the blueprint serves the host's own `list_server_toolsets`. */
  readonly hostListTool: string | undefined;
  readonly activeRecords: readonly ExtensionRecord[];
  readonly denied: Iterable<string> | undefined;
  readonly problems: Problem[];
  readonly tokenCounter?: TokenCounter | undefined;
}

export function describeFrom(input: DescriptionInput): HostDescription {
  const { entry, view } = input;
  const blueprint = view?.blueprint ?? entry.blueprint;
  const listed = new Set(blueprint.tools.map((t) => t.name));
  const aliasesOf = new Map<string, string[]>();
  for (const [alias, name] of blueprint.aliases) aliasesOf.set(name, [...(aliasesOf.get(name) ?? []), alias]);
  const denied = [...new Set(input.denied ?? [])].sort(compareCodePoints);
  const provenance: HostDescription['provenance'] = {};
  for (const offering of entry.offerings) {
    const name = offering.spec.name;
    if (!listed.has(name)) continue;
    const aliases = aliasesOf.get(name);
    const view = offering.spec.view?.uri;
    provenance[name] = { offeredBy: offering.extension, extendedBy: [...offering.extendedBy], ...(aliases ? { aliases: aliases.sort(compareCodePoints) } : {}), ...(view !== undefined ? { view } : {}) };
  }
  if (input.hostListTool !== undefined && listed.has(input.hostListTool)) provenance[input.hostListTool] = { offeredBy: 'host', extendedBy: [] };
  const unknown = view ? new Set([...input.unknown, ...view.unknownTools]) : input.unknown;
  return {
    toolsets: withUnavailable([...input.declared].sort(byName).map((t) => describeToolset(t, input.active.has(t.name))), input.activeRecords),
    active: [...input.active].sort(compareCodePoints),
    tools: [...listed].sort(compareCodePoints),
    unknown: [...unknown].sort(compareCodePoints),
    conflicts: entry.conflicts,
    provenance,
    unappliedExtensions: orphanToolExtensions(input.activeRecords),
    problems: input.problems,
    ...(denied.length > 0 ? { denied } : {}),
    // What the selection serves: with a tool filter, the view's tools only.
    ...(input.tokenCounter ? { tokens: blueprintTokens(blueprint, input.tokenCounter) } : {}),
    ...(blueprint.filter ? { filter: describeFilter(blueprint.filter) } : {}),
  };
}

function describeFilter(filter: ToolFilter): DescribedToolFilter {
  const sorted = (names: ReadonlySet<string>) => [...names].sort(compareCodePoints);
  return {
    ...(filter.tools !== undefined ? { tools: sorted(filter.tools) } : {}),
    ...(filter.excludeTools !== undefined ? { excludeTools: sorted(filter.excludeTools) } : {}),
    readOnly: filter.readOnly,
    ...(filter.readOnlyBy !== undefined ? { readOnlyBy: filter.readOnlyBy } : {}),
    ...(filter.ignored.length > 0 ? { ignored: [...filter.ignored] } : {}),
  };
}

export function reportFrom(host: { name: string; version: string; revision: number }, records: readonly ExtensionRecord[], problems: Problem[]): HostReport {
  return {
    name: host.name,
    version: host.version,
    hostVersion: HOST_VERSION,
    revision: host.revision,
    ok: !records.some((r) => r.state === 'failed'),
    extensions: records.map((r) => ({
      name: r.name,
      version: r.manifest.version,
      ...(r.package !== undefined ? { package: r.package } : {}),
      state: r.disabled ? 'disabled' : r.state,
      started: r.started,
      toolsets: r.declaredToolsets.map((t) => t.name),
      tools: r.contributions?.tools.length ?? 0,
      activationEvents: [...(r.manifest.activationEvents ?? [])],
      ...unavailableField(r.state === 'active' ? r.instance : undefined),
    })),
    problems,
  };
}

const byName = (a: { name: string }, b: { name: string }) => compareCodePoints(a.name, b.name);
