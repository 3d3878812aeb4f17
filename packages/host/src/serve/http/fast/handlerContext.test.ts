/**
 * A shared server's handler contexts are the SDK's, key for key: only how
 * they are made differs (literals, not spreads).
 */
import { CLIENT_CAPABILITIES_META_KEY, McpServer, PROTOCOL_VERSION_META_KEY, Server, type ServerContext } from '@modelcontextprotocol/server';

const REVISION = '2026-07-28';
import { describe, expect, it, vi } from 'vitest';
import { buildContextWithoutSpreads } from './handlerContext.js';
import { requestDelivery, serveModernRevision, SharedExchangeTransport } from './sharedExchange.js';

type Build = (ctx: unknown, info?: unknown) => ServerContext;
const sdkBuild = (Server.prototype as unknown as { buildContext: Build }).buildContext;

const request = new Request('http://localhost/mcp', { method: 'POST' });
const notify = vi.fn(() => Promise.resolve());

/** A base context as the SDK's `_onrequest` makes it: with an envelope (2026-07-28) or without (2025), with auth or without. */
function base(options: { envelope?: Record<string, unknown>; auth?: boolean; inputResponses?: unknown }): Record<string, unknown> {
  return {
    sessionId: undefined,
    mcpReq: {
      id: 3,
      method: 'tools/call',
      _meta: { progressToken: undefined },
      ...(options.envelope !== undefined && { envelope: options.envelope }),
      ...(options.inputResponses !== undefined && { inputResponses: options.inputResponses }),
      requestState: () => undefined,
      signal: new AbortController().signal,
      send: () => Promise.resolve(),
      notify,
    },
    http: options.auth ? { authInfo: { token: 't', clientId: 'c', scopes: [] } } : undefined,
  };
}

/** Each own key with its value, functions as their kind: what two contexts must share. */
function described(object: unknown): unknown {
  if (typeof object !== 'object' || object === null) return object;
  return Reflect.ownKeys(object).map((key) => {
    const value = (object as Record<PropertyKey, unknown>)[key];
    return [String(key), typeof value === 'function' ? 'function' : key === 'mcpReq' || key === 'http' ? described(value) : value];
  });
}

function stockServer(): McpServer {
  return new McpServer({ name: 't', version: '1' }, { capabilities: { logging: {} } });
}

describe('buildContextWithoutSpreads', () => {
  const cases = {
    '2026-07-28, no auth, over HTTP': [{ envelope: { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/logLevel': 'info' } }, { request }],
    '2026-07-28, with auth': [{ envelope: { 'io.modelcontextprotocol/protocolVersion': '2026-07-28' }, auth: true }, { request, authInfo: {} }],
    '2025, no auth, over HTTP': [{}, { request }],
    '2025, no transport information': [{}, undefined],
    'with input responses (the SDK builds it)': [{ envelope: {}, inputResponses: { a: {} } }, { request }],
  } as const;

  for (const [name, [options, info]] of Object.entries(cases)) {
    it(`builds what the SDK builds: ${name}`, () => {
      const server = stockServer();
      expect(buildContextWithoutSpreads(server)).toBe(true);
      const ctx = base(options);
      const ours = (server.server as unknown as { buildContext: Build }).buildContext(ctx, info);
      const sdks = sdkBuild.call(server.server, ctx, info);
      expect(described(ours)).toEqual(described(sdks));
      expect(ours.mcpReq.signal).toBe(sdks.mcpReq.signal);
      expect(ours.http?.req).toBe(sdks.http?.req);
    });
  }

  it('asks the server the SDK’s closures ask, and logs as the SDK’s own `log`', async () => {
    const server = stockServer();
    buildContextWithoutSpreads(server);
    const elicit = vi.spyOn(server.server, 'elicitInput').mockResolvedValue({ action: 'decline' });
    const sample = vi.spyOn(server.server, 'createMessage').mockResolvedValue({ role: 'assistant', content: { type: 'text', text: 'hi' }, model: 'm' });
    const ctx = (server.server as unknown as { buildContext: Build }).buildContext(base({ envelope: { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/logLevel': 'warning' } }), { request });
    const params = { message: 'ok?', requestedSchema: { type: 'object' as const, properties: {} } };
    await ctx.mcpReq.elicitInput(params, { timeout: 5 });
    expect(elicit).toHaveBeenCalledWith(params, { timeout: 5 });
    await ctx.mcpReq.requestSampling({ messages: [], maxTokens: 1 }, undefined);
    expect(sample).toHaveBeenCalledWith({ messages: [], maxTokens: 1 }, undefined);

    // `log` is the SDK's own: the same notifications for the same calls.
    const base2 = base({ envelope: { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/logLevel': 'warning' } });
    const ours = (server.server as unknown as { buildContext: Build }).buildContext(base2, { request });
    const sdks = sdkBuild.call(server.server, base2, { request });
    const calls = async (context: ServerContext) => {
      notify.mockClear();
      await context.mcpReq.log('info', 'below a warning');
      await context.mcpReq.log('error', 'above it', 'tool');
      return notify.mock.calls.slice();
    };
    const logged = await calls(ours);
    expect(logged).toEqual(await calls(sdks));
    expect(logged).toContainEqual([{ method: 'notifications/message', params: { level: 'error', data: 'above it', logger: 'tool' } }]);
  });

  it('leaves a server of another class its own method', () => {
    class OwnServer extends Server {}
    const server = stockServer();
    Object.setPrototypeOf(server.server, OwnServer.prototype);
    expect(buildContextWithoutSpreads(server)).toBe(false);
    expect((server.server as unknown as { buildContext: Build }).buildContext).toBe(sdkBuild);
  });

  it('is handed, by the SDK’s own `_onrequest`, contexts with only enumerable string keys (what its key check reads)', async () => {
    const seen: unknown[] = [];
    const server = stockServer();
    server.server.registerCapabilities({ tools: {} });
    server.server.setRequestHandler('tools/call', () => ({ content: [] }));
    serveModernRevision(server, REVISION);
    expect(buildContextWithoutSpreads(server)).toBe(true);
    const low = server.server as unknown as { buildContext: Build };
    const ours = low.buildContext;
    low.buildContext = function (this: unknown, ctx: unknown, info?: unknown) {
      seen.push(ctx);
      return ours.call(this, ctx, info);
    };
    const transport = new SharedExchangeTransport({ era: 'modern', revision: REVISION });
    await server.connect(transport);
    transport.deliver = requestDelivery(server);
    try {
      for (const authInfo of [undefined, { token: 't', clientId: 'c', scopes: [] }]) {
        await new Promise<void>((resolve) => {
          const message = { jsonrpc: '2.0' as const, id: 1, method: 'tools/call', params: { name: 'x', _meta: { [PROTOCOL_VERSION_META_KEY]: REVISION, [CLIENT_CAPABILITIES_META_KEY]: {} } } };
          const outcome = transport.exchange(message, { request, authInfo }, { related: () => undefined, answer: () => resolve(), closed: () => resolve() }, () => undefined);
          if (outcome.kind === 'refused') resolve();
        });
      }
    } finally {
      await server.close();
    }
    expect(seen).toHaveLength(2);
    for (const ctx of seen as Array<{ mcpReq: object; http?: object }>) {
      for (const object of [ctx, ctx.mcpReq, ...(ctx.http ? [ctx.http] : [])]) expect(Reflect.ownKeys(object)).toEqual(Object.keys(object));
    }
  });
});

