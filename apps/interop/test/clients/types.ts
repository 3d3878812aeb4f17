/** What the suite asks of each client library, whatever its own API looks like. */

/** Where a client connects: the endpoint URL (with a query selection or none) and the headers it sends. */
export interface Target {
  readonly url: string;
  readonly headers: Record<string, string>;
}

/** A client connected to the demo, its tools already listed through its own conversion. */
export interface Connected {
  /** The tool names as the client hands them to an agent (after its own schema conversion, prefixes removed). */
  readonly toolNames: readonly string[];
  /** Calls a tool the way an agent would through this client; answers the text the tool returned. */
  callTool(name: string, args: Record<string, unknown>): Promise<string>;
  /** Reads a resource; absent where the client has no way to. */
  readResource?(uri: string): Promise<string>;
  /** Gets a prompt's first message text; absent where the client has no way to. */
  getPrompt?(name: string, args: Record<string, string>): Promise<string>;
  /** What the client did of note while converting (e.g. tools it could not give a strict schema), for the report. */
  readonly notes?: readonly string[];
  close(): Promise<void>;
}

export interface ClientUnderTest {
  /** The library, as people know it. */
  readonly name: string;
  /** Its npm package, whose installed version the suite reports. */
  readonly packageName: string;
  /** The name the client gives a server's tool, where its conversion renames tools (default: the same). */
  readonly toolName?: (served: string) => string;
  connect(target: Target): Promise<Connected>;
}

/** The text parts of an MCP tool result or prompt message content, joined. */
export function textOf(content: unknown): string {
  const parts: unknown[] = Array.isArray(content) ? (content as unknown[]) : [content];
  return parts
    .map((part) => (part && typeof part === 'object' && 'text' in part && typeof part.text === 'string' ? part.text : ''))
    .join('');
}

/**
 * The folder of the package whose client libraries this run uses: apps/interop
 * itself (the Node 20 line) or apps/interop-latest (each library's newest
 * release, Node 22+). vitest.config.ts picks it and resolves the clients from it.
 */
export function clientsRoot(): string {
  const root = process.env.REACTOR_INTEROP_CLIENTS;
  if (!root) throw new Error('REACTOR_INTEROP_CLIENTS is not set: run the suite with pnpm test:interop (its vitest.config.ts sets it)');
  return root;
}
