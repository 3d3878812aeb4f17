/**
 * The selection grammar (spec §3): what one URL, path tail or header asked for,
 * and which toolsets that turns on.
 *
 * Everything here is pure and total: a selection comes from untrusted input on
 * every request, so parsing never throws and its output is bounded by its input.
 *
 * @packageDocumentation
 */
import { decodeFormComponent, encodeName } from './formEncoding.js';

/**
 * What one query string (or path tail, or `X-MCP-Toolsets` header) asked for.
 *
 * Produced by {@link parseSelection}; several are united by {@link mergeSelections}.
 */
export interface Selection {
  /** Names added to the defaults: bare keys (`?geo`) and `toolsets=`. */
  readonly named: ReadonlySet<string>;
  /**
   * Names that replace the defaults and the named ones, or `null` when `only`
   * was never said. An empty set is meaningful: `?only=` serves just the
   * `always` toolsets.
   */
  readonly only: ReadonlySet<string> | null;
  /** Names removed last: `without=` and bare keys with a false value (`?geo=off`). */
  readonly without: ReadonlySet<string>;
  /**
   * True exactly when `named` and `without` are empty and `only` is `null`, so
   * a deployment's `defaultSelection` applies. `?only=` is *not* empty.
   */
  readonly isEmpty: boolean;
  /**
   * `tools=<names>`: serve only these tools of the active toolsets. Absent when
   * the selection never said `tools=` with a name. Narrows; never activates.
   */
  readonly tools?: ReadonlySet<string>;
  /** `exclude_tools=<names>`: tools left out of what the active toolsets serve. Absent when not said. */
  readonly excludeTools?: ReadonlySet<string>;
  /**
   * `readonly` (a flag): `true` serves only tools whose final annotations say
   * `readOnlyHint: true`. `false` records an explicit `readonly=false`, which
   * turns nothing off that an operator imposed (it is reported instead).
   * Absent when not said.
   */
  readonly readonly?: boolean;
  /**
   * `dynamic` (a flag): the session starts with what the rest of the selection
   * turns on plus the three dynamic-toolset tools (`list_available_toolsets`,
   * `get_toolset_tools`, `enable_toolset`), with which the model turns more
   * toolsets on. `false` records an explicit `dynamic=false` (opting out of a
   * deployment that makes sessions dynamic by default). Absent when not said.
   */
  readonly dynamic?: boolean;
}

/**
 * What {@link parseSelection} accepts: a raw query string (with or without its
 * leading `?`), an already-decoded `URLSearchParams`, or nothing at all.
 */
export type SelectionInput = string | URLSearchParams | undefined | null;

/** Options of {@link parseSelection}. */
export interface ParseSelectionOptions {
  /**
   * Keys to skip, compared with the trimmed, decoded key (case-sensitively, like
   * the keywords). For query parameters that are not selections, e.g. `utm_source`
   * or a session token a proxy appends. A single string is taken as one key, not
   * as its characters.
   */
  readonly ignore?: Iterable<string> | undefined;
}

/**
 * The minimal shape {@link activeToolsets} needs of a declared toolset; the host's
 * full `Toolset` type is assignable to it.
 */
export interface ToolsetActivation {
  /** The toolset's name, as written in URLs (case-sensitive). */
  name: string;
  /** On when the URL says nothing about it. Defaults to `true`. */
  default?: boolean;
  /** On whatever the URL says: neither `only=` nor `without=` turns it off. */
  always?: boolean;
}

/** The selection that says nothing: every default and `always` toolset is on. */
export const EMPTY_SELECTION: Selection = Object.freeze({
  named: new Set<string>(),
  only: null,
  without: new Set<string>(),
  isEmpty: true,
});

// Keywords are case-sensitive on purpose: `ONLY=x` names a toolset `ONLY`.
const TOOLSETS = 'toolsets';
const ONLY = 'only';
const WITHOUT = 'without';
// Reserved keys of per-tool selection: they narrow what the toolsets serve and are never toolset names.
const TOOLS = 'tools';
const EXCLUDE_TOOLS = 'exclude_tools';
const READONLY = 'readonly';
// Reserved key of dynamic toolsets: the model turns toolsets on within the session.
const DYNAMIC = 'dynamic';

