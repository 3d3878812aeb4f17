/**
 * Where an HTTP request writes its selection (spec §3.1): the query string,
 * the raw path tail below the endpoint, and the `X-MCP-Toolsets` header. Each
 * is parsed with the one grammar and the parts are united.
 *
 * Everything here is pure and total: it runs on untrusted input for every
 * request, so it never throws.
 */
import type { IncomingHttpHeaders } from 'node:http';
import { mergeSelections, parseSelection, parseSelectionPair, withToolFilters, type Selection } from '../../selection/selection.js';

/** The request header that carries a selection, for clients that cannot change the URL. */
export const SELECTION_HEADER = 'x-mcp-toolsets';

/**
 * Headers that carry one reserved key's value each, for clients that cannot
 * change the URL: `X-MCP-Tools: a,b` reads as `tools=a,b`.
 */
export const TOOL_FILTER_HEADERS: Readonly<Record<string, string>> = Object.freeze({
  'x-mcp-tools': 'tools',
  'x-mcp-exclude-tools': 'exclude_tools',
  'x-mcp-readonly': 'readonly',
});

/** The raw places a request can write a selection. */
export interface SelectionSources {
  /** The raw query string, without `?` (`""` when none). */
  readonly query: string;
  /** The raw path below the endpoint, without the leading `/` (`""` when none). */
  readonly tail: string;
  /** Each `X-MCP-Toolsets` header value, kept apart so a repeated header cannot merge names. */
  readonly headers: readonly string[];
  /** Values of the per-tool headers (`X-MCP-Tools`, …) by their lower-cased name; one entry per header line. */
  readonly filterHeaders?: Readonly<Record<string, readonly string[]>>;
}

/** How the sources become one selection. */
export interface RequestSelectionOptions {
  /** Keys dropped everywhere (query, tail and header), e.g. `utm_source`. */
  readonly ignore?: Iterable<string> | undefined;
  /** Used when the request names nothing once ignored keys are dropped. */
  readonly defaultSelection?: Selection | undefined;
}

/** A request target split the way the router needs it; `undefined` when it is not origin-form. */
export interface RequestTarget {
  /** The raw path, not decoded (routing compares raw bytes; the tail is decoded by the grammar). */
  readonly pathname: string;
  /** The raw query, without `?`. */
  readonly query: string;
}

/**
 * Splits a raw request target (`req.url`). Only origin-form (`/path?query`) is
 * served; absolute-form and `*` answer `undefined` (the app says 400).
 */
export function splitTarget(url: string | undefined): RequestTarget | undefined {
  if (url === undefined || !url.startsWith('/')) return undefined;
  const hash = url.indexOf('#');
  const target = hash === -1 ? url : url.slice(0, hash);
  const mark = target.indexOf('?');
  return mark === -1 ? { pathname: target, query: '' } : { pathname: target.slice(0, mark), query: target.slice(mark + 1) };
}

/**
 * The path below `base` (`/mcp/only=a` → `only=a`), `""` for `base` itself, or
 * `undefined` when the path is not at or below `base`. `base` `"/"` owns every
 * path. A trailing `/` never redirects: `/mcp/` is `/mcp` with an empty tail.
 */
export function pathTail(pathname: string, base: string): string | undefined {
  if (base === '/') return pathname.slice(1);
  if (pathname === base) return '';
  if (pathname.startsWith(`${base}/`)) return pathname.slice(base.length + 1);
  return undefined;
}

/** The per-tool header names, listed once (asked on every request). */
const TOOL_FILTER_HEADER_NAMES: readonly string[] = Object.keys(TOOL_FILTER_HEADERS);
/** A header that is not there has no values: one frozen list for every such request. */
const NO_VALUES: readonly string[] = Object.freeze([]);

/** Every value of the selection header, one entry per header line. */
export function selectionHeaderValues(headers: IncomingHttpHeaders, distinct?: DistinctHeaders): readonly string[] {
  return headerValues(SELECTION_HEADER, headers, distinct);
}

/** The values of the per-tool headers present on a request, or `undefined` when there are none. */
export function toolFilterHeaderValues(headers: IncomingHttpHeaders, distinct?: DistinctHeaders): Record<string, readonly string[]> | undefined {
  let found: Record<string, readonly string[]> | undefined;
  for (const name of TOOL_FILTER_HEADER_NAMES) {
    const values = headerValues(name, headers, distinct);
    if (values.length > 0) (found ??= {})[name] = values;
  }
  return found;
}

/**
 * A request's header lines kept apart (`req.headersDistinct`), asked for
 * only when the header is there: Node builds that object anew on every read,
 * which costs a fast-path answer about 1%, and most requests carry neither
 * header.
 */
export type DistinctHeaders = () => Record<string, string[] | undefined>;

function headerValues(name: string, headers: IncomingHttpHeaders, distinct?: DistinctHeaders): readonly string[] {
  const value = headers[name];
  if (value === undefined) return NO_VALUES;
  const values = distinct?.()[name];
  if (values !== undefined) return values;
  return Array.isArray(value) ? value : [value];
}

/**
 * The path tail read as a query string. A `/` inside the tail separates pairs
 * like `&` (`/mcp/only=a/without=b`), since toolset names cannot hold one and a
 * proxy may append a trailing slash.
 */
function tailAsQuery(tail: string): string {
  return tail.includes('/') ? tail.split('/').join('&') : tail;
}

/**
 * The selection a request asked for: the union of its query, path tail and
 * selection headers (each parsed with `ignore`), or `defaultSelection` when
 * that union is empty.
 */
export function requestSelection(sources: SelectionSources, options: RequestSelectionOptions = {}): Selection {
  const parse = { ignore: options.ignore };
  const parts: Selection[] = [parseSelection(sources.query, parse), parseSelection(tailAsQuery(sources.tail), parse)];
  for (const header of sources.headers) parts.push(parseSelection(header, parse));
  for (const [header, values] of Object.entries(sources.filterHeaders ?? {})) {
    const key = TOOL_FILTER_HEADERS[header];
    if (key === undefined) continue;
    for (const value of values) parts.push(parseSelectionPair(key, value, parse));
  }
  const merged = mergeSelections(...parts);
  // A request that names no toolset gets the deployment's default toolsets, keeping its own tool filters.
  return merged.isEmpty && options.defaultSelection !== undefined ? withToolFilters(options.defaultSelection, merged) : merged;
}
