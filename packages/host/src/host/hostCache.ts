/**
 * The host's cache policy. What is cached is the blueprint, keyed on (tenant,
 * activation key); beside it, per tenant, the declared toolsets and the
 * resolved offerings, and per offering its served tool (schemas converted).
 * Every map a client can grow (by inventing tenants or selections) is an
 * {@link LruCache} bounded by `maxCachedSelections`. `forget()` drops all of it
 * but the served tools, which are keyed weakly on offerings and go with them.
 */
import type { ServedTool } from './build/blueprint.js';
import { LruCache } from '../kernel/lruCache.js';
import type { Offering } from './build/resolve.js';
import type { CacheEntry } from './build/cacheTypes.js';
import type { Toolset } from '../contract/toolset.js';

export class HostCache {
  readonly blueprints: LruCache<string, CacheEntry>;
  readonly declared: LruCache<string, Toolset[]>;
  readonly offerings: LruCache<string, Offering[]>;
  private readonly served = new WeakMap<Offering, ServedTool>();

  constructor(limit: number) {
    this.blueprints = new LruCache(limit);
    this.declared = new LruCache(limit);
    this.offerings = new LruCache(limit);
  }

  /** The served tool of an offering, made once; a throw from `make` is not cached. */
  servedTool(offering: Offering, make: () => ServedTool): ServedTool {
    let tool = this.served.get(offering);
    if (!tool) {
      tool = make();
      this.served.set(offering, tool);
    }
    return tool;
  }

  hasServedTool(offering: Offering): boolean {
    return this.served.has(offering);
  }

  forget(): void {
    this.blueprints.clear();
    this.declared.clear();
    this.offerings.clear();
  }

  /** How many entries each bounded map holds (for the memory tests). */
  sizes(): { blueprints: number; declared: number; offerings: number } {
    return { blueprints: this.blueprints.size, declared: this.declared.size, offerings: this.offerings.size };
  }
}

/** The key of a blueprint: tenant and activation key (a tenant name cannot contain NUL). */
export function blueprintKey(tenant: string | undefined, activationKey: string): string {
  return `${tenant ?? ''}\u0000${activationKey}`;
}

/** The key of a per-tenant entry. */
export function tenantKey(tenant: string | undefined): string {
  return tenant ?? '';
}
