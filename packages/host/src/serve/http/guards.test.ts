import { describe, expect, it } from 'vitest';
import { checkHostAndOrigin, HostGuard, hostPolicyFor, isLoopbackAddress, normalizeAllowedHost, readJsonBody } from './guards.js';
import { requestIdOf } from './jsonRpc.js';

describe('isLoopbackAddress', () => {
  it.each([
    ['127.0.0.1', true],
    ['127.1.2.3', true],
    ['::1', true],
    ['::ffff:127.0.0.1', true],
    ['0.0.0.0', false],
    ['10.0.0.5', false],
    ['::', false],
    ['::ffff:10.0.0.5', false],
    [undefined, false],
  ])('%s → %s', (address, loopback) => {
    expect(isLoopbackAddress(address)).toBe(loopback);
  });
});

describe('hostPolicyFor', () => {
  it('checks Host and Origin against the localhost names on a loopback listener', () => {
    expect(hostPolicyFor('127.0.0.1', undefined, undefined)).toEqual({ hosts: ['localhost', '127.0.0.1', '[::1]'], origins: ['localhost', '127.0.0.1', '[::1]'] });
  });
  it('checks nothing on a public listener unless told (its public names are not knowable)', () => {
    expect(hostPolicyFor('10.0.0.5', undefined, undefined)).toEqual({ hosts: undefined, origins: undefined });
  });
  it('applies explicit lists everywhere; origins default to the allowed hosts', () => {
    expect(hostPolicyFor('10.0.0.5', ['mcp.example.com'], undefined)).toEqual({ hosts: ['mcp.example.com'], origins: ['mcp.example.com'] });
    expect(hostPolicyFor('127.0.0.1', ['mcp.example.com'], ['app.example.com'])).toEqual({ hosts: ['mcp.example.com'], origins: ['app.example.com'] });
  });
});

describe('normalizeAllowedHost', () => {
  it.each([
    ['Example.com:443', 'example.com'],
    ['https://app.example.com/', 'app.example.com'],
    ['[::1]:3000', '[::1]'],
    ['moz-extension://*', 'moz-extension://*'],
  ])('%s → %s', (entry, hostname) => {
    expect(normalizeAllowedHost(entry)).toBe(hostname);
  });
});

describe('checkHostAndOrigin', () => {
  const local = hostPolicyFor('127.0.0.1', undefined, undefined);
  it('refuses a foreign Host with 403 and a hint about allowedHosts', () => {
    const refusal = checkHostAndOrigin({ host: 'evil.example' }, local);
    expect(refusal?.status).toBe(403);
    expect(refusal?.message).toMatch(/Invalid Host: evil.example.*allowedHosts/);
  });
  it('refuses a missing Host when hosts are checked', () => {
    expect(checkHostAndOrigin({}, local)?.status).toBe(403);
  });
  it('refuses a malformed Host with 400 even when hosts are not checked', () => {
    expect(checkHostAndOrigin({ host: 'a b' }, { hosts: undefined, origins: undefined })?.status).toBe(400);
  });
  it('lets requests without Origin pass, and refuses the opaque "null" origin', () => {
    expect(checkHostAndOrigin({ host: 'localhost:3000' }, local)).toBeUndefined();
    expect(checkHostAndOrigin({ host: 'localhost:3000', origin: 'null' }, local)?.status).toBe(403);
    expect(checkHostAndOrigin({ host: 'localhost:3000', origin: 'http://localhost:5173' }, local)).toBeUndefined();
  });
});