/** The reserved keys of the grammar: the toolset keywords, the per-tool keys and `dynamic`. */
export const SELECTION_KEYWORDS: readonly string[] = Object.freeze([TOOLSETS, ONLY, WITHOUT, TOOLS, EXCLUDE_TOOLS, READONLY, DYNAMIC]);

// Compared after trimming and lower-casing, so `?geo=OFF` and `?geo= no ` count.
const FALSE_VALUES: ReadonlySet<string> = new Set(['0', 'false', 'off', 'no']);

// `\s` is the same set String.prototype.trim removes, so a name never holds
// whitespace and trimming after the split has nothing left to do but be safe.
const NAME_SEPARATORS = /[\s,]+/;

/** `<names>`: spaces count as commas; split on commas; trim; drop empties. */
function splitNames(value: string): string[] {
  const names: string[] = [];
  for (const part of value.split(NAME_SEPARATORS)) {
    const name = part.trim();
    if (name !== '') names.push(name);
  }
  return names;
}

function isFalseValue(value: string): boolean {
  return FALSE_VALUES.has(value.trim().toLowerCase());
}

function toIgnoreSet(ignore: Iterable<string> | undefined): ReadonlySet<string> {
  if (ignore === undefined || ignore === null) return new Set();
  // A string is iterable too; `ignore: 'token'` means the key, not t, o, k, e, n.
  if (typeof ignore === 'string') return new Set([ignore]);
  return new Set(ignore);
}

/** The per-tool part of a selection, as parsed; `undefined` members were not said. */
interface ToolParts {
  tools: Set<string> | undefined;
  excludeTools: Set<string> | undefined;
  readonly: boolean | undefined;
  dynamic?: boolean | undefined;
}

const NO_TOOL_PARTS: ToolParts = { tools: undefined, excludeTools: undefined, readonly: undefined };

function makeSelection(named: ReadonlySet<string>, only: ReadonlySet<string> | null, without: ReadonlySet<string>, parts: ToolParts = NO_TOOL_PARTS): Selection {
  // The per-tool members are present only when said, so a selection that uses
  // none of them has exactly the shape spec §3 gives.
  return Object.freeze({
    named,
    only,
    without,
    isEmpty: named.size === 0 && only === null && without.size === 0,
    ...(parts.tools !== undefined ? { tools: parts.tools } : {}),
    ...(parts.excludeTools !== undefined ? { excludeTools: parts.excludeTools } : {}),
    ...(parts.readonly !== undefined ? { readonly: parts.readonly } : {}),
    ...(parts.dynamic !== undefined ? { dynamic: parts.dynamic } : {}),
  });
}

function saysNothing(named: ReadonlySet<string>, only: ReadonlySet<string> | null, without: ReadonlySet<string>, parts: ToolParts): boolean {
  return named.size === 0 && only === null && without.size === 0 && parts.tools === undefined && parts.excludeTools === undefined && parts.readonly === undefined && parts.dynamic === undefined;
}

/** `true` wins: one part asking for read-only is enough, whatever another says. */
function unitedReadonly(a: boolean | undefined, b: boolean | undefined): boolean | undefined {
  if (a === undefined) return b;
  if (b === undefined) return a;
  return a || b;
}

/**
 * Parses a selection (spec §3).
 *
 * Pair by pair (split on `&` only; `+` is a space; each key and value is
 * percent-decoded once as UTF-8, invalid bytes becoming U+FFFD; a pair without
 * `=` has value `""`; empty pairs are skipped):
 *
 * 1. the key is trimmed; empty keys and keys in `options.ignore` are skipped;
 * 2. `toolsets=<names>` adds to `named`;
 * 3. `only=<names>` adds to `only` (the first `only`, even empty, makes it a set);
 * 4. `without=<names>` adds to `without`;
 * 5. `tools=<names>` and `exclude_tools=<names>` narrow the tools served (an
 *    empty list says nothing); `readonly` is a flag (a false value records
 *    `readonly: false`, which never loosens an operator's bound);
 * 6. any other key is itself a list of names added to `named` — or to `without`
 *    when its value is false (`0`, `false`, `off`, `no`, any case).
 *
 * `<names>` splits on commas and whitespace and drops empties. A
 * `URLSearchParams` is taken as already decoded; only the key/value rules apply.
 *
 * Never throws, on any input; the total length of all names is at most the
 * length of the input.
 *
 * @example
 * ```ts
 * parseSelection('?benchmarks&only=spaces&geo=off');
 * // { named: {benchmarks}, only: {spaces}, without: {geo}, isEmpty: false }
 * ```
 */
