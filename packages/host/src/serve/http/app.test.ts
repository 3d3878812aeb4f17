/**
 * The app as a listener inside other frameworks: connect-style `next`, a body
 * a framework already parsed (as a third argument, or on `req.body`), and
 * `close()`.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { buildHost, defineExtension, defineTool, silentLogger, type McpHost } from '../../index.js';
import { createMcpApp, type McpApp } from './app.js';

const ext = defineExtension({
  manifest: { name: 'demo', version: '1.0.0' },
  tools: () => [defineTool({ name: 'ping', description: 'Ping.', handler: () => 'pong' })],
});

const cleanup: Array<() => Promise<void>> = [];
afterEach(async () => {
  while (cleanup.length > 0) await cleanup.pop()!();
});

/** Serves `handler` (which wraps the app the way a framework would) on 127.0.0.1. */
async function serve(wrap: (app: McpApp) => (req: IncomingMessage, res: ServerResponse) => void): Promise<{ base: string; app: McpApp; host: McpHost }> {
  const host = await buildHost([ext], { logger: silentLogger });
  const app = createMcpApp(host);
  const server = createServer(wrap(app));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  cleanup.push(async () => {
    await app.close();
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
    await host.stop();
  });
  return { base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, app, host };
}

const call = { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'ping', arguments: {} } };
const headers = { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2025-11-25' };

async function readBody(req: IncomingMessage): Promise<unknown> {
  let text = '';
  for await (const chunk of req) text += String(chunk);
  return JSON.parse(text) as unknown;
}

describe('createMcpApp inside frameworks', () => {
  it('calls next() for paths it does not serve (connect/Express middleware)', async () => {
    const { base } = await serve((app) => (req, res) => app(req, res, () => res.writeHead(299).end()));
    expect((await fetch(`${base}/not-mine`)).status).toBe(299);
    expect((await fetch(`${base}/healthz`)).status).toBe(200);
  });

  it('takes a body the framework parsed as the third argument (Fastify style)', async () => {
    const { base } = await serve((app) => (req, res) => void readBody(req).then((body) => app(req, res, body)));
    const response = await fetch(`${base}/mcp`, { method: 'POST', headers, body: JSON.stringify(call) });
    expect(response.status).toBe(200);
    expect(await response.text()).toContain('pong');
  });

  it('takes req.body a body parser already read (Express style)', async () => {
    const { base } = await serve((app) => (req, res) =>
      void readBody(req).then((body) => {
        (req as IncomingMessage & { body?: unknown }).body = body;
        app(req, res, () => res.writeHead(404).end());
      }),
    );
    const response = await fetch(`${base}/mcp`, { method: 'POST', headers, body: JSON.stringify(call) });
    expect(response.status).toBe(200);
    expect(await response.text()).toContain('pong');
  });

  it('closes idempotently, and reports how many sessions are open', async () => {
    const { app } = await serve((a) => a);
    expect(app.sessionCount).toBe(0);
    const first = app.close();
    expect(app.close()).toBe(first);
    await first;
  });
});