describe('HostGuard', () => {
  const cases: Array<[string, Record<string, string>]> = [
    ['127.0.0.1', { host: 'localhost:3000' }],
    ['127.0.0.1', { host: 'evil.example' }],
    ['127.0.0.1', {}],
    ['127.0.0.1', { host: 'localhost', origin: 'null' }],
    ['127.0.0.1', { host: 'localhost', origin: 'http://localhost:5173' }],
    ['127.0.0.1', { host: 'localhost', origin: 'https://app.example.com' }],
    ['10.0.0.5', { host: 'evil.example' }],
    ['10.0.0.5', { host: 'a b' }],
    ['10.0.0.5', { host: 'mcp.example.com', origin: 'https://evil.example' }],
  ];

  it('decides every request as checkHostAndOrigin does with the policy of its listener, asked again or not', () => {
    for (const [allowedHosts, allowedOrigins] of [[undefined, undefined], [['mcp.example.com'], undefined], [['mcp.example.com'], ['app.example.com']]] as const) {
      const guard = new HostGuard(allowedHosts, allowedOrigins, undefined, false);
      for (const round of [1, 2]) {
        for (const [address, headers] of cases) {
          const expected = checkHostAndOrigin(headers, hostPolicyFor(address, allowedHosts, allowedOrigins));
          expect(guard.check(headers, address), `${JSON.stringify([allowedHosts, address, headers])}, round ${round}`).toEqual(expected);
        }
      }
    }
  });

  it('tells a header that is absent from one that is empty, and a loopback listener from another', () => {
    const guard = new HostGuard(undefined, undefined, undefined, false);
    expect(guard.check({ host: 'evil.example' }, '10.0.0.5')).toBeUndefined();
    expect(guard.check({ host: 'evil.example' }, '127.0.0.1')?.status).toBe(403);
    expect(guard.check({ host: 'localhost' }, '127.0.0.1')).toBeUndefined();
    expect(guard.check({ host: 'localhost', origin: '' }, '127.0.0.1')).toEqual(checkHostAndOrigin({ host: 'localhost', origin: '' }, hostPolicyFor('127.0.0.1', undefined, undefined)));
  });

  it('never lets one pair of values stand for another, whatever characters they hold', () => {
    // Pairs that would spell one key were the Host and Origin only joined by a separator (a NUL, a bar).
    const tricky: Array<Record<string, string>> = [
      { host: 'localhost\0=http://evil.example' },
      { host: 'localhost', origin: 'http://evil.example\0' },
      { host: 'localhost|=http://localhost' },
      { host: 'localhost', origin: 'http://localhost' },
      { host: 'localhost|' },
      { host: 'localhost', origin: '' },
      { host: '9=localhost' },
      { host: 'localhost' },
    ];
    for (const order of [tricky, [...tricky].reverse()]) {
      const guard = new HostGuard(undefined, undefined, undefined, false);
      for (const round of [1, 2]) {
        for (const headers of order) {
          expect(guard.check(headers, '127.0.0.1'), `${JSON.stringify(headers)}, round ${round}`).toEqual(checkHostAndOrigin(headers, hostPolicyFor('127.0.0.1', undefined, undefined)));
        }
      }
    }
  });

  it('allows the extra (CORS) origins, and any origin when told', () => {
    const cors = new HostGuard(undefined, undefined, ['app.example.com'], false);
    expect(cors.check({ host: 'localhost', origin: 'https://app.example.com' }, '127.0.0.1')).toBeUndefined();
    expect(cors.check({ host: 'localhost', origin: 'https://evil.example' }, '127.0.0.1')?.status).toBe(403);
    const any = new HostGuard(undefined, undefined, undefined, true);
    expect(any.check({ host: 'localhost', origin: 'https://evil.example' }, '127.0.0.1')).toBeUndefined();
    expect(any.check({ host: 'evil.example' }, '127.0.0.1')?.status).toBe(403);
  });

  it('keeps a bounded number of verdicts: a client varying its Host still gets each decided', () => {
    const guard = new HostGuard(['mcp.example.com'], undefined, undefined, false);
    for (let i = 0; i < 3000; i++) expect(guard.check({ host: `h${i}.example` }, '10.0.0.5')?.status).toBe(403);
    expect(guard.check({ host: 'mcp.example.com' }, '10.0.0.5')).toBeUndefined();
    expect(guard.check({ host: 'h2999.example' }, '10.0.0.5')?.status).toBe(403);
  });
});

describe('readJsonBody', () => {
  const request = (body: string, contentType = 'application/json') => new Request('http://localhost/mcp', { method: 'POST', headers: { 'content-type': contentType }, body });
  it('parses a JSON body', async () => {
    expect(await readJsonBody(request('{"a":1}'))).toEqual({ ok: true, body: { a: 1 } });
  });
  it('answers 415 for another content type', async () => {
    const result = await readJsonBody(request('{}', 'text/plain'));
    expect(result.ok ? 0 : result.response.status).toBe(415);
  });
  it.each(['', '   ', '{', 'undefined'])('answers 400 -32700 for %j', async (body) => {
    const result = await readJsonBody(request(body));
    expect(result.ok).toBe(false);
    if (!result.ok) {
      expect(result.response.status).toBe(400);
      expect(((await result.response.json()) as { error: { code: number } }).error.code).toBe(-32700);
    }
  });
});

describe('requestIdOf', () => {
  it('echoes a string or number id of a single request, else null', () => {
    expect(requestIdOf({ jsonrpc: '2.0', id: 7, method: 'x' })).toBe(7);
    expect(requestIdOf({ id: 'a' })).toBe('a');
    expect(requestIdOf([{ id: 1 }])).toBeNull();
    expect(requestIdOf({ id: {} })).toBeNull();
  });
});