export function parseSelection(query?: SelectionInput, options?: ParseSelectionOptions): Selection {
  const ignore = toIgnoreSet(options?.ignore);
  const named = new Set<string>();
  let only: Set<string> | null = null;
  const without = new Set<string>();
  const parts: ToolParts = { tools: undefined, excludeTools: undefined, readonly: undefined };

  const addPair = (rawKey: string, value: string): void => {
    const key = rawKey.trim();
    if (key === '' || ignore.has(key)) return;
    switch (key) {
      case TOOLSETS:
        for (const name of splitNames(value)) named.add(name);
        return;
      case ONLY:
        only ??= new Set();
        for (const name of splitNames(value)) only.add(name);
        return;
      case WITHOUT:
        for (const name of splitNames(value)) without.add(name);
        return;
      case TOOLS:
      case EXCLUDE_TOOLS: {
        // Unlike `only=`, an empty list says nothing: a blank form field must not hide every tool.
        const names = splitNames(value);
        if (names.length === 0) return;
        const target = key === TOOLS ? (parts.tools ??= new Set()) : (parts.excludeTools ??= new Set());
        for (const name of names) target.add(name);
        return;
      }
      case READONLY:
        // A flag like a bare key: any value but a false one asks for read-only.
        parts.readonly = unitedReadonly(parts.readonly, !isFalseValue(value));
        return;
      case DYNAMIC:
        parts.dynamic = unitedReadonly(parts.dynamic, !isFalseValue(value));
        return;
      default: {
        // The value of a bare key is ignored unless it explicitly says no.
        // (Fix: in the Python host `?geo=false` turned `geo` on.)
        const target = isFalseValue(value) ? without : named;
        for (const name of splitNames(key)) target.add(name);
      }
    }
  };

  if (typeof query === 'string') {
    const text = query.startsWith('?') ? query.slice(1) : query;
    for (const pair of text.split('&')) {
      if (pair === '') continue;
      // Split before decoding, so `%26` and `%3D` are data, not separators.
      const eq = pair.indexOf('=');
      const rawKey = eq === -1 ? pair : pair.slice(0, eq);
      const rawValue = eq === -1 ? '' : pair.slice(eq + 1);
      addPair(decodeFormComponent(rawKey), decodeFormComponent(rawValue));
    }
  } else if (query instanceof URLSearchParams) {
    for (const [key, value] of query) addPair(key, value);
  }
  // Anything else (undefined, null, or a wrong type from untyped callers) says nothing.

  if (saysNothing(named, only, without, parts)) return EMPTY_SELECTION;
  return makeSelection(named, only, without, parts);
}

/**
 * Unites selections written in several places (query string, path tail,
 * `X-MCP-Toolsets` header; spec §3.1), as if their pairs had been written in one
 * query: `named` and `without` are unions; `only` is `null` unless some part said
 * `only`, and then the union of those parts' `only`.
 */
