/**
 * Bearer-token auth: one gate on every MCP route and selection form, the
 * protected-resource metadata, `authInfo` reaching tool handlers, sessions
 * bound to their principal, and toolset scopes — anonymous callers (where
 * `/toolsets` is open) included: no token, no scopes.
 */
import { OAuthError, OAuthErrorCode, type AuthInfo } from '@modelcontextprotocol/server';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashToken } from '../src/auth/staticTokens.js';
import { buildHost, createMcpApp, defineExtension, defineTool, silentLogger, type DeferredExtension, type McpHost, type ToolsetsBody } from '../src/index.js';
import { serveWithCommandAuth, type ServedWithAuth } from './helpers/commandAuth.js';
import { core, fixtureHost, spaces, type WhoAmI } from './helpers/fixtures.js';
import { CLIENT_KINDS, connectClient, initializeBody, jsonOf, listen, messagesOf, post, type Listening } from './helpers/http.js';

const inAnHour = () => Math.floor(Date.now() / 1000) + 3600;
const tokens: Record<string, Omit<AuthInfo, 'token'>> = {
  alice: { clientId: 'alice', scopes: ['mcp'], expiresAt: inAnHour() },
  bob: { clientId: 'bob', scopes: ['mcp', 'admin'], expiresAt: inAnHour() },
  'bob-downgraded': { clientId: 'bob', scopes: ['mcp'], expiresAt: inAnHour() },
  expired: { clientId: 'carol', scopes: ['mcp'], expiresAt: Math.floor(Date.now() / 1000) - 60 },
};
const verifier = {
  verifyAccessToken(token: string): Promise<AuthInfo> {
    const info = tokens[token];
    if (!info) return Promise.reject(new OAuthError(OAuthErrorCode.InvalidToken, 'unknown token'));
    return Promise.resolve({ token, ...info });
  },
};

const admin = defineExtension({
  manifest: { name: 'admin', version: '1.0.0' },
  toolsets: () => [{ name: 'admin', scopes: ['admin'], description: 'Administration.' }],
  tools: () => [defineTool({ name: 'reset_everything', description: 'Reset.', handler: () => 'reset' })],
});

const RESOURCE = 'https://mcp.example.com/mcp';
const METADATA = 'https://mcp.example.com/.well-known/oauth-protected-resource/mcp';

let host: McpHost;
let served: Listening;
beforeAll(async () => {
  host = await fixtureHost({}, [admin]);
  served = await listen(createMcpApp(host, { auth: { verifier, resourceServerUrl: RESOURCE, authorizationServers: ['https://auth.example.com'], scopesSupported: ['mcp', 'admin'] } }));
});
afterAll(async () => {
  await served.close();
  await host.stop();
});

const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

describe('401 on every MCP route and selection form', () => {
  const forms: Array<[string, string, Record<string, string>]> = [
    ['the endpoint', '/mcp', {}],
    ['a query selection', '/mcp?library', {}],
    ['a path selection', '/mcp/only=library', {}],
    ['a header selection', '/mcp', { 'x-mcp-toolsets': 'library' }],
    ['GET /toolsets', '/toolsets?library', {}],
  ];
  const credentials: Array<[string, Record<string, string>]> = [
    ['no token', {}],
    ['a malformed header', { authorization: 'Basic YWxpY2U6c2VjcmV0' }],
    ['an unknown token', bearer('mallory')],
    ['an expired token', bearer('expired')],
    // RFC 6750's syntax, strictly: the valid token with anything after it is not a credential.
    ['a valid token followed by junk', { authorization: 'Bearer alice junk' }],
    ['two comma-joined credentials', { authorization: 'Bearer alice, Bearer bob' }],
  ];
  for (const [form, path, headers] of forms) {
    it.each(credentials)(`${form}, with %s`, async (_what, auth) => {
      const init = path.startsWith('/toolsets') ? { headers: { ...headers, ...auth } } : { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers, ...auth }, body: JSON.stringify(initializeBody()) };
      const response = await fetch(served.url(path), init);
      expect(response.status).toBe(401);
      const challenge = response.headers.get('www-authenticate') ?? '';
      expect(challenge).toMatch(/^Bearer error="invalid_token"/);
      expect(challenge).toContain(`resource_metadata="${METADATA}"`);
    });
  }

  it('also guards GET and DELETE on the endpoint', async () => {
    expect((await fetch(served.url('/mcp'), { headers: { accept: 'text/event-stream' } })).status).toBe(401);
    expect((await fetch(served.url('/mcp'), { method: 'DELETE', headers: { 'mcp-session-id': 'x' } })).status).toBe(401);
  });

  it('leaves /healthz open by default', async () => {
    expect((await fetch(served.url('/healthz'))).status).toBe(200);
  });
});

