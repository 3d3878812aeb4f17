/**
 * Opaque access tokens checked by RFC 7662 introspection against a real
 * authorization server (oidc-provider's introspection endpoint), with the
 * auth the command sets up from `--auth-introspection-url` and the client
 * credentials in the environment: an active token for this resource works
 * with its client and scopes; an unknown one or one for another resource is
 * 401; JWTs of a trusted issuer are still verified locally; wrong server
 * credentials refuse every token (401, never 500) and say so in the log.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defineExtension, defineTool, type McpHost } from '../src/index.js';
import { bearer, recordingLogger, serveWithCommandAuth, type ServedWithAuth } from './helpers/commandAuth.js';
import { fixtureHost, type WhoAmI } from './helpers/fixtures.js';
import { connectClient, initializeBody, jsonOf, post } from './helpers/http.js';
import { CLIENTS, makeKey, startIssuer, type TestIssuer } from './helpers/oidcProvider.js';

const RESOURCE = 'https://mcp.example.test/mcp';
const METADATA = 'https://mcp.example.test/.well-known/oauth-protected-resource/mcp';

const admin = defineExtension({
  manifest: { name: 'admin', version: '1.0.0' },
  toolsets: () => [{ name: 'admin', scopes: ['admin'], description: 'Administration.' }],
  tools: () => [defineTool({ name: 'reset_everything', description: 'Reset.', handler: () => 'reset' })],
});

let idp: TestIssuer;
let host: McpHost;
const logger = recordingLogger();
const seenTokens: string[] = [];

beforeAll(async () => {
  idp = await startIssuer(await makeKey('introspection'));
  host = await fixtureHost({}, [admin]);
});
afterAll(async () => {
  await host.stop();
  await idp.close();
  for (const token of seenTokens) expect(logger.lines.join('\n')).not.toContain(token);
});

async function issued(scope: string, resource = RESOURCE): Promise<string> {
  const token = await idp.token({ scope, resource });
  seenTokens.push(token);
  return token;
}

describe('opaque tokens through RFC 7662 introspection', () => {
  let introspecting: ServedWithAuth;
  const env = { REACTOR_MCP_AUTH_CLIENT_ID: CLIENTS.server.id, REACTOR_MCP_AUTH_CLIENT_SECRET: CLIENTS.server.secret };
  beforeAll(async () => {
    introspecting = await serveWithCommandAuth(host, ['--auth-introspection-url', idp.introspectionEndpoint, '--auth-issuer', idp.issuer, '--public-url', RESOURCE], logger, env);
  });
  afterAll(() => introspecting.close());

  it('accepts an active token for this resource, with its client and scopes', async () => {
    const token = await idp.token({ scope: 'mcp admin', resource: RESOURCE, client: 'opaque' });
    seenTokens.push(token);
    expect(token.split('.')).toHaveLength(1); // opaque, not a JWT
    const client = await connectClient('v2 client, 2025 protocol', introspecting.listening.url('/mcp?admin'), bearer(token));
    try {
      expect(jsonOf<WhoAmI>(await client.callTool('whoami')).clientId).toBe(CLIENTS.opaque.id);
      expect(await client.toolNames()).toContain('reset_everything');
    } finally {
      await client.close();
    }
  });

  it('still verifies JWTs of the trusted issuer locally', async () => {
    expect((await post(introspecting.listening.url('/mcp'), initializeBody(), bearer(await issued('mcp')))).status).toBe(200);
  });

  it.each([
    ['an unknown token', () => Promise.resolve('x'.repeat(43)), /not active/],
    ['an opaque token for another resource', async () => await idp.token({ scope: 'mcp', resource: 'https://other.example.test/mcp', client: 'opaque' }), /not issued for this resource/],
  ])('refuses %s (401)', async (_name, make, reason) => {
    const token = await make();
    seenTokens.push(token);
    const response = await post(introspecting.listening.url('/mcp'), initializeBody(), bearer(token));
    expect(response.status).toBe(401);
    expect(response.headers.get('www-authenticate') ?? '').toContain(`resource_metadata="${METADATA}"`);
    expect(((await response.json()) as { error_description: string }).error_description).toMatch(reason);
  });

  it('refuses every token (401, never 500) when its own client credentials are wrong, and says so in the log', async () => {
    const misconfigured = await serveWithCommandAuth(host, ['--auth-introspection-url', idp.introspectionEndpoint, '--public-url', RESOURCE], logger, { ...env, REACTOR_MCP_AUTH_CLIENT_SECRET: 'wrong' });
    try {
      const token = await idp.token({ scope: 'mcp', resource: RESOURCE, client: 'opaque' });
      seenTokens.push(token);
      expect((await post(misconfigured.listening.url('/mcp'), initializeBody(), bearer(token))).status).toBe(401);
      expect(logger.lines.some((l) => l.includes('token introspection') && l.includes('HTTP 401'))).toBe(true);
    } finally {
      await misconfigured.close();
    }
  });
});
