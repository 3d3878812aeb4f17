/**
 * The command's OAuth resource server against a real authorization server
 * (oidc-provider on a loopback port): the auth the command sets up from its
 * flags (`parseCommandOptions` → `setUpCommandAuth`) in front of the app.
 *
 * A token the provider issued for this resource with the right scopes works
 * for every client and selection form; every forged or misdirected token is
 * 401 with the challenge naming the metadata document; scopes map to
 * toolsets (denied, 403); a rotated signing key is picked up without a
 * restart, while unknown `kid`s cannot make the server refetch keys in a loop;
 * principals are qualified by issuer and by auth method (two issuers with the
 * same client and sub, a static token of that name: three principals, for
 * sessions and `requestState` alike).
 * (Introspection: auth-introspection.test.ts.) No token is ever logged.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generateKeyPair, SignJWT, base64url } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashToken } from '../src/auth/staticTokens.js';
import { defineExtension, defineTool, inputRequired, type McpHost, type ToolsetsBody } from '../src/index.js';
import { bearer, recordingLogger, serveWithCommandAuth, type ServedWithAuth } from './helpers/commandAuth.js';
import { fixtureHost, type WhoAmI } from './helpers/fixtures.js';
import { CLIENT_KINDS, connectClient, initializeBody, jsonOf, messagesOf, post } from './helpers/http.js';
import { CLIENTS, makeKey, signRaw, startIssuer, type TestIssuer } from './helpers/oidcProvider.js';

const RESOURCE = 'https://mcp.example.test/mcp';
const METADATA = 'https://mcp.example.test/.well-known/oauth-protected-resource/mcp';

const admin = defineExtension({
  manifest: { name: 'admin', version: '1.0.0' },
  toolsets: () => [{ name: 'admin', scopes: ['admin'], description: 'Administration.' }],
  tools: () => [defineTool({ name: 'reset_everything', description: 'Reset.', handler: () => 'reset' })],
});

const now = () => Math.floor(Date.now() / 1000);

let idp: TestIssuer;
let host: McpHost;
let served: ServedWithAuth;
const logger = recordingLogger();
const seenTokens: string[] = [];

beforeAll(async () => {
  idp = await startIssuer(await makeKey('k1'));
  host = await fixtureHost({ toolsetsTool: true }, [admin]);
  served = await serveWithCommandAuth(host, ['--auth-issuer', idp.issuer, '--public-url', RESOURCE, '--auth-required-scope', 'mcp'], logger);
});
afterAll(async () => {
  await served.close();
  await host.stop();
  await idp.close();
  // Tokens reach logs nowhere: not in rejections, not in errors.
  for (const token of seenTokens) expect(logger.lines.join('\n')).not.toContain(token.slice(-24));
});

async function issued(scope: string, resource = RESOURCE): Promise<string> {
  const token = await idp.token({ scope, resource });
  seenTokens.push(token);
  return token;
}

describe('a token issued for this resource', () => {
  const forms: Array<[string, string, Record<string, string>]> = [
    ['the query', '/mcp?library', {}],
    ['the path', '/mcp/library', {}],
    ['the X-MCP-Toolsets header', '/mcp', { 'x-mcp-toolsets': 'library' }],
  ];
  for (const kind of CLIENT_KINDS) {
    it.each(forms)(`works for a ${kind} selecting by %s`, async (_form, path, headers) => {
      const client = await connectClient(kind, served.listening.url(path), { ...headers, ...bearer(await issued('mcp')) });
      try {
        expect(await client.toolNames()).toContain('find_book');
        const who = jsonOf<WhoAmI>(await client.callTool('whoami'));
        expect(who.clientId).toBe(CLIENTS.agent.id);
        expect(who.toolsets).toContain('library');
      } finally {
        await client.close();
      }
    });
  }

  it('is named in the protected-resource metadata the challenges point at', async () => {
    const document = (await (await fetch(served.listening.url('/.well-known/oauth-protected-resource/mcp'))).json()) as Record<string, unknown>;
    expect(document).toMatchObject({ resource: RESOURCE, authorization_servers: [idp.issuer], resource_name: 'fixture' });
    expect(document.scopes_supported).toEqual(['mcp', 'admin']);
  });

  it('may have expired within the clock skew (30 s)', async () => {
    const token = await idp.forge(RESOURCE, { exp: now() - 10 });
    expect((await post(served.listening.url('/mcp'), initializeBody(), bearer(token))).status).toBe(200);
  });
});

describe('attacks: 401 with the challenge naming the metadata document', () => {
  const attacks: Array<[string, () => Promise<string>, RegExp]> = [
    ['a token for another resource (real, from the provider)', () => issued('mcp', 'https://other.example.test/mcp'), /not issued for this resource/],
    ['a token whose iss is another issuer', () => idp.forge(RESOURCE, { iss: 'https://evil.example.test' }), /issuer is not trusted/],
    ['a token whose iss differs only in case', () => idp.forge(RESOURCE, { iss: idp.issuer.toUpperCase() }), /issuer is not trusted/],
    ['an expired token (past the skew)', () => idp.forge(RESOURCE, { exp: now() - 120 }), /has expired/],
    ['a token not yet valid (nbf in 5 minutes)', () => idp.forge(RESOURCE, { nbf: now() + 300 }), /not yet valid/],
    ['a token without exp', () => idp.forge(RESOURCE, {}, { omit: ['exp'] }), /no "exp" claim/],
    ['a token without aud', () => idp.forge(RESOURCE, {}, { omit: ['aud'] }), /no "aud" claim/],
    [
      'a token with a tampered payload (scope raised, signature kept)',
      async () => {
        const [header, , signature] = (await issued('mcp')).split('.');
        const payload = base64url.encode(JSON.stringify({ iss: idp.issuer, aud: RESOURCE, client_id: 'agent', scope: 'mcp admin', exp: now() + 300 }));
        return `${header}.${payload}.${signature}`;
      },
      /signature is invalid/,
    ],
    [
      'a token with a corrupted signature',
      async () => {
        const token = await issued('mcp');
        return `${token.slice(0, -6)}${token.slice(-6, -5) === 'A' ? 'B' : 'A'}${token.slice(-5)}`;
      },
      /signature is invalid/,
    ],
    [
      'alg: none (unsigned)',
      () => {
        const header = base64url.encode(JSON.stringify({ alg: 'none', typ: 'at+jwt', kid: idp.key.kid }));
        const payload = base64url.encode(JSON.stringify({ iss: idp.issuer, aud: RESOURCE, client_id: 'agent', scope: 'mcp admin', exp: now() + 300 }));
        return Promise.resolve(`${header}.${payload}.`);
      },
      /algorithm is not accepted/,
    ],
    [
      'HS256 signed with the issuer\'s public key as the secret (key confusion)',
      async () =>
        await new SignJWT({ iss: idp.issuer, aud: RESOURCE, client_id: 'agent', scope: 'mcp admin', exp: now() + 300 })
          .setProtectedHeader({ alg: 'HS256', typ: 'at+jwt', kid: idp.key.kid })
          .sign(new TextEncoder().encode(await idp.publicPem())),
      /algorithm is not accepted/,
    ],
    [
      'a key of the attacker, embedded in the header (jwk) under the issuer\'s kid',
      async () => {
        const attacker = await makeKey(idp.key.kid);
        const { d: _d, p: _p, q: _q, dp: _dp, dq: _dq, qi: _qi, ...publicJwk } = attacker.jwk;
        return await idp.forge(RESOURCE, { scope: 'mcp admin' }, { key: attacker, header: { jwk: publicJwk } });
      },
      /signature is invalid/,
    ],
    ['a key the issuer never published (unknown kid)', async () => await idp.forge(RESOURCE, {}, { key: await makeKey('never-published') }), /key its issuer does not publish/],
    [
      'an unknown critical header extension (crit), validly signed',
      () => Promise.resolve(signRaw({ alg: 'RS256', typ: 'at+jwt', kid: idp.key.kid, crit: ['x-unknown'], 'x-unknown': true }, { iss: idp.issuer, aud: RESOURCE, client_id: 'agent', scope: 'mcp', exp: now() + 300 }, idp.key)),
      /header this server does not support/,
    ],
    ['an ID-token-shaped JWT (aud: the client id)', () => idp.forge(RESOURCE, { aud: CLIENTS.agent.id }), /not issued for this resource/],
    ['not a JWT at all', () => Promise.resolve('opaque-but-no-introspection'), /Invalid token|not a well-formed JWT/],
  ];

  it.each(attacks)('%s', async (_name, make, reason) => {
    const token = await make();
    seenTokens.push(token);
    const response = await post(served.listening.url('/mcp'), initializeBody(), bearer(token));
    expect(response.status).toBe(401);
    const challenge = response.headers.get('www-authenticate') ?? '';
    expect(challenge).toMatch(/^Bearer error="invalid_token"/);
    expect(challenge).toContain(`resource_metadata="${METADATA}"`);
    const body = (await response.json()) as { error: string; error_description: string };
    expect(body.error).toBe('invalid_token');
    expect(body.error_description).toMatch(reason);
  });

  it('refuses a token in the query string (400), even a valid one', async () => {
    const response = await post(new URL(`/mcp?access_token=${await issued('mcp')}`, served.listening.origin), initializeBody());
    expect(response.status).toBe(400);
    expect(((await response.json()) as { error: string }).error).toBe('invalid_request');
  });

  it('does not refetch the key set for every unknown kid (one refetch per cooldown at most)', async () => {
    await post(served.listening.url('/mcp'), initializeBody(), bearer(await issued('mcp'))); // keys loaded
    const before = idp.jwksFetches;
    const { privateKey } = await generateKeyPair('RS256');
    const forged = await Promise.all(
      Array.from({ length: 40 }, (_, i) =>
        new SignJWT({ iss: idp.issuer, aud: RESOURCE, scope: 'mcp', exp: now() + 300 }).setProtectedHeader({ alg: 'RS256', kid: `random-${i}` }).sign(privateKey),
      ),
    );
    const statuses = await Promise.all(forged.map(async (token) => (await post(served.listening.url('/mcp'), initializeBody(), bearer(token))).status));
    expect(new Set(statuses)).toEqual(new Set([401]));
    expect(idp.jwksFetches - before).toBeLessThanOrEqual(1);
  });
});

describe('scopes', () => {
  it('a token lacking a toolset\'s scope does not get it (denied); naming it is 403 insufficient_scope', async () => {
    const token = await issued('mcp');
    const body = (await (await fetch(served.listening.url('/toolsets'), { headers: bearer(token) })).json()) as ToolsetsBody;
    expect(body.denied).toEqual(['admin']);
    const client = await connectClient('v1 client (sdk 1.32)', served.listening.url('/mcp'), bearer(token));
    try {
      expect(await client.toolNames()).not.toContain('reset_everything');
    } finally {
      await client.close();
    }
    const named = await post(served.listening.url('/mcp?only=admin'), initializeBody(), bearer(token));
    expect(named.status).toBe(403);
    expect(named.headers.get('www-authenticate') ?? '').toMatch(/error="insufficient_scope".*scope="admin"/);
  });

  it('a token with the scope gets the toolset', async () => {
    const client = await connectClient('v2 client, 2026-07-28 protocol', served.listening.url('/mcp'), bearer(await issued('mcp admin')));
    try {
      expect(await client.toolNames()).toContain('reset_everything');
    } finally {
      await client.close();
    }
  });

  it('--auth-required-scope: a token without it is 403 on every request, with the scope in the challenge', async () => {
    const response = await post(served.listening.url('/mcp'), initializeBody(), bearer(await issued('admin')));
    expect(response.status).toBe(403);
    expect(response.headers.get('www-authenticate') ?? '').toMatch(/error="insufficient_scope".*scope="mcp"/);
  });
});

describe('key rotation', () => {
  it('picks up a new signing key without a restart, and refuses the rotated-out one', async () => {
    const rotating = await startIssuer(await makeKey('old'));
    const app = await serveWithCommandAuth(host, ['--auth-issuer', rotating.issuer, '--public-url', RESOURCE, '--auth-jwks-cooldown', '0'], logger);
    try {
      const old = rotating.key;
      expect((await post(app.listening.url('/mcp'), initializeBody(), bearer(await rotating.token({ scope: 'mcp', resource: RESOURCE })))).status).toBe(200);
      await rotating.rotate(await makeKey('new'));
      const fresh = await rotating.token({ scope: 'mcp', resource: RESOURCE });
      expect((await post(app.listening.url('/mcp'), initializeBody(), bearer(fresh))).status).toBe(200);
      const signedWithOld = await rotating.forge(RESOURCE, {}, { key: old });
      const refused = await post(app.listening.url('/mcp'), initializeBody(), bearer(signedWithOld));
      expect(refused.status).toBe(401);
      expect(((await refused.json()) as { error_description: string }).error_description).toMatch(/key its issuer does not publish/);
    } finally {
      await app.close();
      await rotating.close();
    }
  });
});

describe('principals are qualified by where the identity came from', () => {
  // Issuers A and B both register the client `agent`: their tokens carry the same
  // client_id and sub. The tokens file names a static token `agent` too.
  const STATIC = 'static-token-of-agent-0123456789abcdef';
  const STATE_KEY = 'a-request-state-key-of-more-than-32-bytes!';
  const asker = defineExtension({
    manifest: { name: 'asker', version: '1.0.0' },
    tools: () => [
      defineTool({
        name: 'confirm_reset',
        description: 'Asks before resetting.',
        handler: (_args, ctx) => (ctx.mcpReq.requestState() === 'asked' ? 'reset' : inputRequired({ inputRequests: { ok: inputRequired.listRoots() }, requestState: 'asked' })),
      }),
    ],
  });
  let a: TestIssuer;
  let b: TestIssuer;
  let twoHost: McpHost;
  let two: ServedWithAuth;
  let dir: string;

  beforeAll(async () => {
    [a, b] = await Promise.all([startIssuer(await makeKey('a')), startIssuer(await makeKey('b'))]);
    dir = await mkdtemp(join(tmpdir(), 'reactor-principals-'));
    const tokensFile = join(dir, 'tokens.json');
    await writeFile(tokensFile, JSON.stringify([{ name: CLIENTS.agent.id, sha256: hashToken(STATIC), scopes: ['mcp'] }]));
    twoHost = await fixtureHost({ requestStateKey: STATE_KEY }, [asker]);
    two = await serveWithCommandAuth(twoHost, ['--auth-issuer', a.issuer, '--auth-issuer', b.issuer, '--auth-tokens-file', tokensFile, '--public-url', RESOURCE], logger);
  });
  afterAll(async () => {
    await two.close();
    await twoHost.stop();
    await Promise.all([a.close(), b.close()]);
    await rm(dir, { recursive: true, force: true });
  });

  const fromA = async () => await a.token({ scope: 'mcp', resource: RESOURCE });
  const fromB = async () => await b.token({ scope: 'mcp', resource: RESOURCE });

  /** Opens a 2025 session with `token`; answers how a tools/list on it fares with another token. */
  async function session(opener: string): Promise<(token: string) => Promise<number>> {
    const opened = await post(two.listening.url('/mcp'), initializeBody(), bearer(opener));
    expect(opened.status).toBe(200);
    const id = opened.headers.get('mcp-session-id')!;
    await opened.text();
    return async (token) => {
      const response = await post(two.listening.url('/mcp'), { jsonrpc: '2.0', id: 2, method: 'tools/list', params: {} }, { ...bearer(token), 'mcp-session-id': id, 'mcp-protocol-version': '2025-11-25' });
      await response.text();
      return response.status;
    };
  }

  it("a session opened with issuer A's token refuses issuer B's token with the same client and sub (404), and takes a fresh A token", async () => {
    const listWith = await session(await fromA());
    expect(await listWith(await fromB())).toBe(404);
    expect(await listWith(await fromA())).toBe(200);
  });

  it('a static token and a JWT with the same name and sub are different principals', async () => {
    const staticSession = await session(STATIC);
    expect(await staticSession(await fromA())).toBe(404);
    expect(await staticSession(STATIC)).toBe(200);
    const jwtSession = await session(await fromA());
    expect(await jwtSession(STATIC)).toBe(404);
  });

  it('a requestState minted under issuer A is refused under issuer B (-32602), and accepted under A', async () => {
    const call = async (token: string, requestState?: string) =>
      (
        await messagesOf(
          await post(
            two.listening.url('/mcp'),
            { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'confirm_reset', arguments: {}, ...(requestState ? { requestState, inputResponses: { ok: { roots: [] } } } : {}), _meta: META_2026 } },
            { ...bearer(token), 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'tools/call', 'mcp-name': 'confirm_reset' },
          ),
        )
      ).find((m) => 'result' in m || 'error' in m)!;
    const first = (await call(await fromA()))['result'] as { resultType: string; requestState: string };
    expect(first.resultType).toBe('input_required');
    expect((await call(await fromB(), first.requestState))['error']).toMatchObject({ code: -32602, message: 'Invalid or expired requestState' });
    expect((await call(STATIC, first.requestState))['error']).toMatchObject({ code: -32602 });
    expect((await call(await fromA(), first.requestState))['result']).toMatchObject({ content: [{ type: 'text', text: 'reset' }] });
  });
});

const META_2026 = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientCapabilities': { roots: {} },
  'io.modelcontextprotocol/clientInfo': { name: 'raw-2026', version: '1.0.0' },
};