describe('with a valid token', () => {
  it.each(CLIENT_KINDS)('authInfo reaches the tool handler as ctx.http.authInfo (%s)', async (kind) => {
    const client = await connectClient(kind, served.url('/mcp'), bearer('alice'));
    try {
      expect(jsonOf<WhoAmI>(await client.callTool('whoami')).clientId).toBe('alice');
    } finally {
      await client.close();
    }
  });

  it('serves the protected-resource metadata document', async () => {
    const response = await fetch(served.url('/.well-known/oauth-protected-resource/mcp'));
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ resource: RESOURCE, authorization_servers: ['https://auth.example.com'], scopes_supported: ['mcp', 'admin'] });
  });

  it("refuses another principal's session id", async () => {
    const opened = await post(served.url('/mcp'), initializeBody(), bearer('alice'));
    const id = opened.headers.get('mcp-session-id')!;
    await messagesOf(opened);
    const list = { jsonrpc: '2.0', id: 2, method: 'tools/list' };
    const session = { 'mcp-session-id': id, 'mcp-protocol-version': '2025-11-25' };
    expect((await post(served.url('/mcp'), list, { ...session, ...bearer('alice') })).status).toBe(200);
    expect((await post(served.url('/mcp'), list, { ...session, ...bearer('bob') })).status).toBe(404);
  });
});

describe('toolset scopes', () => {
  it('leaves out a toolset whose scopes the token lacks, listing it as denied', async () => {
    const body = (await (await fetch(served.url('/toolsets'), { headers: bearer('alice') })).json()) as ToolsetsBody;
    expect(body.denied).toEqual(['admin']);
    expect(body.active).not.toContain('admin');
    const alice = await connectClient('v2 client, 2025 protocol', served.url('/mcp'), bearer('alice'));
    const bob = await connectClient('v2 client, 2026-07-28 protocol', served.url('/mcp'), bearer('bob'));
    try {
      expect(await alice.toolNames()).not.toContain('reset_everything');
      expect(await bob.toolNames()).toContain('reset_everything');
    } finally {
      await alice.close();
      await bob.close();
    }
  });

  it.each([
    ['the query', '/mcp?only=admin', {}],
    ['the path', '/mcp/admin', {}],
    ['the header', '/mcp', { 'x-mcp-toolsets': 'toolsets=admin' }],
  ])('answers 403 insufficient_scope when %s names a denied toolset', async (_where, path, headers) => {
    const response = await post(served.url(path), initializeBody(), { ...headers, ...bearer('alice') });
    expect(response.status).toBe(403);
    const challenge = response.headers.get('www-authenticate') ?? '';
    expect(challenge).toContain('error="insufficient_scope"');
    expect(challenge).toContain('scope="admin"');
  });
});

describe('scopes on an open session', () => {
  it('refuses a request whose token lost the scopes of a toolset the session serves (same principal)', async () => {
    const opened = await post(served.url('/mcp?admin'), initializeBody(), bearer('bob'));
    expect(opened.status).toBe(200);
    const session = opened.headers.get('mcp-session-id')!;
    await opened.text();
    const list = { jsonrpc: '2.0', id: 2, method: 'tools/list', params: {} };
    const headers = (token: string) => ({ ...bearer(token), 'mcp-session-id': session, 'mcp-protocol-version': '2025-11-25' });
    const downgraded = await post(served.url('/mcp'), list, headers('bob-downgraded'));
    expect(downgraded.status).toBe(403);
    expect(downgraded.headers.get('www-authenticate') ?? '').toContain('scope="admin"');
    const full = await post(served.url('/mcp'), list, headers('bob'));
    expect(full.status).toBe(200);
    expect(JSON.stringify(await messagesOf(full))).toContain('reset_everything');
  });
});

