/**
 * One bounded cache for the host's memos (blueprints per tenant × selection,
 * per-tenant toolsets and offerings, parsed URI templates, contained
 * problems): a key a client can invent (a tenant header, a selection) must not
 * let it grow memory, so every such map holds at most `limit` entries and drops
 * the least recently used first.
 */
/** No key yet (a value no caller can pass as a key). */
const NO_KEY: unique symbol = Symbol('no key');

export class LruCache<K, V> {
  private readonly entries = new Map<K, V>();
  /**
   * The key last stored or read: while it is in the map, the map's last
   * key (deleting it leaves nothing to reorder; only `set` adds a key back),
   * so reading it again reorders nothing. A hot key (one selection served request after request)
   * then costs one lookup, not a delete and a re-insert, whose tombstones
   * also make the map rehash every so often.
   */
  private newest: unknown = NO_KEY;
  readonly limit: number;

  /** @param limit the most entries kept; at least 1. */
  constructor(limit: number) {
    this.limit = Math.max(1, Math.floor(limit));
  }

  get size(): number {
    return this.entries.size;
  }

  /** The value of `key`, marked most recently used. */
  get(key: K): V | undefined {
    const value = this.entries.get(key);
    if (value === undefined && !this.entries.has(key)) return undefined;
    if (Object.is(this.newest, key)) return value;
    // A Map iterates in insertion order: re-inserting moves the key to the back (newest).
    this.entries.delete(key);
    this.entries.set(key, value as V);
    this.newest = key;
    return value;
  }

  /**
   * Whether `key` holds `value` and is the most recently used key, asked
   * without reordering anything: a caller that remembers the last entry it
   * used may use it again while this holds, with the order the same as if it
   * had read it again.
   */
  holdsNewest(key: K, value: V): boolean {
    return Object.is(this.newest, key) && this.entries.get(key) === value;
  }

  /** Stores `value` as the most recently used, dropping the least recently used beyond the limit. */
  set(key: K, value: V): this {
    this.entries.delete(key);
    this.entries.set(key, value);
    this.newest = key;
    while (this.entries.size > this.limit) {
      const oldest = this.entries.keys().next();
      if (oldest.done === true) break;
      this.entries.delete(oldest.value);
    }
    return this;
  }

  /** The value of `key`, computing and storing it on a miss. */
  getOrCreate(key: K, create: (key: K) => V): V {
    if (this.entries.has(key)) return this.get(key) as V;
    const value = create(key);
    this.set(key, value);
    return value;
  }

  delete(key: K): boolean {
    return this.entries.delete(key);
  }

  clear(): void {
    this.entries.clear();
  }

  /** The values, least recently used first (reading does not reorder). */
  values(): IterableIterator<V> {
    return this.entries.values();
  }
}