export function mergeSelections(...parts: Selection[]): Selection {
  const named = new Set<string>();
  let only: Set<string> | null = null;
  const without = new Set<string>();
  const toolParts: ToolParts = { tools: undefined, excludeTools: undefined, readonly: undefined };
  for (const part of parts) {
    for (const name of part.named) named.add(name);
    if (part.only !== null) {
      only ??= new Set();
      for (const name of part.only) only.add(name);
    }
    for (const name of part.without) without.add(name);
    if (part.tools !== undefined) for (const name of part.tools) (toolParts.tools ??= new Set()).add(name);
    if (part.excludeTools !== undefined) for (const name of part.excludeTools) (toolParts.excludeTools ??= new Set()).add(name);
    toolParts.readonly = unitedReadonly(toolParts.readonly, part.readonly);
    toolParts.dynamic = unitedReadonly(toolParts.dynamic, part.dynamic);
  }
  if (saysNothing(named, only, without, toolParts)) return EMPTY_SELECTION;
  return makeSelection(named, only, without, toolParts);
}

/**
 * One `key=value` pair read by the grammar's rules, with the value decoded
 * once — for headers that carry one key's value (`X-MCP-Tools: a,b` is
 * `tools=a,b`). Unlike splicing the value into a query string, a `&` or `=` in
 * the value stays data and cannot add other keys.
 */
export function parseSelectionPair(key: string, rawValue: string, options?: ParseSelectionOptions): Selection {
  const params = new URLSearchParams();
  params.append(key, decodeFormComponent(rawValue));
  return parseSelection(params, options);
}

/**
 * `base`'s toolset part (named, only, without) with `filters`' per-tool part
 * (tools, exclude_tools, readonly): how a deployment's `defaultSelection`
 * applies to a request that named no toolset but did narrow the tools.
 */
export function withToolFilters(base: Selection, filters: Selection): Selection {
  const parts: ToolParts = {
    tools: filters.tools !== undefined ? new Set(filters.tools) : undefined,
    excludeTools: filters.excludeTools !== undefined ? new Set(filters.excludeTools) : undefined,
    readonly: filters.readonly,
    dynamic: filters.dynamic,
  };
  if (saysNothing(new Set(), null, new Set(), parts)) return base;
  return mergeSelections(base, makeSelection(new Set(), null, new Set(), parts));
}

/**
 * Which toolsets a selection turns on (spec §3):
 *
 * - nothing said → every `default` toolset (default `true`) plus every `always` one;
 * - bare names and `toolsets=` add to the defaults;
 * - `only=` (even empty) replaces the defaults and the named ones; `always` stay;
 * - `without=` removes last, but never an `always` toolset;
 * - unknown names are ignored here (see {@link unknownNames}), never refused.
 *
 * When a name is declared more than once (several extensions contributing to one
 * subject), the first declaration's `default` and `always` count, as the first
 * declaration is the one described. The result is in declaration order; use
 * {@link activationKey} for an order-free identity.
 */
export function activeToolsets(declared: Iterable<ToolsetActivation>, selection: Selection = EMPTY_SELECTION): Set<string> {
  const first = new Map<string, ToolsetActivation>();
  for (const toolset of declared) {
    if (!first.has(toolset.name)) first.set(toolset.name, toolset);
  }

  const active = new Set<string>();
  for (const [name, toolset] of first) {
    const always = toolset.always === true;
    const asked = selection.only !== null ? selection.only.has(name) : toolset.default !== false || selection.named.has(name);
    if (always || (asked && !selection.without.has(name))) active.add(name);
  }
  return active;
}

/**
 * Every name the selection uses (in `named`, `only` or `without`) that no declared
 * toolset has — for a warning or a hint, since unknown names are never refused.
 * Names are case-sensitive: `Benchmarks` is unknown when `benchmarks` is declared.
 */
export function unknownNames(declared: Iterable<{ name: string }>, selection: Selection = EMPTY_SELECTION): Set<string> {
  const known = new Set<string>();
  for (const toolset of declared) known.add(toolset.name);
  const unknown = new Set<string>();
  const check = (names: Iterable<string>): void => {
    for (const name of names) if (!known.has(name)) unknown.add(name);
  };
  check(selection.named);
  if (selection.only !== null) check(selection.only);
  check(selection.without);
  return unknown;
}

// UTF-16 code-unit order differs from code-point order only between surrogates
// (U+D800–DFFF, which encode U+10000 and up) and U+E000–FFFF. Shifting those two
// ranges past each other makes plain unit comparison agree with code points,
// without allocating, and stays a total order on malformed strings.
function codePointUnit(unit: number): number {
  if (unit >= 0xe000) return unit - 0x800;
  if (unit >= 0xd800) return unit + 0x2000;
  return unit;
}

