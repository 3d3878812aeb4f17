/**
 * The MCP Server Card at `{path}/server-card` (SEP-2127's reserved location):
 * its media type, a strong ETag honoured by If-None-Match, no tool lists, the
 * Authorization header described when auth is on, and a body valid against
 * the card schema the proposal publishes (vendored under test/schemas).
 */
import { readFileSync } from 'node:fs';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { SUPPORTED_PROTOCOL_VERSIONS } from '@modelcontextprotocol/server';
import { afterEach, describe, expect, it } from 'vitest';
import { buildHost, defineExtension, defineTool, silentLogger } from '../../index.js';
import { createMcpApp } from './app.js';
import type { McpAppOptions } from './options.js';
import { listen, messagesOf, post } from '../../../test/helpers/http.js';
import { defaultCardName, SERVER_CARD_MEDIA_TYPE } from './serverCard.js';

const ext = defineExtension({
  manifest: { name: 'demo', version: '1.0.0' },
  tools: () => [defineTool({ name: 'ping', description: 'Ping.', handler: () => 'pong' })],
});

const cleanup: Array<() => Promise<void>> = [];
afterEach(async () => {
  while (cleanup.length > 0) await cleanup.pop()!();
});

async function serve(options: McpAppOptions = {}): Promise<string> {
  const host = await buildHost([ext], { logger: silentLogger, name: 'card-test', version: '2.3.4' });
  const served = await listen(createMcpApp(host, options));
  cleanup.push(async () => {
    await served.close();
    await host.stop();
  });
  return served.origin;
}

function cardValidator() {
  const schema = JSON.parse(readFileSync(new URL('../../../test/schemas/server-card.schema.json', import.meta.url), 'utf8')) as { $defs: Record<string, unknown> };
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  addFormats.default(ajv);
  return ajv.compile({ ...schema, $ref: '#/$defs/ServerCard' });
}

describe('the server card', () => {
  it('is served at {path}/server-card as application/mcp-server-card+json, valid against the published schema', async () => {
    const base = await serve();
    const res = await fetch(`${base}/mcp/server-card`, { headers: { accept: SERVER_CARD_MEDIA_TYPE } });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe(SERVER_CARD_MEDIA_TYPE);
    const card = (await res.json()) as Record<string, unknown> & { remotes: Array<{ url: string; type: string; headers?: unknown }> };
    const validate = cardValidator();
    expect(validate(card), JSON.stringify(validate.errors)).toBe(true);
    expect(card).toMatchObject({ name: 'local/card-test', version: '2.3.4' });
    expect(card.remotes).toEqual([expect.objectContaining({ type: 'streamable-http', url: `${base}/mcp` })]);
    expect(card.remotes[0]!.headers).toBeUndefined();
    // Primitives are left to the protocol's own list calls.
    expect(JSON.stringify(card)).not.toContain('ping');
    expect(Object.keys(card)).not.toContain('tools');
  });

  it('lists every protocol version the server speaks, newest first: the 2026-07-28 revision its server/discover names, and each 2025-era one', async () => {
    const base = await serve();
    const card = (await (await fetch(`${base}/mcp/server-card`)).json()) as { remotes: Array<{ supportedProtocolVersions: string[] }> };
    // What the SDK's own server answers a 2026-07-28 client that asks which revisions it speaks.
    const discover = await post(new URL(`${base}/mcp`), {
      jsonrpc: '2.0',
      id: 1,
      method: 'server/discover',
      params: {
        _meta: {
          'io.modelcontextprotocol/protocolVersion': '2026-07-28',
          'io.modelcontextprotocol/clientCapabilities': {},
          'io.modelcontextprotocol/clientInfo': { name: 'card-test', version: '1.0.0' },
        },
      },
    }, { 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'server/discover' });
    const answer = (await messagesOf(discover)).find((m) => 'result' in m) as { result: { supportedVersions: string[] } } | undefined;
    const modern = answer?.result.supportedVersions ?? [];
    expect(modern).toContain('2026-07-28');
    const listed = card.remotes[0]!.supportedProtocolVersions;
    // The modern ones (from the server's answer) and the 2025-era ones the SDK negotiates on initialize, and nothing else.
    expect([...listed].sort()).toEqual([...new Set([...modern, ...SUPPORTED_PROTOCOL_VERSIONS])].sort());
    expect(listed).toEqual([...listed].sort().reverse());
    expect(listed[0]).toBe('2026-07-28');
  });

  it('carries a strong ETag and answers 304 to If-None-Match', async () => {
    const base = await serve();
    const first = await fetch(`${base}/mcp/server-card`);
    const etag = first.headers.get('etag');
    expect(etag).toMatch(/^"[A-Za-z0-9_-]+"$/);
    await first.arrayBuffer();
    const again = await fetch(`${base}/mcp/server-card`, { headers: { 'if-none-match': etag! } });
    expect(again.status).toBe(304);
    expect(again.headers.get('etag')).toBe(etag);
  });

  it('describes where the token goes when auth is on, and takes the deployment\'s own name and words', async () => {
    const base = await serve({
      auth: { verifyAccessToken: () => Promise.resolve({ token: 't', clientId: 'c', scopes: [] }) },
      serverCard: { name: 'io.github.acme/reactor', title: 'Acme tools', description: 'Acme\'s notebooks and benchmarks.' },
    });
    const card = (await (await fetch(`${base}/mcp/server-card`)).json()) as { name: string; title: string; remotes: Array<{ headers: Array<{ name: string; isSecret: boolean; value: string }> }> };
    expect(cardValidator()(card)).toBe(true);
    expect(card.name).toBe('io.github.acme/reactor');
    expect(card.title).toBe('Acme tools');
    expect(card.remotes[0]!.headers).toEqual([expect.objectContaining({ name: 'Authorization', isSecret: true, value: 'Bearer {token}' })]);
  });

  it('leaves a GET for an event stream at that path to the protocol, and can be turned off', async () => {
    const base = await serve({ serverCard: false });
    const res = await fetch(`${base}/mcp/server-card`);
    expect(res.headers.get('content-type')).not.toBe(SERVER_CARD_MEDIA_TYPE);
    await res.arrayBuffer();
    const on = await serve();
    const stream = await fetch(`${on}/mcp/server-card`, { headers: { accept: 'text/event-stream' } });
    expect(stream.headers.get('content-type')).not.toBe(SERVER_CARD_MEDIA_TYPE);
    await stream.body?.cancel();
  });

  it('derives a schema-valid name from the host name', () => {
    expect(defaultCardName('mcp.example.com', 'reactor-mcp-server')).toBe('com.example.mcp/reactor-mcp-server');
    expect(defaultCardName('[::1]', 'my server')).toBe('local/my-server');
    expect(defaultCardName('localhost', 'reactor-demo')).toBe('local/reactor-demo');
  });
});
