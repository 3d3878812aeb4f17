/**
 * Minting SDK servers from a blueprint. This is the one file that touches the
 * SDK's server APIs, so an SDK upgrade touches one file.
 *
 * Tools, resources and prompts are served through low-level request handlers
 * (`server.server.setRequestHandler`, the SDK's documented path for servers
 * that own their tables) reading the blueprint's shared tables, so minting
 * costs the same at 10 tools or 10,000: no per-tool registration, no schema
 * conversion, and `tools/list` returns the result rendered once per blueprint.
 * A per-server overlay, made only when an `onServer` hook changes a tool,
 * keeps hooks' changes to their own server.
 */
import {
  McpServer,
  ProtocolError,
  ProtocolErrorCode,
  type CallToolResult,
  type Tool,
} from '@modelcontextprotocol/server';
import { ErrorCodes, errorMessage } from './errors.js';
import type { OnServerContext, ToolHandle } from './extension.js';
import type { Logger } from './logger.js';
import type { ProblemLog } from './problems.js';
import { withTimeout } from './timeLimit.js';
import type { SchemaLike } from './schema.js';
import type { Selection } from './selection.js';
import { stats } from './stats.js';
import { renderListEntry, serveTool, type Blueprint, type ConnectionInfo, type ServedTool } from './blueprint.js';
import { installContent, Subscriptions } from './serverContent.js';

export { Subscriptions };
import type { ToolSpec } from './tool.js';

/** Makes the SDK server a deployment serves (a subclass carrying auth, say). */
export type ServerFactory = (name: string, instructions: string) => McpServer;

/** What minting needs besides the blueprint. */
export interface MintOptions {
  readonly serverName: string;
  readonly serverVersion: string;
  readonly serverFactory: ServerFactory | undefined;
  readonly onServerTimeoutMs: number;
  readonly logger: Logger;
  readonly problems: ProblemLog;
  readonly subscriptions: Subscriptions;
}

/** The default factory: a plain SDK server advertising logging. */
export function defaultServerFactory(name: string, version: string): ServerFactory {
  return (serverName, instructions) =>
    new McpServer(
      { name: serverName || name, version },
      { capabilities: { logging: {} }, ...(instructions === '' ? {} : { instructions }) },
    );
}

/**
 * Mints an SDK server for one connection: capabilities, the blueprint's
 * tables behind low-level handlers, then each participating `onServer` hook
 * (bounded; a throw or time-out costs that hook only), before it is connected.
 */
export async function mintServer(blueprint: Blueprint, selection: Selection, options: MintOptions): Promise<McpServer> {
  stats.mints++;
  const factory = options.serverFactory ?? defaultServerFactory(options.serverName, options.serverVersion);
  const server = factory(options.serverName, blueprint.instructions);
  const connection: ConnectionInfo = { selection, toolsets: blueprint.toolsets, tenant: blueprint.tenant };
  const table = new ServerToolTable(blueprint);
  // Reachable from the server (not only from its handlers' closures), so structural tests see all it holds.
  Object.defineProperty(server, TOOL_TABLE, { value: table });
  const low = server.server;

  // Every server advertises tools (so every client can list an empty set) and logging;
  // resources, prompts and completions are advertised where they are installed.
  low.registerCapabilities({ tools: {}, logging: {} });

  low.setRequestHandler('tools/list', () => table.listResult());
  low.setRequestHandler('tools/call', async (request, ctx) => {
    const tool = table.get(request.params.name);
    if (!tool) throw new ProtocolError(ProtocolErrorCode.InvalidParams, `Tool ${request.params.name} not found`);
    const result: CallToolResult = await tool.invoke(request.params.arguments, ctx, connection);
    return low.projectCallToolResult(result, tool.outputJson);
  });
  // Hooks and the SDK's 2026 edge look tools up by name; answer from the shared table.
  server.toolInputSchemaJson = (name: string) => table.get(name)?.input?.json ?? (table.get(name) ? {} : undefined);
  server.registerTool = ((name: string, config: ForeignToolConfig, callback: ForeignToolCallback) =>
    table.addForeign(name, config, callback, options)) as unknown as McpServer['registerTool'];

  installContent(server, blueprint, options.subscriptions, options.logger);

  for (const participant of blueprint.participants) {
    const hook = participant.extension.onServer;
    if (typeof hook !== 'function') continue;
    const context: OnServerContext = {
      toolsets: blueprint.toolsets,
      selection,
      tool: (name) => table.handle(name),
      logger: participant.logger,
    };
    try {
      await withTimeout(
        () => hook.call(participant.extension, server, context),
        options.onServerTimeoutMs,
        () => new Error(`onServer did not finish within ${options.onServerTimeoutMs} ms`),
      );
    } catch (error) {
      const message = `extension "${participant.name}": onServer failed; its action on this server is skipped (${errorMessage(error)}); hint: fix the hook, other extensions are unaffected`;
      options.problems.add({ code: ErrorCodes.ON_SERVER_FAILED, extension: participant.name, message, phase: 'server' });
      participant.logger.error({ code: ErrorCodes.ON_SERVER_FAILED }, message);
    }
  }
  return server;
}

const TOOL_TABLE: unique symbol = Symbol('reactor.toolTable');

/**
 * @internal How many tools a minted server holds of its own: 0 until an
 * `onServer` hook changes, removes or adds one (its copy-on-write overlay);
 * `undefined` for a server the host did not mint. For structural tests.
 */
export function ownToolEntries(server: McpServer): number | undefined {
  const table = (server as McpServer & { [TOOL_TABLE]?: ServerToolTable })[TOOL_TABLE];
  return table?.ownEntries;
}

type ForeignToolConfig = {
  title?: string;
  description?: string;
  inputSchema?: SchemaLike;
  outputSchema?: SchemaLike;
  annotations?: ToolSpec['annotations'];
  _meta?: Record<string, unknown>;
};
type ForeignToolCallback = (...args: unknown[]) => unknown;

interface OverlayEntry {
  tool: ServedTool;
  enabled: boolean;
  listEntry: Tool;
}

/**
 * A server's view of its blueprint's tools: the shared table until a hook
 * changes something, then a copy-on-write overlay for this server alone.
 */
class ServerToolTable {
  private overlay: Map<string, OverlayEntry | null> | undefined;
  private cachedList: { tools: Tool[] } | undefined;

  constructor(private readonly blueprint: Blueprint) {}

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

  /** `server.registerTool` from an `onServer` hook: served on this server only. */
  addForeign(name: string, config: ForeignToolConfig, callback: ForeignToolCallback, options: MintOptions): ToolHandle {
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
    // Counted so the structural tests notice if minting ever starts registering tools itself.
    stats.toolRegistrations++;
    const tool = serveTool(spec, 'onServer', { logger: options.logger, problems: options.problems, toolTimeoutMs: undefined });
    this.overlay ??= new Map();
    this.overlay.set(name, { tool, enabled: true, listEntry: renderListEntry(spec, tool.input, tool.outputJson) });
    this.cachedList = undefined;
    const handle = this.handle(name);
    if (!handle) throw new Error(`Tool ${name} could not be registered`);
    return handle;
  }
}