/**
 * Compares two strings by Unicode code point: locale-free and stable across
 * machines, unlike `localeCompare`, and unlike `<` it orders astral characters
 * after U+E000–FFFF.
 */
export function compareCodePoints(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x !== y) return codePointUnit(x) - codePointUnit(y);
  }
  return a.length - b.length;
}

function sortedNames(names: Iterable<string>): string[] {
  return Array.from(new Set(names)).sort(compareCodePoints);
}

/**
 * The cache identity of a set of active toolsets: the distinct names sorted by
 * code point, joined with `,`. Equal sets give equal keys, so `?a&b`, `?b&a` and
 * `?toolsets=b,a` share one built server.
 */
export function activationKey(active: Iterable<string>): string {
  // Nearly every request asks for no toolset or for one: its key needs no set, no sort and no join.
  if (active instanceof Set && active.size <= 1) return active.size === 0 ? '' : (active.values().next().value as string);
  return sortedNames(active).join(',');
}

/** The activation event fired when a build asks for toolset `name` (spec §4). */
export function onToolset(name: string): string {
  return `onToolset:${name}`;
}

/**
 * The names whose `onToolset` events a build fires for a selection, before it
 * knows what is declared: `named ∪ only` (`without` wakes nothing).
 */
export function namesInSelection(selection: Selection): Set<string> {
  const names = new Set(selection.named);
  if (selection.only !== null) for (const name of selection.only) names.add(name);
  return names;
}

function listParam(key: string, names: Iterable<string>): string {
  return `${key}=${sortedNames(names).map(encodeName).join(',')}`;
}

/**
 * A canonical query string (without the leading `?`) for a selection:
 * `toolsets=…&only=…&without=…`, each part present only when it says something,
 * names sorted by code point and percent-encoded. `""` for the empty selection.
 *
 * For any selection {@link parseSelection} produced, parsing the result gives an
 * equal selection; so it suits `howToSelect` hints and logs. (A hand-built
 * selection with empty names, or names holding commas or whitespace, cannot
 * round-trip: the grammar cannot say them.)
 */
export function selectionToQuery(selection: Selection): string {
  const params: string[] = [];
  if (selection.named.size > 0) params.push(listParam(TOOLSETS, selection.named));
  // `only=` with no names is meaningful (just the `always` toolsets), so keep it.
  if (selection.only !== null) params.push(listParam(ONLY, selection.only));
  if (selection.without.size > 0) params.push(listParam(WITHOUT, selection.without));
  if (selection.tools !== undefined && selection.tools.size > 0) params.push(listParam(TOOLS, selection.tools));
  if (selection.excludeTools !== undefined && selection.excludeTools.size > 0) params.push(listParam(EXCLUDE_TOOLS, selection.excludeTools));
  if (selection.readonly !== undefined) params.push(selection.readonly ? READONLY : `${READONLY}=false`);
  if (selection.dynamic !== undefined) params.push(selection.dynamic ? DYNAMIC : `${DYNAMIC}=false`);
  return params.join('&');
}

/**
 * `selection` with toolset `name` turned on as the URL would say it (dynamic
 * toolsets' `enable_toolset`): added to `only` when the selection says `only`,
 * else to `named`; dropped from `without`. Every other part is kept, so the
 * tool filters and read-only still narrow what it turns on.
 */
export function withToolsetOn(selection: Selection, name: string): Selection {
  const only = selection.only === null ? null : new Set([...selection.only, name]);
  const named = only === null ? new Set([...selection.named, name]) : new Set(selection.named);
  const without = new Set([...selection.without].filter((n) => n !== name));
  return makeSelection(named, only, without, {
    tools: selection.tools !== undefined ? new Set(selection.tools) : undefined,
    excludeTools: selection.excludeTools !== undefined ? new Set(selection.excludeTools) : undefined,
    readonly: selection.readonly,
    dynamic: selection.dynamic,
  });
}
