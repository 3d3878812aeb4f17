/**
 * What recent request targets selected, kept so a target seen before is not
 * parsed again: parsing a query into a selection (and merging it with the
 * path's and the defaults) cost a fast-path `tools/call` with `?toolsets=`
 * about 4 µs of server CPU (the benchmark's server, `/mcp` against
 * `/mcp?toolsets=catalogue`, in pairs), several times what it costs in a loop.
 *
 * Only targets whose selection comes from the URL alone are kept (no
 * selection or tool-filter header), and only short ones; the memo forgets
 * everything when full, so a client inventing a new query per request costs
 * a bounded map, never a growing one. A selection is frozen, and the servers
 * of one selection already share one object.
 */
import type { SelectionSources } from './requestSelection.js';

/** Targets longer than this (query and path tail together) are parsed every time. */
const MAX_TARGET_LENGTH = 256;
/** Distinct targets kept at once; the memo starts over past this. */
const MAX_TARGETS = 256;

export class SelectionMemo<T> {
  readonly #known = new Map<string, T>();
  /** What a bare endpoint (no query, no path tail: nearly every request) selects, kept apart: its key would be a new string to hash on every request. */
  #bare: { value: T } | undefined;

  constructor(private readonly make: (sources: SelectionSources) => T) {}

  /** What `make` answers for these sources: from the memo when their URL alone decides it and was seen. */
  of(sources: SelectionSources): T {
    if (sources.headers.length > 0 || sources.filterHeaders !== undefined || sources.query.length + sources.tail.length > MAX_TARGET_LENGTH) return this.make(sources);
    if (sources.query === '' && sources.tail === '') return (this.#bare ??= { value: this.make(sources) }).value;
    // The query's length first: no two (query, tail) pairs share a key, whatever characters they hold.
    const key = `${sources.query.length}:${sources.query}${sources.tail}`;
    let known = this.#known.get(key);
    if (known === undefined) {
      known = this.make(sources);
      if (this.#known.size >= MAX_TARGETS) this.#known.clear();
      this.#known.set(key, known);
    }
    return known;
  }

  /** How many targets it holds (for tests). */
  get size(): number {
    return this.#known.size + (this.#bare === undefined ? 0 : 1);
  }
}
