/**
 * The endpoint without sockets: what it builds, and when. The selection is
 * resolved (and the host built) only once a server is actually needed.
 */
import { InMemoryServerEventBus } from '@modelcontextprotocol/server';
import { describe, expect, it } from 'vitest';
import { buildHost, defineExtension, defineTool, silentLogger, type McpHost } from '../../index.js';
import { EMPTY_SELECTION, type Selection } from '../../selection/selection.js';
import { McpEndpoint, type EndpointRequest } from './protocol.js';
import { SessionStore } from './sessions/sessions.js';
import { UnknownNameLog } from './unknownNames.js';

const ext = defineExtension({
  manifest: { name: 'demo', version: '1.0.0' },
  tools: () => [defineTool({ name: 'ping', description: 'Ping.', handler: () => 'pong' })],
});

async function endpoint(sessions = true): Promise<{ host: McpHost; endpoint: McpEndpoint }> {
  const host = await buildHost([ext], { logger: silentLogger });
  const store = sessions ? new SessionStore({}, {}, silentLogger) : undefined;
  return { host, endpoint: new McpEndpoint(host, store, silentLogger, new UnknownNameLog(silentLogger), 1 << 20, new InMemoryServerEventBus()) };
}

function call(request: Request, selection: () => Selection | Response = () => EMPTY_SELECTION): EndpointRequest & { resolved: number } {
  const r = {
    request,
    tenant: undefined,
    authInfo: undefined,
    resolved: 0,
    resolveSelection: () => {
      r.resolved++;
      const resolved = selection();
      return resolved instanceof Response ? resolved : { selection: resolved, denied: [] };
    },
    onFinish: () => undefined,
    refuseScopes: () => undefined,
  };
  return r;
}

const post = (body: unknown, headers: Record<string, string> = {}) =>
  new Request('http://localhost/mcp', { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers }, body: JSON.stringify(body) });
const modernMeta = { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': {} };
const modernHeaders = (method: string, name?: string): Record<string, string> => ({ 'mcp-protocol-version': '2026-07-28', 'mcp-method': method, ...(name ? { 'mcp-name': name } : {}) });

describe('McpEndpoint', () => {
  it('routes a session id before resolving any selection (unknown → 404)', async () => {
    const { endpoint: e } = await endpoint();
    const r = call(post({ jsonrpc: '2.0', id: 1, method: 'tools/list' }, { 'mcp-session-id': 'nope' }));
    expect((await e.handle(r)).status).toBe(404);
    expect(r.resolved).toBe(0);
  });

  it('resolves the selection once for a 2026-07-28 request and answers in JSON', async () => {
    const { endpoint: e } = await endpoint();
    const r = call(post({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'ping', arguments: {}, _meta: modernMeta } }, modernHeaders('tools/call', 'ping')));
    const response = await e.handle(r);
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ id: 1, result: { content: [{ type: 'text', text: 'pong' }] } });
    expect(r.resolved).toBe(1);
    await e.close();
  });

  it('leaves a 2026 request whose headers contradict its body to the SDK, resolving nothing', async () => {
    const { endpoint: e } = await endpoint();
    const r = call(post({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'ping', _meta: modernMeta } }, modernHeaders('tools/list')));
    expect((await e.handle(r)).status).toBe(400);
    expect(r.resolved).toBe(0);
  });

  it('sends the refusal the selection resolves to (a 403 for a denied toolset)', async () => {
    const { endpoint: e } = await endpoint();
    const refusal = new Response('no', { status: 403 });
    const r = call(post({ jsonrpc: '2.0', id: 1, method: 'tools/list' }, { 'mcp-protocol-version': '2025-11-25' }), () => refusal);
    expect(await e.handle(r)).toBe(refusal);
  });

  it('answers GET without a session 405, whatever the mode', async () => {
    for (const sessions of [true, false]) {
      const { endpoint: e } = await endpoint(sessions);
      const response = await e.handle(call(new Request('http://localhost/mcp', { headers: { accept: 'text/event-stream' } })));
      expect(response.status).toBe(405);
      expect(response.headers.get('allow')).toBe('POST');
    }
  });
});
