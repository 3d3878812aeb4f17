/**
 * What the blueprint cache holds: an entry per (tenant, selection) and the
 * views narrowed from it. Types only, shared by the cache (`hostCache.ts`),
 * the views (`toolView.ts`), the build and the report, none of which needs
 * the others' code for them.
 */
import type { Blueprint } from './blueprint.js';
import type { HostBuiltServer } from './builtServer.js';
import type { LruCache } from '../../kernel/lruCache.js';
import type { Conflict, Offering } from './resolve.js';

/** One cached blueprint with what `describe()` needs of its build. */
export interface CacheEntry {
  readonly blueprint: Blueprint;
  readonly conflicts: Conflict[];
  /** The offerings served (collisions settled), in list order. */
  readonly offerings: Offering[];
  /** The built server, once something asked for it. */
  built?: HostBuiltServer;
  /** Views narrowed by tool filters, by filter key (made on first use). */
  views?: LruCache<string, ToolView>;
}

/** A blueprint narrowed by one filter. */
export interface ToolView {
  readonly blueprint: Blueprint;
  /** Names in `tools=`/`exclude_tools=` that match no tool (nor alias) of the active toolsets. */
  readonly unknownTools: ReadonlySet<string>;
  /** The built server of this view, once something asked for it. */
  built?: HostBuiltServer;
}
