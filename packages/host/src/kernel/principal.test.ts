import type { AuthInfo } from '@modelcontextprotocol/server';
import { describe, expect, it } from 'vitest';
import { principalOf } from './principal.js';

const info = (clientId: string, extra?: Record<string, unknown>): AuthInfo => ({ token: 't', clientId, scopes: [], expiresAt: 0, ...(extra ? { extra } : {}) });

describe('principalOf', () => {
  it('is undefined without a token, and the same for the same client and subject (a refreshed token keeps its session)', () => {
    expect(principalOf(undefined)).toBeUndefined();
    expect(principalOf(info('agent', { sub: 'u1', iss: 'https://a.example', via: 'jwt' }))).toBe(principalOf(info('agent', { sub: 'u1', iss: 'https://a.example', via: 'jwt' })));
    expect(principalOf(info('agent', { sub: 'u1' }))).not.toBe(principalOf(info('agent', { sub: 'u2' })));
    expect(principalOf(info('alice'))).not.toBe(principalOf(info('bob')));
  });

  it('tells issuers apart: the same client and sub from issuer A and issuer B are two principals', () => {
    expect(principalOf(info('agent', { sub: 'alice', iss: 'https://a.example', via: 'jwt' }))).not.toBe(principalOf(info('agent', { sub: 'alice', iss: 'https://b.example', via: 'jwt' })));
  });

  it('takes one issuer for one issuer, however its identity was verified (JWT or introspection), with or without a trailing slash', () => {
    expect(principalOf(info('agent', { sub: 'alice', iss: 'https://a.example/', via: 'jwt' }))).toBe(principalOf(info('agent', { sub: 'alice', iss: 'https://a.example', via: 'introspection' })));
  });

  it('keeps static tokens in a namespace of their own: the static token "alice" is not a JWT with sub alice, nor a verifier that says nothing', () => {
    const staticAlice = principalOf(info('alice', { sub: 'alice', via: 'static-token' }));
    expect(staticAlice).not.toBe(principalOf(info('alice', { sub: 'alice', iss: 'https://a.example', via: 'jwt' })));
    expect(staticAlice).not.toBe(principalOf(info('alice', { sub: 'alice' })));
  });

  it('cannot be forged by a client id or subject holding the separator', () => {
    expect(principalOf(info('a\u0000b', { sub: 'c' }))).not.toBe(principalOf(info('a', { sub: 'b\u0000c' })));
    expect(principalOf(info('a","b', { sub: 'c' }))).not.toBe(principalOf(info('a', { sub: 'b","c' })));
  });
});
