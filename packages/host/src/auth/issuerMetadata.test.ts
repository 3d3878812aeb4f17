import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { discoverIssuer, metadataUrls, sameIssuer } from './issuerMetadata.js';

describe('where an issuer\'s metadata is looked for', () => {
  it('tries RFC 8414, then OpenID Connect discovery (path insertion, then path appending)', () => {
    expect(metadataUrls('https://idp.example/realms/mcp')).toEqual([
      'https://idp.example/.well-known/oauth-authorization-server/realms/mcp',
      'https://idp.example/.well-known/openid-configuration/realms/mcp',
      'https://idp.example/realms/mcp/.well-known/openid-configuration',
    ]);
    expect(metadataUrls('https://tenant.auth0.example/')).toEqual(['https://tenant.auth0.example/.well-known/oauth-authorization-server', 'https://tenant.auth0.example/.well-known/openid-configuration']);
  });

  it('treats one trailing slash as the same issuer, nothing else', () => {
    expect(sameIssuer('https://t.auth0.example/', 'https://t.auth0.example')).toBe(true);
    expect(sameIssuer('https://t.auth0.example', 'https://T.auth0.example')).toBe(false);
  });
});

describe('discoverIssuer', () => {
  const documents = new Map<string, unknown>();
  let origin: string;
  const server = http.createServer((req, res) => {
    const document = documents.get(req.url ?? '');
    if (document === undefined) res.writeHead(404).end();
    else res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(document));
  });
  beforeAll(async () => {
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('falls back to OpenID discovery when RFC 8414 metadata is absent', async () => {
    documents.set('/.well-known/openid-configuration/oidc', { issuer: `${origin}/oidc`, jwks_uri: `${origin}/oidc/jwks` });
    await expect(discoverIssuer(`${origin}/oidc`, 2000)).resolves.toMatchObject({ issuer: `${origin}/oidc`, jwks_uri: `${origin}/oidc/jwks`, discoveredAt: `${origin}/.well-known/openid-configuration/oidc` });
  });

  it('refuses a document that speaks for another issuer (RFC 8414 §3.3), saying what each URL answered', async () => {
    documents.set('/.well-known/oauth-authorization-server/impostor', { issuer: 'https://evil.example', jwks_uri: 'https://evil.example/jwks' });
    const failure = discoverIssuer(`${origin}/impostor`, 2000);
    await expect(failure).rejects.toThrow(/names issuer "https:\/\/evil.example"/);
    await expect(failure).rejects.toThrow(/openid-configuration\/impostor: HTTP 404/);
  });
});
