/**
 * fastmcp (stateless HTTP stream) on the same tools: `addTool` with the same
 * zod schemas. fastmcp makes a session (an SDK v1 server) per stateless
 * request itself.
 */
import http, { type Server } from 'node:http';
import { FastMCP } from 'fastmcp';
import { answer, catalogue } from '../catalogue.js';

const quiet = () => undefined;

/** Starts fastmcp on 127.0.0.1 with a free port; the `http.Server` it listens with, and a stop function. */
export async function startFastmcp(count: number): Promise<{ server: Server; stop: () => Promise<void> }> {
  const mcp = new FastMCP({
    name: 'fastmcp-bench',
    version: '1.0.0',
    logger: { debug: quiet, info: quiet, log: quiet, warn: quiet, error: (...args: unknown[]) => process.stderr.write(`${args.map(String).join(' ')}\n`) },
  });
  for (const t of catalogue(count)) {
    mcp.addTool({ name: t.name, description: t.description, parameters: t.schema, execute: (args) => Promise.resolve(answer(t.name, args)) });
  }
  // fastmcp does not say which port it bound when asked for port 0: catch the http.Server it makes.
  const created: Server[] = [];
  const original = http.createServer;
  http.createServer = ((...args: Parameters<typeof http.createServer>) => {
    const server = original(...args);
    created.push(server);
    return server;
  }) as typeof http.createServer;
  try {
    await mcp.start({ transportType: 'httpStream', httpStream: { port: 0, host: '127.0.0.1', stateless: true } });
  } finally {
    http.createServer = original;
  }
  const server = created.find((s) => s.listening);
  if (!server) throw new Error('fastmcp started no HTTP server that is listening');
  return { server, stop: () => mcp.stop() };
}
