/**
 * Safe by default: DNS-rebinding protection on a loopback listener, and every
 * kind of bad input answered with the right 4xx — after which the server
 * still serves a real client.
 */
import { request as httpRequest } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMcpApp, type McpHost } from '../src/index.js';
import { fixtureHost } from './helpers/fixtures.js';
import { connectClient, initializeBody, listen, POST_HEADERS, type Listening } from './helpers/http.js';

/** A raw request with full control of the headers (fetch will not send a foreign Host). */
function rawRequest(url: URL, options: { method?: string; headers?: Record<string, string>; body?: string }): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { method: options.method ?? 'GET', headers: options.headers }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (body += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', reject);
    req.end(options.body);
  });
}

let host: McpHost;
let served: Listening;
beforeAll(async () => {
  host = await fixtureHost();
  served = await listen(createMcpApp(host, { maxBodyBytes: 2048 }));
});
afterAll(async () => {
  await served.close();
  await host.stop();
});

async function stillServes(): Promise<void> {
  const client = await connectClient('v2 client, 2025 protocol', served.url('/mcp'));
  expect((await client.toolNames()).sort()).toEqual(['list_spaces', 'whoami']);
  await client.close();
}

describe('DNS-rebinding protection on a loopback listener', () => {
  it('refuses a foreign Host with 403 on every route', async () => {
    for (const path of ['/mcp', '/mcp/only=library', '/healthz', '/toolsets']) {
      const response = await rawRequest(served.url(path), { headers: { host: 'evil.example:80' } });
      expect(response.status).toBe(403);
      expect(response.body).toContain('Invalid Host: evil.example');
    }
    await stillServes();
  });

  it('accepts the localhost names', async () => {
    for (const host of ['localhost', '127.0.0.1', '[::1]']) {
      expect((await rawRequest(served.url('/healthz'), { headers: { host: `${host}:1234` } })).status).toBe(200);
    }
  });

  it('refuses a foreign browser Origin with 403, and accepts a local one', async () => {
    const evil = await fetch(served.url('/mcp'), { method: 'POST', headers: { ...POST_HEADERS, origin: 'http://evil.example' }, body: JSON.stringify(initializeBody()) });
    expect(evil.status).toBe(403);
    expect(await evil.text()).toContain('Invalid Origin: evil.example');
    const local = await fetch(served.url('/healthz'), { headers: { origin: 'http://localhost:5173' } });
    expect(local.status).toBe(200);
  });

  it('serves the public names in allowedHosts (behind a proxy) and refuses the rest', async () => {
    const proxied = await listen(createMcpApp(host, { allowedHosts: ['mcp.example.com'] }));
    try {
      expect((await rawRequest(proxied.url('/healthz'), { headers: { host: 'mcp.example.com' } })).status).toBe(200);
      expect((await rawRequest(proxied.url('/healthz'), { headers: { host: 'other.example.com' } })).status).toBe(403);
      const origin = await rawRequest(proxied.url('/healthz'), { headers: { host: 'mcp.example.com', origin: 'https://mcp.example.com' } });
      expect(origin.status).toBe(200);
    } finally {
      await proxied.close();
    }
  });
});

describe('bad input', () => {
  const rows: Array<{ what: string; method?: string; headers?: Record<string, string>; body?: string; status: number; code?: number }> = [
    { what: 'invalid JSON', body: '{"jsonrpc": "2.0", "id": 1,', status: 400, code: -32700 },
    { what: 'an empty body', body: '', status: 400, code: -32700 },
    { what: 'a non-JSON content type', headers: { 'content-type': 'text/plain' }, body: JSON.stringify(initializeBody()), status: 415 },
    { what: 'a body over maxBodyBytes', body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: { pad: 'x'.repeat(4096) } }), status: 413 },
    { what: 'JSON that is not JSON-RPC', body: '{"hello": "world"}', status: 400 },
    { what: 'a batch of numbers', body: '[1, 2, 3]', status: 400 },
    { what: 'an unknown session id', headers: { 'mcp-session-id': 'deadbeef', 'mcp-protocol-version': '2025-11-25' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }), status: 404, code: -32001 },
    { what: 'a POST that does not accept SSE', headers: { accept: 'application/json' }, body: JSON.stringify(initializeBody()), status: 406 },
    { what: 'an unsupported method', method: 'PATCH', body: '{}', status: 405 },
    { what: 'a 2026 request missing its Mcp-Method header', headers: { 'mcp-protocol-version': '2026-07-28' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: { _meta: { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': {} } } }), status: 400 },
  ];

  it.each(rows)('answers $what with $status, then still serves', async ({ method, headers, body, status, code }) => {
    const response = await fetch(served.url('/mcp'), { method: method ?? 'POST', headers: { ...POST_HEADERS, ...headers }, body });
    expect(response.status).toBe(status);
    if (code !== undefined) expect(((await response.json()) as { error: { code: number } }).error.code).toBe(code);
    else await response.arrayBuffer();
    await stillServes();
  });

  it('answers OPTIONS (no CORS preflight is served) with 405', async () => {
    expect((await rawRequest(served.url('/mcp'), { method: 'OPTIONS', headers: {} })).status).toBe(405);
  });

  it('answers a request target that is not a path with 400', async () => {
    const star = await new Promise<number>((resolve, reject) => {
      const req = httpRequest({ host: '127.0.0.1', port: Number(served.url('/').port), path: '*', method: 'OPTIONS' }, (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      });
      req.on('error', reject);
      req.end();
    });
    expect(star).toBe(400);
    await stillServes();
  });
});