describe('configurable routes', () => {
  it('can guard /healthz and open /toolsets', async () => {
    const app = createMcpApp(host, { auth: { verifyAccessToken: (t) => verifier.verifyAccessToken(t), protectHealthz: true, protectToolsets: false } });
    const other = await listen(app);
    try {
      expect((await fetch(other.url('/healthz'))).status).toBe(401);
      expect((await fetch(other.url('/healthz'), { headers: bearer('alice') })).status).toBe(200);
      expect((await fetch(other.url('/toolsets'))).status).toBe(200);
      const withToken = (await (await fetch(other.url('/toolsets'), { headers: bearer('alice') })).json()) as ToolsetsBody;
      expect(withToken.denied).toEqual(['admin']);
    } finally {
      await other.close();
    }
  });

  it('takes a verifier that throws a plain error as rejecting the token (401, not 500)', async () => {
    const app = createMcpApp(host, {
      auth: {
        verifyAccessToken: () => Promise.reject(new Error('introspection said no')),
      },
    });
    const other = await listen(app);
    try {
      expect((await post(other.url('/mcp'), initializeBody(), bearer('anything'))).status).toBe(401);
    } finally {
      await other.close();
    }
  });
});

describe('the catalog behind auth', () => {
  const html = { accept: 'text/html,application/xhtml+xml,*/*;q=0.8' };
  const page = (text: string, status = 401) => new Response(text, { status, headers: { 'content-type': 'text/html; charset=utf-8' } });

  it("gives a browser the renderer's page with the refusal's 401 and WWW-Authenticate, whatever the page said; others get the JSON refusal", async () => {
    const catalog = Object.assign(() => page('the catalog', 200), {
      // A careless page: 200 and a challenge of its own. The app keeps the refusal's.
      unauthorized: () => new Response('bring a token', { status: 200, headers: { 'content-type': 'text/html', 'www-authenticate': 'Basic' } }),
    });
    const other = await listen(createMcpApp(host, { catalog, auth: { verifier, resourceServerUrl: RESOURCE } }));
    try {
      const refusal = await fetch(other.url('/'), { headers: { accept: 'application/json' } });
      expect(refusal.status).toBe(401);
      expect(refusal.headers.get('content-type')).toMatch(/^application\/json/);
      const challenge = refusal.headers.get('www-authenticate');
      expect(challenge).toContain(`resource_metadata="${METADATA}"`);
      const browser = await fetch(other.url('/'), { headers: html });
      expect(browser.status).toBe(401);
      expect(browser.headers.get('www-authenticate')).toBe(challenge);
      expect(browser.headers.get('vary')).toBe('Accept');
      expect(await browser.text()).toBe('bring a token');
      // A browser with a token gets the catalog.
      expect(await (await fetch(other.url('/'), { headers: { ...html, ...bearer('alice') } })).text()).toBe('the catalog');
    } finally {
      await other.close();
    }
  });

  it('gives a browser the JSON refusal when the renderer has no such page', async () => {
    const other = await listen(createMcpApp(host, { catalog: () => page('the catalog', 200), auth: { verifier, resourceServerUrl: RESOURCE } }));
    try {
      const browser = await fetch(other.url('/'), { headers: html });
      expect(browser.status).toBe(401);
      expect(browser.headers.get('content-type')).toMatch(/^application\/json/);
    } finally {
      await other.close();
    }
  });
});

describe('a scoped always-on toolset', () => {
  it('is left out for a token lacking its scopes (listed as denied), never a refused connection; named explicitly, 403', async () => {
    const locked = await fixtureHost({ toolsetsTool: true }, [
      defineExtension({
        manifest: { name: 'vault', version: '1.0.0' },
        toolsets: () => [{ name: 'vault', always: true, scopes: ['admin'] }],
        tools: () => [defineTool({ name: 'open_vault', description: 'Open the vault.', handler: () => 'open' })],
      }),
    ]);
    const app = await listen(createMcpApp(locked, { auth: { verifier } }));
    try {
      const body = (await (await fetch(app.url('/toolsets'), { headers: bearer('alice') })).json()) as ToolsetsBody;
      expect(body.denied).toContain('vault');
      expect(body.active).not.toContain('vault');
      const alice = await connectClient('v2 client, 2025 protocol', app.url('/mcp'), bearer('alice'));
      try {
        expect(await alice.toolNames()).not.toContain('open_vault');
        const listed = await alice.callTool('list_server_toolsets');
        expect(listed.structuredContent, JSON.stringify(listed)).toMatchObject({ denied: ['vault'] });
      } finally {
        await alice.close();
      }
      const bob = await connectClient('v1 client (sdk 1.32)', app.url('/mcp'), bearer('bob'));
      try {
        expect(await bob.toolNames()).toContain('open_vault');
      } finally {
        await bob.close();
      }
      expect((await post(app.url('/mcp?vault'), initializeBody(), bearer('alice'))).status).toBe(403);
    } finally {
      await app.close();
      await locked.stop();
    }
  });
});

