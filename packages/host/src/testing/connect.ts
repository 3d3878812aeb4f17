/**
 * An in-memory client/server pair: a real SDK client connected to a server
 * minted from the host, without HTTP. Its own module so that `contract.ts`
 * and the `@reactor/host/testing` entry both use it without importing each other.
 */
import { Client, type CallToolResult, type ClientCapabilities } from '@modelcontextprotocol/client';
import { InMemoryTransport, type McpServer } from '@modelcontextprotocol/server';
import type { BuildOptions, BuiltServer, McpHost } from '../host/host.js';
import { parseSelection, type Selection } from '../selection/selection.js';

/** An in-memory client/server pair on one selection. */
export interface TestConnection {
  /** A real `@modelcontextprotocol/client` Client, connected. */
  readonly client: Client;
  /** The SDK server minted for this connection. */
  readonly server: McpServer;
  /** The built server (blueprint) the connection was minted from. */
  readonly built: BuiltServer;
  /** `tools/list`, names only, in list order. */
  toolNames(): Promise<string[]>;
  /** `tools/call`; an unknown or inactive tool rejects with the SDK's protocol error. */
  callTool(name: string, args?: Record<string, unknown>): Promise<CallToolResult>;
  /** Closes both ends. */
  close(): Promise<void>;
}

/** Options of {@link connect}. */
export interface ConnectOptions extends BuildOptions {
  /** The selection: a query string (`"only=spaces"`) or a parsed selection. Default: none. */
  readonly selection?: string | Selection;
  /** What the test client declares (e.g. `{ sampling: {}, elicitation: {} }`); answer its requests with `client.setRequestHandler`. */
  readonly clientCapabilities?: ClientCapabilities;
}

/**
 * Builds the host for a selection, mints a server and connects a real SDK
 * client to it in memory (the 2025 protocol's initialize handshake included).
 */
export async function connect(host: McpHost, options: ConnectOptions = {}): Promise<TestConnection> {
  const selection = typeof options.selection === 'string' || options.selection === undefined ? parseSelection(options.selection) : options.selection;
  const built = await host.build(selection, { tenant: options.tenant, denied: options.denied, readOnly: options.readOnly });
  const server = await built.createServer({ selection });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  const client = new Client({ name: 'reactor-test-client', version: '0.0.0' }, options.clientCapabilities ? { capabilities: options.clientCapabilities } : undefined);
  await server.connect(serverSide);
  await client.connect(clientSide);
  return {
    client,
    server,
    built,
    toolNames: async () => (await client.listTools()).tools.map((t) => t.name),
    callTool: async (name, args = {}) => (await client.callTool({ name, arguments: args })),
    close: async () => {
      await client.close();
      await server.close();
    },
  };
}
