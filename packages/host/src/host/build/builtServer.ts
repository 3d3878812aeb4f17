/**
 * What `host.build()` returns: a blueprint's surface and the means to mint SDK
 * servers from it. `server` (the spec's "first server made for the blueprint")
 * is minted on first access, not at build: HTTP, stdio and the test client mint
 * their own per connection with `createServer()`, so an eager one would run
 * every `onServer` hook once for a server nobody connects to.
 */
import type { McpServer } from '@modelcontextprotocol/server';
import type { Blueprint } from './blueprint.js';
import type { Selection } from '../../selection/selection.js';
import type { ToolSpec } from '../../contract/tool.js';
import { BUILT_BLUEPRINT } from '../internals.js';

/** The resolved surface for one set of active toolsets, and the means to mint servers for it. */
export interface BuiltServer {
  /** The first SDK server made for this blueprint (minted on first access). */
  readonly server: McpServer;
  /** The active toolsets. */
  readonly toolsets: ReadonlySet<string>;
  /** What a client will list, in order. */
  readonly toolNames: readonly string[];
  /** Names the selection used that nobody declared. */
  readonly unknown: ReadonlySet<string>;
  /** The resolved specs, in list order (handlers wrapped). */
  readonly tools: ReadonlyArray<ToolSpec<Record<string, unknown>>>;
  /** The server instructions for this selection. */
  readonly instructions: string;
  /** The cache key: the activation key. */
  readonly key: string;
  /** The host revision this blueprint was built at. */
  readonly revision: number;
  /**
   * Mints a fresh, identical SDK server for another connection (an SDK server holds one at a time).
   * `denied`: the toolsets the connection's token may not have; `session`: the server serves one
   * long-lived 2025 session, so dynamic toolsets (`?dynamic`) may change what it serves in place.
   */
  createServer(options?: CreateServerOptions): Promise<McpServer>;
}

/** Options of {@link BuiltServer.createServer}. */
export interface CreateServerOptions {
  readonly selection?: Selection;
  readonly denied?: readonly string[];
  readonly session?: boolean;
  /** Told when dynamic toolsets changed this session's server (its new selection and toolsets), to keep its record current. */
  readonly onSurfaceChange?: (selection: Selection, toolsets: ReadonlySet<string>) => void;
}

/** How a built server mints: at once (hooks finish before `connect`), or awaiting the hooks. */
export interface Minter {
  now(selection: Selection): McpServer;
  mint(selection: Selection, bounds?: Omit<CreateServerOptions, 'selection'>): Promise<McpServer>;
}

/**
 * A built server as the host makes it: with its blueprint under a key no
 * entry point exports (for the HTTP app's fast path, which shares servers per
 * blueprint). `McpHost.build()` hands it out typed as {@link BuiltServer}.
 */
export interface HostBuiltServer extends BuiltServer {
  readonly [BUILT_BLUEPRINT]: Blueprint;
}

/** The built server of a blueprint, for the selection that first asked for it. */
export function builtServerOf(blueprint: Blueprint, unknown: ReadonlySet<string>, selection: Selection, minter: Minter): HostBuiltServer {
  let first: McpServer | undefined;
  return {
    get server(): McpServer {
      return (first ??= minter.now(selection));
    },
    toolsets: blueprint.toolsets,
    toolNames: blueprint.tools.map((t) => t.name),
    unknown,
    tools: blueprint.tools.map((t) => t.spec),
    instructions: blueprint.instructions,
    key: blueprint.key,
    revision: blueprint.revision,
    createServer: (options) => minter.mint(options?.selection ?? selection, options),
    [BUILT_BLUEPRINT]: blueprint,
  };
}

/** A copy for a selection with other unknown names: shares the blueprint and `server`. */
export function withUnknown(built: HostBuiltServer, unknown: ReadonlySet<string>, selection: Selection): HostBuiltServer {
  return {
    get server(): McpServer {
      return built.server;
    },
    toolsets: built.toolsets,
    toolNames: built.toolNames,
    unknown,
    tools: built.tools,
    instructions: built.instructions,
    key: built.key,
    revision: built.revision,
    createServer: (options) => built.createServer({ ...options, selection: options?.selection ?? selection }),
    [BUILT_BLUEPRINT]: built[BUILT_BLUEPRINT],
  };
}
