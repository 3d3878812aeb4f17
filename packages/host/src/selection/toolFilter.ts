/**
 * Per-tool selection: `tools=`, `exclude_tools=` and `readonly` narrow what a
 * selection's active toolsets serve, and an operator's read-only bound narrows
 * every request. A filter never activates a toolset and never builds a new
 * blueprint: it is a view over the blueprint of the active toolsets, keyed by
 * {@link toolFilterKey} so equal filters share one view.
 *
 * Pure and total, like the grammar: filters come from untrusted input.
 */
import { compareCodePoints, type Selection } from './selection.js';

/** What a request's per-tool selection, with the operator's bound applied, asks of the tools. */
export interface ToolFilter {
  /** Serve only these (names or aliases) of the active toolsets' tools; `undefined`: every one. */
  readonly tools: ReadonlySet<string> | undefined;
  /** Leave these out. */
  readonly excludeTools: ReadonlySet<string> | undefined;
  /** Serve only tools whose final annotations say `readOnlyHint: true`. */
  readonly readOnly: boolean;
  /** Why read-only applies: the URL or header asked, or the operator imposed it. */
  readonly readOnlyBy: 'selection' | 'operator' | undefined;
  /** What the selection asked that was not obeyed (today: `readonly=false` against an operator's bound). */
  readonly ignored: readonly string[];
}

/** The tools a filter keeps (by their served names) and the names it used that match none. */
export interface FilteredTools<T> {
  readonly kept: T[];
  /** Names in `tools=` or `exclude_tools=` that are neither a served tool nor one of its aliases. */
  readonly unknown: ReadonlySet<string>;
}

/** The least a filter needs of a served tool. */
export interface FilterableTool {
  readonly name: string;
  readonly spec: { readonly aliases?: readonly string[]; readonly annotations?: { readonly readOnlyHint?: boolean } };
}

/**
 * The filter a selection asks for under an operator's bound, or `undefined`
 * when it narrows nothing (the common case: the blueprint is served whole).
 * `readonly=false` never loosens `operatorReadOnly`; it is recorded in `ignored`.
 */
export function toolFilterOf(selection: Selection, operatorReadOnly = false): ToolFilter | undefined {
  const readOnly = operatorReadOnly || selection.readonly === true;
  // Asked on every build: the common case returns before making anything (an ignored `readonly=false` implies `readOnly`).
  if (selection.tools === undefined && selection.excludeTools === undefined && !readOnly) return undefined;
  const ignored = operatorReadOnly && selection.readonly === false ? ['readonly=false'] : [];
  return {
    tools: selection.tools,
    excludeTools: selection.excludeTools,
    readOnly,
    readOnlyBy: operatorReadOnly ? 'operator' : readOnly ? 'selection' : undefined,
    ignored,
  };
}

/**
 * The identity of a filter: equal keys keep the same tools of any blueprint and
 * report the same (who imposed read-only, what was ignored), however the
 * selection was written.
 */
export function toolFilterKey(filter: ToolFilter): string {
  const names = (set: ReadonlySet<string> | undefined) => (set === undefined ? '*' : [...set].sort(compareCodePoints).join(','));
  return [names(filter.tools), names(filter.excludeTools), filter.readOnly ? 'ro' : 'rw', filter.readOnlyBy ?? '', filter.ignored.join(',')].join('\u0000');
}

/**
 * Applies a filter to a blueprint's tools, in their order. A name in `tools=`
 * or `exclude_tools=` may be a tool's alias (a saved URL keeps working after a
 * rename). Tools named in `keep` (the host's own `list_server_toolsets`) are
 * never removed.
 */
export function applyToolFilter<T extends FilterableTool>(tools: readonly T[], filter: ToolFilter, keep: ReadonlySet<string> = new Set()): FilteredTools<T> {
  const byName = new Map<string, string>();
  for (const tool of tools) {
    byName.set(tool.name, tool.name);
    for (const alias of tool.spec.aliases ?? []) if (!byName.has(alias)) byName.set(alias, tool.name);
  }
  const unknown = new Set<string>();
  const resolve = (names: ReadonlySet<string> | undefined): Set<string> | undefined => {
    if (names === undefined) return undefined;
    const resolved = new Set<string>();
    for (const name of names) {
      const real = byName.get(name);
      if (real === undefined) unknown.add(name);
      else resolved.add(real);
    }
    return resolved;
  };
  const wanted = resolve(filter.tools);
  const excluded = resolve(filter.excludeTools);
  const kept = tools.filter((tool) => {
    if (keep.has(tool.name)) return true;
    if (wanted !== undefined && !wanted.has(tool.name)) return false;
    if (excluded?.has(tool.name) === true) return false;
    // A tool that says nothing about it counts as not read-only: only an explicit hint is trusted.
    return !filter.readOnly || tool.spec.annotations?.readOnlyHint === true;
  });
  return { kept, unknown };
}