describe('anonymous callers where /toolsets is open (--no-auth-protect-toolsets)', () => {
  // Anonymous means no scopes: a scoped toolset is denied to it as to a token without them, and wakes nothing.
  const TOKEN = 'a-static-token-for-ops-0123456789';
  const vaultToolset = { name: 'vault', default: false, scopes: ['vault'], description: 'Runs code.' };
  let vaultLoads = 0;
  const vault: DeferredExtension = {
    kind: 'deferred',
    manifest: { name: 'vault', version: '1.0.0', activationEvents: ['onToolset:vault'] },
    toolsets: [vaultToolset],
    package: 'vault@1.0.0',
    load: () => {
      vaultLoads++;
      return Promise.resolve(
        defineExtension({
          manifest: { name: 'vault', version: '1.0.0', activationEvents: ['onToolset:vault'] },
          toolsets: () => [vaultToolset],
          tools: () => [defineTool({ name: 'open_vault', description: 'Open the vault.', handler: () => 'open' })],
        }),
      );
    },
  };
  let open: McpHost;
  let app: ServedWithAuth;
  let dir: string;
  let catalogSaw: { denied: readonly string[]; described: ToolsetsBody } | undefined;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'reactor-anonymous-'));
    await writeFile(join(dir, 'tokens.json'), JSON.stringify([{ name: 'ops', sha256: hashToken(TOKEN), scopes: ['admin', 'vault'] }]));
    open = await buildHost([core, spaces, admin, vault], { name: 'anonymous', logger: silentLogger });
    app = await serveWithCommandAuth(open, ['--auth-tokens-file', join(dir, 'tokens.json'), '--no-auth-protect-toolsets'], silentLogger, {}, {
      catalog: async (context) => {
        catalogSaw = { denied: context.denied, described: await context.describe(context.selection) };
        return new Response('catalog');
      },
    });
  });
  afterAll(async () => {
    await app.close();
    await open.stop();
    await rm(dir, { recursive: true, force: true });
  });
  const toolsets = async (query: string, headers: Record<string, string> = {}) => {
    const response = await fetch(app.listening.url(`/toolsets${query}`), { headers });
    expect(response.status).toBe(200);
    return (await response.json()) as ToolsetsBody;
  };

  it('GET /toolsets?admin: admin is not active, is reported denied, and its tools are not listed', async () => {
    const body = await toolsets('?admin');
    expect(body.active).not.toContain('admin');
    expect(body.denied).toEqual(expect.arrayContaining(['admin', 'vault']));
    expect(body.tools).not.toContain('reset_everything');
    expect((await toolsets('')).tools).not.toContain('reset_everything');
    // A token with the scope sees it.
    expect((await toolsets('?admin', bearer(TOKEN))).tools).toContain('reset_everything');
  });

  it('the catalog page gets the same: admin denied, its tools not described', async () => {
    expect((await fetch(app.listening.url('/?admin'))).status).toBe(200);
    expect(catalogSaw?.denied).toEqual(expect.arrayContaining(['admin', 'vault']));
    expect(catalogSaw?.described.tools).not.toContain('reset_everything');
  });

  it('/mcp stays closed to anonymous callers (401), and a token lacking nothing lists the tools', async () => {
    const list = { jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} };
    expect((await post(app.listening.url('/mcp?admin'), list, { 'mcp-protocol-version': '2025-11-25' })).status).toBe(401);
    const ops = await connectClient('v2 client, 2025 protocol', app.listening.url('/mcp?admin'), bearer(TOKEN));
    try {
      expect(await ops.toolNames()).toContain('reset_everything');
    } finally {
      await ops.close();
    }
  });

  it('a held extension behind a scoped toolset is not woken by an anonymous /toolsets?vault (nor by the catalog)', async () => {
    const body = await toolsets('?vault');
    expect(body.active).not.toContain('vault');
    expect(body.denied).toContain('vault');
    expect((await fetch(app.listening.url('/?vault'))).status).toBe(200);
    expect(vaultLoads).toBe(0);
    expect(open.report().extensions.find((e) => e.name === 'vault')).toMatchObject({ state: 'held', started: false });
  });
});
