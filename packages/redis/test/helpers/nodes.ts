/**
 * Replicas for the tests: a host served by `createMcpApp` over a real HTTP
 * listener on 127.0.0.1, wired to Redis the way the command wires it.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { OAuthError, OAuthErrorCode } from '@modelcontextprotocol/server';
import { buildHost, createMcpApp, defineExtension, defineTool, silentLogger, type McpAppOptions, type McpHost } from '@reactor/host';
import { connectRedis, type ReactorRedis } from '../../src/index.js';

/** Signs 2026-07-28 request state; every replica shares it. */
const REQUEST_STATE_KEY = 'a-test-request-state-key-of-more-than-32-bytes';

/** A tool that is always there (and may change the world: not annotated read-only), a read-only one, and four resources a 2025 session can subscribe to. */
export const base = defineExtension({
  manifest: { name: 'base', version: '1.0.0' },
  tools: () => [
    defineTool({ name: 'ping', description: 'Answers pong.', inputSchema: {}, handler: () => 'pong' }),
    defineTool({ name: 'peek', description: 'Answers peeked, changing nothing.', inputSchema: {}, annotations: { readOnlyHint: true }, handler: () => 'peeked' }),
  ],
  resources: () =>
    ['a', 'b', 'c', 'd'].map((name) => ({ name, uri: `test://${name}`, subscribe: true, read: (uri: URL) => ({ contents: [{ uri: uri.href, text: name }] }) })),
});

/** An extension the tests disable. */
export const guard = defineExtension({
  manifest: { name: 'guard', version: '1.0.0' },
  tools: () => [defineTool({ name: 'guarded', description: 'Disappears when guard is disabled.', inputSchema: {}, handler: () => 'ok' })],
});

/** One replica. */
export interface TestNode {
  readonly name: string;
  readonly host: McpHost;
  readonly redis: ReactorRedis;
  /** `http://127.0.0.1:<port>/mcp` */
  readonly url: URL;
  /** How many sessions this replica holds. */
  readonly sessionCount: number;
  /** Shuts down as the command does on SIGTERM (the app releases this node's sessions first). */
  close(): Promise<void>;
  /**
   * Goes silent as a killed process would: the listener drops every connection
   * and the heartbeat stops, left to expire in Redis. `close()` still cleans up.
   */
  crash(): Promise<void>;
}

/** Bearer tokens the replicas accept when started with `auth`: `<name>-token` is principal `<name>`. */
export const tokenAuth: NonNullable<McpAppOptions['auth']> = {
  verifyAccessToken: (token: string) => {
    const match = /^([a-z]+)-token$/.exec(token);
    if (!match) return Promise.reject(new OAuthError(OAuthErrorCode.InvalidToken, 'unknown test token'));
    return Promise.resolve({ token, clientId: match[1]!, scopes: [], expiresAt: Math.floor(Date.now() / 1000) + 3600 });
  },
};

/** How a test replica differs from the default one. */
export interface NodeOptions {
  readonly connectTimeoutMs?: number;
  /** Bearer tokens required ({@link tokenAuth}). */
  readonly auth?: boolean;
  /** The heartbeat interval, ms (short, so a silent node is gone soon). Default 1000. */
  readonly heartbeatIntervalMs?: number;
  /** The session idle timeout, ms (the app's and Redis' TTLs). Default 60 000. */
  readonly idleTimeoutMs?: number;
  /** The operator's read-only bound (`--read-only`): only tools annotated read-only are served. */
  readonly readOnly?: boolean;
}

