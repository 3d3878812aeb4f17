/**
 * `@reactor/host/testing`: test an extension through a real SDK client without
 * HTTP, or call a handler with a ready-made context and no server at all.
 */
import { Client, type CallToolResult, type ClientCapabilities } from '@modelcontextprotocol/client';
import { InMemoryTransport, type McpServer, type ServerContext } from '@modelcontextprotocol/server';
import type { BuildOptions, BuiltServer, McpHost } from '../host.js';
import { parseSelection, type Selection } from '../selection.js';
import type { ToolContext } from '../tool.js';

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

/**
 * A handler context for calling `tool.handler(args, ctx)` directly in a unit
 * test: logging goes to `logs`, sampling and elicitation reject unless given.
 */
export function testContext(overrides: {
  extension?: string;
  toolsets?: Iterable<string>;
  signal?: AbortSignal;
  requestSampling?: ServerContext['mcpReq']['requestSampling'];
  elicitInput?: ServerContext['mcpReq']['elicitInput'];
} = {}): ToolContext & { logs: Array<{ level: string; data: unknown }> } {
  const logs: Array<{ level: string; data: unknown }> = [];
  const signal = overrides.signal ?? new AbortController().signal;
  const unsupported = (what: string) => () => Promise.reject(new Error(`${what} is not available in testContext(); pass it in the overrides`));
  const mcpReq = {
    id: 0,
    method: 'tools/call',
    _meta: {},
    signal,
    send: unsupported('send'),
    notify: () => Promise.resolve(),
    log: (level: string, data: unknown) => {
      logs.push({ level, data });
      return Promise.resolve();
    },
    requestSampling: overrides.requestSampling ?? unsupported('requestSampling'),
    elicitInput: overrides.elicitInput ?? unsupported('elicitInput'),
  };
  return {
    sessionId: undefined,
    mcpReq,
    extension: overrides.extension ?? 'test',
    toolsets: new Set(overrides.toolsets ?? []),
    signal,
    logs,
  } as unknown as ToolContext & { logs: Array<{ level: string; data: unknown }> };
}

export { captureLogger } from './captureLogger.js';
export { checkExtension } from '../check/checkExtension.js';
export type { ExtensionCheck, CheckExtensionOptions, ToolsetCost } from '../check/checkExtension.js';
export { checkPackage } from '../check/checkPackage.js';
export type { PackageCheck } from '../check/checkPackage.js';
export { FindingCodes, failsCheck } from '../check/findings.js';
export type { CheckFinding, FindingCode, FindingSeverity } from '../check/findings.js';
export { portabilityIssues } from '../check/portability.js';
export { contractChecks } from './contract.js';
export type { ContractOptions, ContractCheck, ExtensionUnderTest } from './contract.js';
export type { PortabilityIssue, PortabilityRule } from '../check/portability.js';
export type { CapturedLog } from './captureLogger.js';
