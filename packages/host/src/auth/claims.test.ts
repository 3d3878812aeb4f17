import { describe, expect, it } from 'vitest';
import { audiencesOfClaims, clientOfClaims, scopesOfClaims } from './claims.js';

describe('reading token claims', () => {
  it('takes scopes from "scope" (a string) and "scp" (a string or an array), united', () => {
    expect(scopesOfClaims({ scope: 'mcp  admin' })).toEqual(['mcp', 'admin']);
    expect(scopesOfClaims({ scp: 'mcp.read mcp.write' })).toEqual(['mcp.read', 'mcp.write']);
    expect(scopesOfClaims({ scp: ['mcp', 7, 'admin'] })).toEqual(['mcp', 'admin']);
    expect(scopesOfClaims({ scope: 'mcp', scp: ['mcp', 'admin'] })).toEqual(['mcp', 'admin']);
    expect(scopesOfClaims({ scope: 42 })).toEqual([]);
  });

  it('reads "aud" as a string or an array', () => {
    expect(audiencesOfClaims({ aud: 'https://mcp.example/mcp' })).toEqual(['https://mcp.example/mcp']);
    expect(audiencesOfClaims({ aud: ['a', 1, 'b'] })).toEqual(['a', 'b']);
    expect(audiencesOfClaims({})).toEqual([]);
  });

  it('names the client from client_id, azp, appid, then sub', () => {
    expect(clientOfClaims({ client_id: 'agent', azp: 'x', sub: 'y' })).toBe('agent');
    expect(clientOfClaims({ azp: 'spa', sub: 'y' })).toBe('spa');
    expect(clientOfClaims({ appid: '11111111-2222', sub: 'y' })).toBe('11111111-2222');
    expect(clientOfClaims({ sub: 'alice' })).toBe('alice');
    expect(clientOfClaims({})).toBe('unknown');
  });
});