/** Starts replica `name` on Redis `redisUrl` under key prefix `keyPrefix`, with the session registry on. */
export async function startNode(name: string, redisUrl: string, keyPrefix: string, options: NodeOptions = {}): Promise<TestNode> {
  const host = await buildHost([base, guard], { logger: silentLogger, strict: true, requestStateKey: REQUEST_STATE_KEY });
  const redis = await connectRedis({
    url: redisUrl,
    sessionIdleTimeoutMs: options.idleTimeoutMs ?? 60_000,
    logger: silentLogger,
    keyPrefix,
    nodeId: name,
    ...(options.connectTimeoutMs !== undefined ? { connectTimeoutMs: options.connectTimeoutMs } : {}),
    ...(options.heartbeatIntervalMs !== undefined ? { heartbeatIntervalMs: options.heartbeatIntervalMs } : {}),
  });
  await redis.shareHostToggles(host);
  const app = createMcpApp(host, {
    eventStore: redis.eventStore,
    bus: redis.bus,
    sessionRegistry: redis.sessions,
    healthChecks: [redis.healthCheck],
    nodeId: name,
    sessions: { idleTimeoutMs: options.idleTimeoutMs ?? 60_000 },
    ...(options.auth ? { auth: tokenAuth } : {}),
    ...(options.readOnly ? { readOnly: true } : {}),
  });
  const server = createServer(app);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    name,
    host,
    redis,
    url: new URL(`http://127.0.0.1:${port}/mcp`),
    get sessionCount() {
      return app.sessionCount;
    },
    async close() {
      await app.close();
      server.closeAllConnections();
      if (server.listening) await new Promise<void>((resolve) => server.close(() => resolve()));
      await redis.close();
      await host.stop();
    },
    async crash() {
      redis.sessions.stop();
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeAllConnections();
      await closed;
    },
  };
}

export const POST_HEADERS = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' } as const;

/** A POST of `body` to `url`. */
export async function post(url: URL, body: unknown, headers: Record<string, string> = {}): Promise<Response> {
  return await fetch(url, { method: 'POST', headers: { ...POST_HEADERS, ...headers }, body: JSON.stringify(body) });
}

/** Opens a 2025-11-25 session on `url`; answers the headers its later requests carry. */
export async function openSession(url: URL): Promise<Record<string, string>> {
  const response = await post(url, { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'redis-test', version: '1.0.0' } } });
  const id = response.headers.get('mcp-session-id');
  await response.text();
  if (!id) throw new Error(`initialize opened no session (HTTP ${response.status})`);
  const headers = { 'mcp-session-id': id, 'mcp-protocol-version': '2025-11-25' };
  const initialized = await post(url, { jsonrpc: '2.0', method: 'notifications/initialized' }, headers);
  await initialized.text();
  return headers;
}

/** The 2026-07-28 `_meta` every such request carries. */
export const META_2026 = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientCapabilities': {},
  'io.modelcontextprotocol/clientInfo': { name: 'redis-test', version: '1.0.0' },
};

/** One 2026-07-28 request (`method` with `params`). */
export async function post2026(url: URL, id: number, method: string, params: Record<string, unknown>): Promise<Response> {
  // A call names its tool (or prompt, or resource) in Mcp-Name too.
  const name: Record<string, string> = typeof params['name'] === 'string' ? { 'mcp-name': params['name'] } : typeof params['uri'] === 'string' ? { 'mcp-name': params['uri'] } : {};
  return await post(url, { jsonrpc: '2.0', id, method, params: { ...params, _meta: META_2026 } }, { 'mcp-protocol-version': '2026-07-28', 'mcp-method': method, ...name });
}

/**
 * Opens the standalone GET stream of a 2025 session. Node sends a response's
 * headers with its first byte, and the SDK writes nothing on this stream
 * until an event (or its 15 s keep-alive), so `fetch` resolves only once an
 * event arrives: `poke` is called until it does.
 */
export async function openGetStream(node: TestNode, session: Record<string, string>, poke: () => Promise<unknown>): Promise<Response> {
  let settled = false;
  const getting = fetch(node.url, { headers: { ...session, accept: 'text/event-stream' } }).finally(() => {
    settled = true;
  });
  while (!settled) await poke();
  return await getting;
}
