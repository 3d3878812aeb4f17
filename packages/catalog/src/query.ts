/**
 * The URL builder's query: the shortest selection (in the grammar of
 * `parseSelection`) that turns on exactly the ticked toolsets. Self-contained
 * like `clientSnippets`: the page's script embeds this function's source, so
 * the server-rendered URL and the live one come from the same code.
 */

/** The toolsets the builder offers: which are on by default (always-on ones are never in the query). */
export interface QueryToolset {
  readonly name: string;
  readonly default: boolean;
  readonly always: boolean;
}

/**
 * The query (without `?`) that activates `ticked` plus the always-on
 * toolsets. Adds to the defaults with `toolsets=`; when a default is
 * unticked, picks the shorter of `only=…` and `toolsets=…&without=…`.
 * Names are sorted, so equal selections give equal URLs.
 */
export function selectionQuery(toolsets: readonly QueryToolset[], ticked: readonly string[]): string {
  const on = new Set(ticked);
  const chosen = toolsets.filter((t) => !t.always && on.has(t.name)).map((t) => t.name).sort();
  const defaults = toolsets.filter((t) => !t.always && t.default).map((t) => t.name);
  const extras = chosen.filter((n) => !defaults.includes(n));
  const removed = defaults.filter((n) => !on.has(n)).sort();
  const added = extras.length > 0 ? `toolsets=${extras.join(',')}` : '';
  if (removed.length === 0) return added;
  const only = `only=${chosen.join(',')}`;
  const without = [added, `without=${removed.join(',')}`].filter(Boolean).join('&');
  return only.length <= without.length ? only : without;
}
