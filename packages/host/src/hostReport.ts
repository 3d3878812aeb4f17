/**
 * What a host says about itself: `describe()` (what a connection with a given
 * selection would get: `GET /toolsets`, `list_server_toolsets`) and `report()`
 * (every extension's status and every contained problem: `/healthz`).
 */
import type { Problem } from './problems.js';
import type { ExtensionRecord, ExtensionState } from './registry.js';
import { orphanToolExtensions, type Conflict } from './resolve.js';
import { compareCodePoints } from './selection.js';
import { describeToolset, type DescribedToolset, type Toolset } from './toolset.js';
import type { CacheEntry } from './hostCache.js';
import { HOST_VERSION } from './version.js';

/** What `describe()`, `GET /toolsets` and `list_server_toolsets` answer. */
export interface HostDescription {
  toolsets: DescribedToolset[];
  active: string[];
  tools: string[];
  unknown: string[];
  conflicts: Conflict[];
  provenance: Record<string, { offeredBy: string; extendedBy: string[] }>;
  /** Tool extensions whose target no awake extension offers. */
  unappliedExtensions: Array<{ tool: string; extension: string }>;
  /** Problems the host contained (extensions, tools or hooks left out). */
  problems: Problem[];
  /** Toolsets this caller may not have (its token lacks their scopes); present when any are. */
  denied?: string[];
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
  /** True when the blueprint serves the host's own `list_server_toolsets`. */
  readonly hostListTool: string | undefined;
  readonly activeRecords: readonly ExtensionRecord[];
  readonly denied: Iterable<string> | undefined;
  readonly problems: Problem[];
}

export function describeFrom(input: DescriptionInput): HostDescription {
  const { entry } = input;
  const denied = [...new Set(input.denied ?? [])].sort(compareCodePoints);
  const provenance: HostDescription['provenance'] = {};
  for (const offering of entry.offerings) provenance[offering.spec.name] = { offeredBy: offering.extension, extendedBy: [...offering.extendedBy] };
  if (input.hostListTool !== undefined) provenance[input.hostListTool] = { offeredBy: 'host', extendedBy: [] };
  return {
    toolsets: [...input.declared].sort(byName).map((t) => describeToolset(t, input.active.has(t.name))),
    active: [...input.active].sort(compareCodePoints),
    tools: entry.blueprint.tools.map((t) => t.name).sort(compareCodePoints),
    unknown: [...input.unknown].sort(compareCodePoints),
    conflicts: entry.conflicts,
    provenance,
    unappliedExtensions: orphanToolExtensions(input.activeRecords),
    problems: input.problems,
    ...(denied.length > 0 ? { denied } : {}),
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
    })),
    problems,
  };
}

const byName = (a: { name: string }, b: { name: string }) => compareCodePoints(a.name, b.name);
