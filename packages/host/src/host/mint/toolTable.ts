/**
 * A minted server's view of its blueprint's tools: the shared table until an
 * `onServer` hook changes something, then a copy-on-write overlay for this
 * server alone. Holds no SDK object; `mint.ts` serves it through the SDK's
 * low-level `tools/list` and `tools/call` handlers.
 */
import type { Tool } from '@modelcontextprotocol/server';
import type { ToolHandle } from '../../contract/extension.js';
import { renderListEntry, serveTool, type Blueprint, type ServeToolOptions, type ServedTool } from '../build/blueprint.js';
import type { SchemaLike } from '../../contract/schema.js';
import type { ToolSpec } from '../../contract/tool.js';

/** What an `onServer` hook may pass to `server.registerTool` (the SDK's config, the parts the host serves). */
export interface HookToolConfig {
  title?: string;
  description?: string;
  inputSchema?: SchemaLike;
  outputSchema?: SchemaLike;
  annotations?: ToolSpec['annotations'];
  _meta?: Record<string, unknown>;
}

/** The SDK's tool callback: `(args, ctx)` with an input schema, `(ctx)` without. */
export type HookToolCallback = (...args: unknown[]) => unknown;

interface OverlayEntry {
  tool: ServedTool;
  enabled: boolean;
  listEntry: Tool;
}

export class ServerToolTable {
  private overlay: Map<string, OverlayEntry | null> | undefined;
  private cachedList: { tools: Tool[] } | undefined;

  constructor(private blueprint: Blueprint) {}

  /** Serves another blueprint's tools from now on (dynamic toolsets' `enable_toolset`); a hook's own changes stay. */
  rebase(blueprint: Blueprint): void {
    this.blueprint = blueprint;
    this.cachedList = undefined;
  }

  /** Entries this server holds of its own (the overlay), beside the shared table. */
  get ownEntries(): number {
    return this.overlay?.size ?? 0;
  }

  listResult(): { tools: Tool[] } {
    if (!this.overlay) return this.blueprint.listResult;
    if (this.cachedList) return this.cachedList;
    const tools: Tool[] = [];
    for (const tool of this.blueprint.tools) {
      const entry = this.entry(tool.name);
      if (entry?.enabled) tools.push(entry.listEntry);
    }
    for (const [name, entry] of this.overlay) {
      if (entry?.enabled && !this.blueprint.toolIndex.has(name)) tools.push(entry.listEntry);
    }
    this.cachedList = { tools };
    return this.cachedList;
  }

  /** The callable tool of that name, if listed and enabled on this server. */
  get(name: string): ServedTool | undefined {
    const entry = this.entry(name);
    return entry?.enabled ? entry.tool : undefined;
  }

  private entry(name: string): OverlayEntry | undefined {
    const own = this.overlay?.get(name);
    if (own !== undefined) return own ?? undefined;
    const shared = this.blueprint.toolIndex.get(name);
    return shared ? { tool: shared, enabled: true, listEntry: shared.listEntry } : undefined;
  }

  private mutate(name: string, change: (entry: OverlayEntry) => OverlayEntry | null): void {
    const current = this.entry(name);
    if (!current) return;
    this.overlay ??= new Map();
    this.overlay.set(name, change({ ...current }));
    this.cachedList = undefined;
  }

  handle(name: string): ToolHandle | undefined {
    if (!this.entry(name)) return undefined;
    const isEnabled = () => this.entry(name)?.enabled ?? false;
    return {
      name,
      get enabled() {
        return isEnabled();
      },
      enable: () => this.mutate(name, (e) => ({ ...e, enabled: true })),
      disable: () => this.mutate(name, (e) => ({ ...e, enabled: false })),
      remove: () => this.mutate(name, () => null),
      update: (changes) =>
        this.mutate(name, (e) => {
          const listEntry: Tool = { ...e.listEntry };
          if (changes.title !== undefined) listEntry.title = changes.title;
          if (changes.description !== undefined) listEntry.description = changes.description;
          if (changes.annotations !== undefined) listEntry.annotations = changes.annotations;
          if (changes.meta !== undefined) listEntry._meta = { ...listEntry._meta, ...changes.meta };
          return { ...e, listEntry };
        }),
    };
  }

  /** The tools this server lists of its own (registered or changed by a hook), with their list entries. */
  ownListed(): Array<{ name: string; listEntry: Tool }> {
    const own: Array<{ name: string; listEntry: Tool }> = [];
    for (const [name, entry] of this.overlay ?? []) if (entry?.enabled) own.push({ name, listEntry: entry.listEntry });
    return own;
  }

  /** Replaces the `_meta` a client sees of a tool on this server (none when `meta` is undefined). */
  setListMeta(name: string, meta: Record<string, unknown> | undefined): void {
    this.mutate(name, (e) => {
      const { _meta: _dropped, ...rest } = e.listEntry;
      return { ...e, listEntry: meta === undefined ? rest : { ...rest, _meta: meta } };
    });
  }

  /** `server.registerTool` from an `onServer` hook: served on this server only. */
  addForeign(name: string, config: HookToolConfig, callback: HookToolCallback, options: ServeToolOptions): ToolHandle {
    if (this.entry(name)) throw new Error(`Tool ${name} is already registered`);
    const takesArgs = config.inputSchema !== undefined;
    const spec: ToolSpec<Record<string, unknown>> = {
      name,
      description: config.description ?? '',
      ...(config.title !== undefined ? { title: config.title } : {}),
      ...(config.inputSchema !== undefined ? { inputSchema: config.inputSchema } : {}),
      ...(config.outputSchema !== undefined ? { outputSchema: config.outputSchema } : {}),
      ...(config.annotations !== undefined ? { annotations: config.annotations } : {}),
      ...(config._meta !== undefined ? { meta: config._meta } : {}),
      handler: (args, ctx) => (takesArgs ? callback(args, ctx) : callback(ctx)),
    };
    // Counted so the structural tests see per-server registrations happen only when a hook asks for one.
    options.stats.toolRegistrations++;
    const tool = serveTool(spec, 'onServer', { ...options, toolTimeoutMs: undefined });
    this.overlay ??= new Map();
    this.overlay.set(name, { tool, enabled: true, listEntry: renderListEntry(spec, tool.input, tool.outputJson) });
    this.cachedList = undefined;
    const handle = this.handle(name);
    if (!handle) throw new Error(`Tool ${name} could not be registered`);
    return handle;
  }
}
