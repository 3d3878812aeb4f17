/**
 * CORS over real HTTP: off by default (a preflight is 405, as before), and with
 * `corsOrigins` a preflight from a listed origin is 204 with the headers an MCP
 * client sends, answers expose `Mcp-Session-Id` and `WWW-Authenticate`, and an
 * unlisted origin is refused. DNS-rebinding protection still checks `Host`.
 * Any origin (`*`) without auth would let every web page call the tools: it is
 * refused unless asked for by name, and CORS without auth is warned about.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { ErrorCodes } from '../../kernel/errors.js';
import { buildHost, defineExtension, defineTool, silentLogger } from '../../index.js';
import { captureLogger } from '../../testing/captureLogger.js';
import { createMcpApp } from './app.js';
import type { McpAppOptions } from './options.js';
import { listen } from '../../../test/helpers/http.js';

const ext = defineExtension({
  manifest: { name: 'demo', version: '1.0.0' },
  tools: () => [defineTool({ name: 'ping', description: 'Ping.', handler: () => 'pong' })],
});

const cleanup: Array<() => Promise<void>> = [];
afterEach(async () => {
  while (cleanup.length > 0) await cleanup.pop()!();
});

async function serve(options: McpAppOptions = {}): Promise<string> {
  const host = await buildHost([ext], { logger: silentLogger });
  const served = await listen(createMcpApp(host, options));
  cleanup.push(async () => {
    await served.close();
    await host.stop();
  });
  return served.origin;
}

const APP = 'https://app.example.com';
const preflight = (origin: string) => ({
  method: 'OPTIONS',
  headers: { origin, 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type, mcp-session-id, authorization' },
});
const initialize = {
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'browser', version: '1.0.0' } },
};

describe('CORS', () => {
  it('is off by default: a preflight gets 405 and no CORS header', async () => {
    const base = await serve();
    const res = await fetch(`${base}/mcp`, preflight('http://localhost:3000'));
    expect(res.status).toBe(405);
    expect(res.headers.get('access-control-allow-origin')).toBeNull();
  });

  it('answers a preflight from a listed origin with 204 and the headers an MCP client sends', async () => {
    const base = await serve({ corsOrigins: [APP] });
    const res = await fetch(`${base}/mcp`, preflight(APP));
    expect(res.status).toBe(204);
    expect(res.headers.get('access-control-allow-origin')).toBe(APP);
    expect(res.headers.get('access-control-allow-methods')).toBe('GET, POST, DELETE');
    const allowed = res.headers.get('access-control-allow-headers')!.split(', ');
    expect(allowed).toEqual(expect.arrayContaining(['Authorization', 'Content-Type', 'Mcp-Session-Id', 'Mcp-Protocol-Version', 'Last-Event-ID', 'X-MCP-Toolsets']));
    expect(res.headers.get('access-control-expose-headers')).toBe('Mcp-Session-Id, WWW-Authenticate');
    expect(res.headers.get('vary')).toContain('Origin');
  });

  it('lets the listed origin initialize and read the session id it is given', async () => {
    const base = await serve({ corsOrigins: [APP] });
    const res = await fetch(`${base}/mcp`, {
      method: 'POST',
      headers: { origin: APP, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify(initialize),
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('access-control-allow-origin')).toBe(APP);
    expect(res.headers.get('access-control-expose-headers')).toContain('Mcp-Session-Id');
    expect(res.headers.get('mcp-session-id')).toBeTruthy();
    await res.body?.cancel();
  });

  it('refuses a preflight from an origin it does not list, and keeps refusing that origin on requests', async () => {
    const base = await serve({ corsOrigins: [APP] });
    const pre = await fetch(`${base}/mcp`, preflight('https://evil.example.net'));
    expect(pre.status).toBe(403);
    expect(pre.headers.get('access-control-allow-origin')).toBeNull();
    expect(((await pre.json()) as { error: { message: string } }).error.message).toContain('corsOrigins');
    const post = await fetch(`${base}/mcp`, { method: 'POST', headers: { origin: 'https://evil.example.net', 'content-type': 'application/json' }, body: JSON.stringify(initialize) });
    expect(post.status).toBe(403);
  });

  it('keeps DNS-rebinding protection: a foreign Host is refused even from a listed origin', async () => {
    const base = await serve({ corsOrigins: ['*'], corsAllowAnyOriginWithoutAuth: true });
    const { request } = await import('node:http');
    const status = await new Promise<number>((resolve, reject) => {
      const url = new URL(`${base}/toolsets`);
      const req = request({ host: url.hostname, port: url.port, path: '/toolsets', headers: { host: 'attacker.example', origin: APP } }, (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      });
      req.on('error', reject);
      req.end();
    });
    expect(status).toBe(403);
  });

  it('covers the info routes too (GET /toolsets from the listed origin carries the CORS headers)', async () => {
    const base = await serve({ corsOrigins: [APP] });
    const res = await fetch(`${base}/toolsets`, { headers: { origin: APP } });
    expect(res.status).toBe(200);
    expect(res.headers.get('access-control-allow-origin')).toBe(APP);
    const pre = await fetch(`${base}/toolsets`, preflight(APP));
    expect(pre.status).toBe(204);
    expect(pre.headers.get('access-control-allow-methods')).toBe('GET');
  });

  it('rejects a corsOrigins entry that is not an origin, at start-up', async () => {
    const host = await buildHost([ext], { logger: silentLogger });
    expect(() => createMcpApp(host, { corsOrigins: ['https://app.example.com/path'] })).toThrow(/corsOrigins/);
    await host.stop();
  });
});

describe('CORS without auth', () => {
  const verifyAccessToken = () => Promise.resolve({ token: 't', clientId: 'c', scopes: [], expiresAt: Math.floor(Date.now() / 1000) + 60 });

  it("refuses corsOrigins ['*'] without auth at start-up, naming the option that allows it", async () => {
    const host = await buildHost([ext], { logger: silentLogger });
    try {
      expect(() => createMcpApp(host, { corsOrigins: ['https://app.example.com', '*'] })).toThrow(
        expect.objectContaining({ code: ErrorCodes.OPTION_INVALID, message: expect.stringContaining('corsAllowAnyOriginWithoutAuth') as unknown }),
      );
    } finally {
      await host.stop();
    }
  });

  it("serves '*' with auth, or without it when corsAllowAnyOriginWithoutAuth says so (warned about)", async () => {
    const withAuth = await serve({ corsOrigins: ['*'], auth: { verifyAccessToken } });
    expect((await fetch(`${withAuth}/mcp`, preflight('https://any.example'))).status).toBe(204);
    const logger = captureLogger();
    const host = await buildHost([ext], { logger: silentLogger });
    const served = await listen(createMcpApp(host, { corsOrigins: ['*'], corsAllowAnyOriginWithoutAuth: true, logger }));
    cleanup.push(async () => {
      await served.close();
      await host.stop();
    });
    expect((await fetch(`${served.origin}/mcp`, preflight('https://any.example'))).status).toBe(204);
    expect(logger.entries.filter((e) => e.level === 'warn').map((e) => e.msg)).toEqual([expect.stringMatching(/no authentication.*any web page/s)]);
  });

  it('warns whenever CORS and no auth meet (a listed origin too), and not with auth', async () => {
    const host = await buildHost([ext], { logger: silentLogger });
    try {
      const open = captureLogger();
      await createMcpApp(host, { corsOrigins: [APP], logger: open }).close();
      expect(open.entries.filter((e) => e.level === 'warn').map((e) => e.msg)).toEqual([expect.stringMatching(/https:\/\/app\.example\.com.*no authentication/s)]);
      const guarded = captureLogger();
      await createMcpApp(host, { corsOrigins: [APP], auth: { verifyAccessToken }, logger: guarded }).close();
      expect(guarded.entries.filter((e) => e.level === 'warn')).toEqual([]);
    } finally {
      await host.stop();
    }
  });
});
