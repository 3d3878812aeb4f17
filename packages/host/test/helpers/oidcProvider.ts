/**
 * A real authorization server for the auth tests: `oidc-provider` (OpenID
 * certified) on a loopback port, issuing RS256 JWT access tokens (RFC 9068)
 * for a resource indicator (RFC 8707) by the client-credentials grant, opaque
 * tokens to one client, and answering RFC 7662 introspection. Its signing key
 * can be rotated without moving the issuer (same URL, new provider behind it),
 * and it counts how often its key set is fetched.
 *
 * The test also holds the private keys, to forge the tokens an attacker would
 * try (expired, wrong issuer, other algorithms…).
 */
import { KeyObject, sign } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { base64url, exportJWK, exportSPKI, generateKeyPair, SignJWT, type CryptoKey, type JWK, type JWTPayload } from 'jose';
import Provider from 'oidc-provider';

/** A signing key the test holds. */
export interface TestKey {
  readonly kid: string;
  readonly privateKey: CryptoKey;
  readonly publicKey: CryptoKey;
  /** The private JWK the provider signs with. */
  readonly jwk: JWK;
}

/** Makes an RS256 key pair. */
export async function makeKey(kid: string): Promise<TestKey> {
  const { privateKey, publicKey } = await generateKeyPair('RS256', { extractable: true });
  return { kid, privateKey, publicKey, jwk: { ...(await exportJWK(privateKey)), kid, alg: 'RS256', use: 'sig' } };
}

/**
 * An RS256 JWS signed by hand, for headers jose itself refuses to produce
 * (an unknown `crit` extension): what a non-jose attacker can send.
 */
export function signRaw(header: Record<string, unknown>, payload: Record<string, unknown>, key: TestKey): string {
  const input = `${base64url.encode(JSON.stringify(header))}.${base64url.encode(JSON.stringify(payload))}`;
  return `${input}.${base64url.encode(sign('sha256', Buffer.from(input), KeyObject.from(key.privateKey)))}`;
}

/** The clients registered at the test provider. */
export const CLIENTS = {
  /** Gets JWT access tokens. */
  agent: { id: 'agent', secret: 'agent-secret' },
  /** Gets opaque access tokens (for introspection). */
  opaque: { id: 'opaque-agent', secret: 'opaque-secret' },
  /** The MCP server itself, a confidential client allowed to introspect. */
  server: { id: 'mcp-server', secret: 'server-secret' },
} as const;

/** A running test authorization server. */
export interface TestIssuer {
  /** `http://127.0.0.1:<port>` */
  readonly issuer: string;
  readonly introspectionEndpoint: string;
  /** The key the provider signs with now. */
  readonly key: TestKey;
  /** How many times its JWKS has been fetched. */
  readonly jwksFetches: number;
  /** A token from the real token endpoint (client credentials). Throws with the provider's answer when refused. */
  token(options: { scope: string; resource: string; client?: 'agent' | 'opaque' }): Promise<string>;
  /** A JWT forged by the test: claims default to a valid token for `resource`; header `alg` RS256, `typ` at+jwt. */
  forge(resource: string, claims?: JWTPayload, options?: { key?: TestKey; header?: Record<string, unknown>; omit?: readonly string[] }): Promise<string>;
  /** The public key as SPKI PEM (what an HMAC-confusion attacker would use as the secret). */
  publicPem(): Promise<string>;
  /** Swaps in a provider signing with `next` (and publishing only it), at the same issuer URL. */
  rotate(next: TestKey): Promise<void>;
  close(): Promise<void>;
}

function providerFor(issuer: string, key: TestKey): Provider {
  return new Provider(issuer, {
    clients: [
      { client_id: CLIENTS.agent.id, client_secret: CLIENTS.agent.secret, grant_types: ['client_credentials'], redirect_uris: [], response_types: [], scope: 'mcp admin' },
      { client_id: CLIENTS.opaque.id, client_secret: CLIENTS.opaque.secret, grant_types: ['client_credentials'], redirect_uris: [], response_types: [], scope: 'mcp admin' },
      { client_id: CLIENTS.server.id, client_secret: CLIENTS.server.secret, grant_types: [], redirect_uris: [], response_types: [] },
    ],
    jwks: { keys: [key.jwk] },
    scopes: ['mcp', 'admin'],
    cookies: { keys: ['test-cookie-key'] },
    ttl: { ClientCredentials: 300 },
    features: {
      devInteractions: { enabled: false },
      clientCredentials: { enabled: true },
      introspection: { enabled: true, allowedPolicy: (ctx) => ctx.oidc.client?.clientId === CLIENTS.server.id },
      resourceIndicators: {
        enabled: true,
        useGrantedResource: () => true,
        getResourceServerInfo: (_ctx, resource, client) => ({
          scope: 'mcp admin',
          audience: resource,
          accessTokenTTL: 300,
          accessTokenFormat: client.clientId === CLIENTS.opaque.id ? 'opaque' : 'jwt',
          jwt: { sign: { alg: 'RS256' } },
        }),
      },
    },
  });
}

/** The provider as a plain Node listener (its own returns a promise nobody awaits). */
function serve(provider: Provider): (req: IncomingMessage, res: ServerResponse) => void {
  const callback = provider.callback();
  return (req, res) => void callback(req, res);
}

/** Starts the provider on 127.0.0.1 with a free port, signing with `key`. */
export async function startIssuer(key: TestKey): Promise<TestIssuer> {
  let handler: (req: IncomingMessage, res: ServerResponse) => void = (_req, res) => res.writeHead(503).end();
  let jwksFetches = 0;
  const server = createServer((req, res) => {
    if (req.url?.startsWith('/jwks')) jwksFetches++;
    handler(req, res);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  let current = key;
  handler = serve(providerFor(issuer, key));

  const basic = (id: string, secret: string) => `Basic ${Buffer.from(`${id}:${secret}`).toString('base64')}`;
  return {
    issuer,
    introspectionEndpoint: `${issuer}/token/introspection`,
    get key() {
      return current;
    },
    get jwksFetches() {
      return jwksFetches;
    },
    async token({ scope, resource, client = 'agent' }) {
      const { id, secret } = CLIENTS[client];
      const response = await fetch(`${issuer}/token`, {
        method: 'POST',
        headers: { authorization: basic(id, secret), 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ grant_type: 'client_credentials', scope, resource }),
      });
      const body = (await response.json()) as { access_token?: string };
      if (!response.ok || !body.access_token) throw new Error(`the test provider refused a token: ${JSON.stringify(body)}`);
      return body.access_token;
    },
    async forge(resource, claims = {}, options = {}) {
      const now = Math.floor(Date.now() / 1000);
      const signing = options.key ?? current;
      const payload: JWTPayload = { iss: issuer, aud: resource, sub: 'agent', client_id: 'agent', scope: 'mcp', iat: now, exp: now + 300, jti: `forged-${now}-${Math.random()}`, ...claims };
      for (const name of options.omit ?? []) delete payload[name];
      return await new SignJWT(payload).setProtectedHeader({ alg: 'RS256', typ: 'at+jwt', kid: signing.kid, ...options.header }).sign(signing.privateKey);
    },
    publicPem: () => exportSPKI(current.publicKey),
    rotate(next) {
      current = next;
      handler = serve(providerFor(issuer, next));
      return Promise.resolve();
    },
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
