/**
 * Real HTTP for the tests: the app listening on 127.0.0.1 with a free port,
 * and real clients of both SDK generations and both protocol eras.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { Client as V1Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as V1Transport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { McpApp } from '../../src/serve/http/app.js';
import type { CallToolResult } from '../../src/index.js';

/** An app listening on 127.0.0.1. */
export interface Listening {
  /** `http://127.0.0.1:<port>` */
  readonly origin: string;
  readonly server: Server;
  /** A URL on this server (`url('/mcp?only=a')`). */
  url(path: string): URL;
  /** Closes the app, then the listener (and any connection left open). */
  close(): Promise<void>;
}

/** Starts `app` on 127.0.0.1 with a free port. */
export async function listen(app: McpApp, host = '127.0.0.1'): Promise<Listening> {
  const server = createServer(app);
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  const { port } = server.address() as AddressInfo;
  const origin = `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
  return {
    origin,
    server,
    url: (path) => new URL(path, origin),
    close: async () => {
      await app.close();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** The clients the tests speak with. */
export const CLIENT_KINDS = ['v2 client, 2025 protocol', 'v2 client, 2026-07-28 protocol', 'v1 client (sdk 1.32)'] as const;
/** One of {@link CLIENT_KINDS}. */
export type ClientKind = (typeof CLIENT_KINDS)[number];

/** A connected client, whatever its kind. */
export interface TestClient {
  readonly kind: ClientKind;
  toolNames(): Promise<string[]>;
  callTool(name: string, args?: Record<string, unknown>): Promise<CallToolResult>;
  instructions(): string | undefined;
  protocolVersion(): string | undefined;
  /** The session id (2025 protocol with sessions), else undefined. */
  sessionId(): string | undefined;
  /** Ends the session (DELETE) when there is one. */
  terminate(): Promise<void>;
  close(): Promise<void>;
}

/** Connects a client of `kind` to `url`, with extra request headers. */
export async function connectClient(kind: ClientKind, url: URL, headers: Record<string, string> = {}): Promise<TestClient> {
  const requestInit = { headers };
  if (kind === 'v1 client (sdk 1.32)') {
    const client = new V1Client({ name: 'v1-test', version: '1.0.0' });
    const transport = new V1Transport(url, { requestInit });
    await client.connect(transport);
    return {
      kind,
      toolNames: async () => (await client.listTools()).tools.map((t) => t.name),
      callTool: async (name, args = {}) => (await client.callTool({ name, arguments: args })) as CallToolResult,
      instructions: () => client.getInstructions(),
      protocolVersion: () => transport.protocolVersion,
      sessionId: () => transport.sessionId,
      terminate: () => transport.terminateSession(),
      close: () => client.close(),
    };
  }
  const modern = kind === 'v2 client, 2026-07-28 protocol';
  const client = new Client({ name: 'v2-test', version: '1.0.0' }, modern ? { versionNegotiation: { mode: 'auto' } } : {});
  const transport = new StreamableHTTPClientTransport(url, { requestInit });
  await client.connect(transport);
  return {
    kind,
    toolNames: async () => (await client.listTools()).tools.map((t) => t.name),
    callTool: async (name, args = {}) => await client.callTool({ name, arguments: args }),
    instructions: () => client.getInstructions(),
    protocolVersion: () => client.getNegotiatedProtocolVersion(),
    sessionId: () => transport.sessionId,
    terminate: () => transport.terminateSession(),
    close: () => client.close(),
  };
}

/** Headers of a raw 2025 JSON-RPC POST. */
export const POST_HEADERS = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' } as const;

/** A raw JSON-RPC POST (the body is sent as given when a string). */
export async function post(url: URL, body: unknown, headers: Record<string, string> = {}): Promise<Response> {
  return await fetch(url, { method: 'POST', headers: { ...POST_HEADERS, ...headers }, body: typeof body === 'string' ? body : JSON.stringify(body) });
}

/** The JSON-RPC messages of a response, whether JSON or SSE. */
export async function messagesOf(response: Response): Promise<Array<Record<string, unknown>>> {
  const text = await response.text();
  if ((response.headers.get('content-type') ?? '').includes('text/event-stream')) {
    return text
      .split('\n')
      .filter((line) => line.startsWith('data:') && line.slice(5).trim() !== '')
      .map((line) => JSON.parse(line.slice(5)) as Record<string, unknown>);
  }
  return text === '' ? [] : [JSON.parse(text) as Record<string, unknown>];
}

/** A raw 2025 `initialize` body. */
export function initializeBody(id: number | string = 1): unknown {
  return { jsonrpc: '2.0', id, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '1.0.0' } } };
}

/** The text of a tool result's first content block. */
export function textOf(result: CallToolResult): string {
  const first = result.content[0];
  return first && first.type === 'text' ? first.text : '';
}

/** A tool result's structured content, or its first text block parsed as JSON. */
export function jsonOf<T>(result: CallToolResult): T {
  return (result.structuredContent ?? JSON.parse(textOf(result))) as T;
}
