/**
 * The official SDK's own patterns, each built the cheapest correct way (the
 * zod schemas created once at start-up, shared by every server):
 *
 * - per request: a new `McpServer` registering every tool for each request,
 *   through `createMcpHandler` (2025 stateless and 2026-07-28 alike), served
 *   by `toNodeHandler` — what hosted servers do;
 * - one long-lived session: one `McpServer`, tools registered once, behind one
 *   Streamable HTTP session transport (the SDK's Node transport, its defaults);
 * - a server per session: each `initialize` gets a fresh `McpServer`
 *   registering every tool and its own session transport (the memory rows).
 */
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { NodeStreamableHTTPServerTransport, toNodeHandler } from '@modelcontextprotocol/node';
import { createMcpHandler, McpServer } from '@modelcontextprotocol/server';
import { answer, catalogue, type CatalogueTool } from '../catalogue.js';

/** A Node request listener. */
export type Listener = (req: IncomingMessage, res: ServerResponse) => void;

function serverWith(tools: readonly CatalogueTool[], name: string): McpServer {
  const server = new McpServer({ name, version: '1.0.0' });
  for (const t of tools) {
    server.registerTool(t.name, { description: t.description, inputSchema: t.schema }, (args) => ({
      content: [{ type: 'text', text: answer(t.name, args) }],
    }));
  }
  return server;
}

/** A fresh server with every tool registered, per request. */
export function sdkPerRequest(count: number): Listener {
  const tools = catalogue(count);
  const handler = toNodeHandler(createMcpHandler(() => serverWith(tools, 'sdk-per-request')));
  return (req, res) => void handler(req, res);
}

/** One server and one session transport; the driver opens the one session and reuses it. */
export async function sdkSession(count: number): Promise<Listener> {
  const server = serverWith(catalogue(count), 'sdk-session');
  const transport = new NodeStreamableHTTPServerTransport({ sessionIdGenerator: () => randomUUID() });
  await server.connect(transport);
  return (req, res) => void transport.handleRequest(req, res);
}

/** A fresh server (every tool registered) and transport per session, kept until the session ends. */
export function sdkPerSession(count: number): Listener {
  const tools = catalogue(count);
  const sessions = new Map<string, NodeStreamableHTTPServerTransport>();
  const open = async (): Promise<NodeStreamableHTTPServerTransport> => {
    const server = serverWith(tools, 'sdk-per-session');
    const transport: NodeStreamableHTTPServerTransport = new NodeStreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (id) => void sessions.set(id, transport),
    });
    // Set before connect(): the SDK chains an existing onclose.
    transport.onclose = () => {
      if (transport.sessionId !== undefined) sessions.delete(transport.sessionId);
    };
    await server.connect(transport);
    return transport;
  };
  return (req, res) => {
    const id = req.headers['mcp-session-id'];
    const existing = typeof id === 'string' ? sessions.get(id) : undefined;
    if (typeof id === 'string' && !existing) {
      res.writeHead(404, { 'content-type': 'application/json' }).end('{"jsonrpc":"2.0","error":{"code":-32001,"message":"Session not found"},"id":null}');
      return;
    }
    void (existing ? Promise.resolve(existing) : open()).then((transport) => transport.handleRequest(req, res));
  };
}
