/**
 * What agent frameworks' MCP clients ask before they connect: OAuth and OpenID
 * discovery documents (at the origin and under the endpoint, e.g.
 * `/mcp/.well-known/openid-configuration`) and, where none is found, dynamic
 * client registration at the origin (`POST /register`). A server with no
 * authorization server answers each of them a plain 404 — never a 401 or 405
 * (which send clients into an OAuth flow or an error), and never a JSON-RPC
 * error body (which OAuth clients cannot parse).
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { OAuthError, OAuthErrorCode } from '@modelcontextprotocol/server';
import { afterEach, describe, expect, it } from 'vitest';
import { buildHost, defineExtension, defineTool, silentLogger } from '../../index.js';
import { createMcpApp } from './app.js';
import type { McpAppOptions } from './options.js';

const ext = defineExtension({
  manifest: { name: 'demo', version: '1.0.0' },
  tools: () => [defineTool({ name: 'ping', description: 'Ping.', handler: () => 'pong' })],
});

const verifier = {
  verifyAccessToken: (token: string) =>
    token === 'good' ? Promise.resolve({ token, clientId: 'alice', scopes: [], expiresAt: Math.floor(Date.now() / 1000) + 60 }) : Promise.reject(new OAuthError(OAuthErrorCode.InvalidToken, 'unknown token')),
};

const cleanup: Array<() => Promise<void>> = [];
afterEach(async () => {
  while (cleanup.length > 0) await cleanup.pop()!();
});

async function serve(options: McpAppOptions = {}): Promise<string> {
  const host = await buildHost([ext], { logger: silentLogger });
  const app = createMcpApp(host, options);
  const server = createServer(app);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  cleanup.push(async () => {
    await app.close();
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
    await host.stop();
  });
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

/** Asserts a plain 404: the status, and a body that is not JSON (so not a JSON-RPC error either). */
async function expectPlain404(response: Response): Promise<void> {
  const body = await response.text();
  expect({ status: response.status, type: response.headers.get('content-type') }).toEqual({ status: 404, type: 'text/plain; charset=utf-8' });
  expect(body).not.toContain('jsonrpc');
}

const probes = [
  '/mcp/.well-known/openid-configuration',
  '/mcp/.well-known/oauth-authorization-server',
  '/mcp/.well-known/oauth-protected-resource',
  '/mcp/spaces/.well-known/openid-configuration',
  '/.well-known/openid-configuration',
  '/.well-known/oauth-authorization-server',
];

describe('discovery probes against a server with no authorization server', () => {
  it.each(probes)('GET %s answers a plain 404', async (path) => {
    const base = await serve();
    await expectPlain404(await fetch(`${base}${path}`, { headers: { accept: 'application/json' } }));
  });

  it('answers 404, not 401, for a discovery document under the endpoint when tokens are required', async () => {
    const base = await serve({ auth: { verifier } });
    await expectPlain404(await fetch(`${base}/mcp/.well-known/openid-configuration`));
    await expectPlain404(await fetch(`${base}/mcp/.well-known/oauth-authorization-server`, { method: 'POST' }));
    // The endpoint itself still asks for the token.
    expect((await fetch(`${base}/mcp`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' })).status).toBe(401);
  });

  it('answers dynamic client registration (POST /register) a plain 404, not a JSON-RPC error body', async () => {
    const base = await serve();
    const registration = { client_name: 'an agent', redirect_uris: ['http://127.0.0.1:3334/oauth/callback'], grant_types: ['authorization_code'] };
    await expectPlain404(await fetch(`${base}/register`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(registration) }));
  });

  it('still serves the endpoint\'s own selections beside the probes', async () => {
    const base = await serve();
    const response = await fetch(`${base}/mcp/demo`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2025-11-25' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'ping', arguments: {} } }),
    });
    expect(response.status).toBe(200);
    expect(await response.text()).toContain('pong');
  });
});
