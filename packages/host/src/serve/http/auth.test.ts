import { OAuthError, OAuthErrorCode, type AuthInfo } from '@modelcontextprotocol/server';
import { describe, expect, it } from 'vitest';
import { silentLogger } from '../../kernel/logger.js';
import { parseSelection } from '../../selection/selection.js';
import type { Toolset } from '../../contract/toolset.js';
import { applyToolsetScopes, createAuthGate } from './auth.js';

const info = (over: Partial<AuthInfo> = {}): AuthInfo => ({ token: 't', clientId: 'alice', scopes: ['mcp'], expiresAt: Math.floor(Date.now() / 1000) + 60, ...over });
const verifier = {
  verifyAccessToken: (token: string) => (token === 'good' ? Promise.resolve(info({ token })) : Promise.reject(new OAuthError(OAuthErrorCode.InvalidToken, 'nope'))),
};
const request = (authorization?: string, path = '/mcp') => new Request(`http://localhost${path}`, { headers: authorization ? { authorization } : {} });

describe('createAuthGate', () => {
  it('refuses an auth option without a verifier', () => {
    expect(() => createAuthGate({}, silentLogger)).toThrow(expect.objectContaining({ code: 'REACTOR_OPTION_INVALID' }));
  });

  it('answers the verified token, or a 401 challenge advertising the metadata document', async () => {
    const gate = createAuthGate({ verifier, resourceServerUrl: 'https://mcp.example.com/mcp' }, silentLogger);
    expect(await gate.verify(request('Bearer good'))).toMatchObject({ clientId: 'alice' });
    const refused = await gate.verify(request());
    expect(refused).toBeInstanceOf(Response);
    expect((refused as Response).status).toBe(401);
    expect((refused as Response).headers.get('www-authenticate')).toContain('resource_metadata="https://mcp.example.com/.well-known/oauth-protected-resource/mcp"');
  });

  it('accepts the verifier as auth.verifyAccessToken too', async () => {
    const gate = createAuthGate({ verifyAccessToken: verifier.verifyAccessToken }, silentLogger);
    expect(await gate.verify(request('Bearer good'))).toMatchObject({ clientId: 'alice' });
  });

  it('enforces requiredScopes with 403 insufficient_scope', async () => {
    const gate = createAuthGate({ verifier, requiredScopes: ['admin'] }, silentLogger);
    const refused = (await gate.verify(request('Bearer good'))) as Response;
    expect(refused.status).toBe(403);
    expect(refused.headers.get('www-authenticate')).toContain('scope="admin"');
  });

  it('serves the metadata document only when told where tokens come from', async () => {
    const none = createAuthGate({ verifier, resourceServerUrl: 'https://mcp.example.com/mcp' }, silentLogger);
    expect(none.servesMetadata('/.well-known/oauth-protected-resource/mcp')).toBe(false);
    const gate = createAuthGate({ verifier, resourceServerUrl: 'https://mcp.example.com/mcp', authorizationServers: ['https://auth.example.com'] }, silentLogger);
    expect(gate.servesMetadata('/.well-known/oauth-protected-resource/mcp')).toBe(true);
    const document = gate.metadata(request(undefined, '/.well-known/oauth-protected-resource/mcp'));
    expect(await document?.json()).toEqual({ resource: 'https://mcp.example.com/mcp', authorization_servers: ['https://auth.example.com'] });
  });

  it('checks oauthMetadata at creation (an http issuer is refused outside local tests)', () => {
    const oauthMetadata = { issuer: 'http://auth.example.com', authorization_endpoint: 'http://auth.example.com/a', token_endpoint: 'http://auth.example.com/t', response_types_supported: ['code'] };
    expect(() => createAuthGate({ verifier, resourceServerUrl: 'https://mcp.example.com/mcp', oauthMetadata }, silentLogger)).toThrow(/oauthMetadata/);
    const gate = createAuthGate({ verifier, resourceServerUrl: 'https://mcp.example.com/mcp', oauthMetadata, dangerouslyAllowInsecureIssuerUrl: true }, silentLogger);
    expect(gate.servesMetadata('/.well-known/oauth-authorization-server')).toBe(true);
  });
});

describe('toolset scopes', () => {
  const declared: Toolset[] = [{ name: 'core', always: true }, { name: 'spaces' }, { name: 'admin', scopes: ['admin'] }, { name: 'audit', default: false, scopes: ['admin', 'audit'] }];


  it('serves a request that does not name a denied toolset, reporting what is denied (the host leaves it out)', () => {
    const result = applyToolsetScopes(parseSelection(''), parseSelection(''), declared, info());
    expect(result).toMatchObject({ ok: true, denied: ['admin', 'audit'] });
  });

  it('refuses a request that names a denied toolset, naming its scopes', () => {
    expect(applyToolsetScopes(parseSelection('only=audit'), parseSelection('only=audit'), declared, info())).toEqual({ ok: false, toolsets: ['audit'], scopes: ['admin', 'audit'] });
  });

  it('does not refuse a request for a denied always-on toolset it did not name: the host leaves that toolset out', () => {
    const locked: Toolset[] = [{ name: 'core', always: true, scopes: ['core'] }];
    expect(applyToolsetScopes(parseSelection(''), parseSelection(''), locked, info())).toEqual({ ok: true, selection: parseSelection(''), denied: ['core'] });
    expect(applyToolsetScopes(parseSelection('core'), parseSelection('core'), locked, info())).toMatchObject({ ok: false, toolsets: ['core'] });
  });
});
