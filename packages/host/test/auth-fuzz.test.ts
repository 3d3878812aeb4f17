/**
 * Fuzzing the `Authorization` header of the command's auth (static tokens and
 * JWTs of a real issuer both on): 10,000 malformed values from a fixed seed —
 * random bytes, other schemes, odd spacing, several credentials, JWT-shaped
 * junk with every `alg` (some naming the trusted issuer, so they reach the key
 * set), near-misses of a valid token, very long values — are each answered
 * 401 with a challenge, never 500, and nothing is logged as an error.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import http from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { base64url } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setUpCommandAuth, type CommandAuth } from '../src/command/auth/commandAuth.js';
import { hashToken } from '../src/auth/staticTokens.js';
import { createMcpApp, parseCommandOptions, type Logger, type McpHost } from '../src/index.js';
import { fixtureHost } from './helpers/fixtures.js';
import { initializeBody, listen, post, type Listening } from './helpers/http.js';
import { makeKey, startIssuer, type TestIssuer } from './helpers/oidcProvider.js';

const RESOURCE = 'https://mcp.example.test/mcp';
const VALID = 'static-token-for-the-fuzz-0123456789abcdef';
const RUNS = 10_000;
const SEED = 20261201;

let idp: TestIssuer;
let host: McpHost;
let auth: CommandAuth;
let served: Listening;
let dir: string;
const errors: string[] = [];
const recording: Logger = {
  trace: () => {},
  debug: () => {},
  info: () => {},
  warn: () => {},
  error: (first: unknown, msg?: string) => errors.push(JSON.stringify([first, msg])),
  child: () => recording,
};

beforeAll(async () => {
  idp = await startIssuer(await makeKey('fuzz'));
  dir = await mkdtemp(join(tmpdir(), 'reactor-auth-fuzz-'));
  await writeFile(join(dir, 'tokens.json'), JSON.stringify([{ name: 'ci', sha256: hashToken(VALID), scopes: ['mcp'] }]));
  host = await fixtureHost();
  const options = parseCommandOptions(['--auth-issuer', idp.issuer, '--public-url', RESOURCE, '--auth-tokens-file', join(dir, 'tokens.json')], {});
  auth = await setUpCommandAuth(options.auth, { logger: recording, name: 'fuzz', listenHost: '127.0.0.1', toolsets: host.declaredToolsets(), signals: process });
  served = await listen(createMcpApp(host, { auth: auth.app!, logger: recording }));
});
afterAll(async () => {
  await served.close();
  auth.close();
  await host.stop();
  await idp.close();
  await rm(dir, { recursive: true, force: true });
});

/** Characters Node accepts in a header value (HTAB, visible ASCII, obs-text). */
const headerChar = fc.oneof(
  { weight: 8, arbitrary: fc.integer({ min: 0x20, max: 0x7e }) },
  { weight: 1, arbitrary: fc.constant(0x09) },
  { weight: 1, arbitrary: fc.integer({ min: 0x80, max: 0xff }) },
).map((code) => String.fromCharCode(code));
const junk = (maxLength: number) => fc.string({ unit: headerChar, maxLength });
const b64 = (arb: fc.Arbitrary<string>) => arb.map((s) => base64url.encode(s));
const json = fc.jsonValue().map((v) => JSON.stringify(v));

function jwtShaped(issuer: string): fc.Arbitrary<string> {
  const header = fc.record({
    alg: fc.constantFrom('none', 'None', 'HS256', 'RS256', 'ES256', 'PS512', 'EdDSA', 'RSA-OAEP', '', 'rs256'),
    kid: fc.oneof(fc.constant('fuzz'), fc.string({ maxLength: 12 })),
    typ: fc.constantFrom('at+jwt', 'JWT', 'JOSE', 'x'),
    crit: fc.option(fc.array(fc.string({ maxLength: 6 }), { maxLength: 2 }), { nil: undefined }),
  }, { requiredKeys: ['alg'] });
  const payload = fc.record({
    iss: fc.oneof(fc.constant(issuer), fc.constant(`${issuer}/`), fc.webUrl()),
    aud: fc.oneof(fc.constant(RESOURCE), fc.string({ maxLength: 20 }), fc.array(fc.constant(RESOURCE), { maxLength: 2 })),
    exp: fc.oneof(fc.integer(), fc.double(), fc.string({ maxLength: 5 })),
    nbf: fc.oneof(fc.integer(), fc.constant(null)),
    scope: fc.oneof(fc.constant('mcp admin'), fc.array(fc.string({ maxLength: 5 }), { maxLength: 3 })),
  }, { requiredKeys: [] });
  const segment = fc.oneof(header.map((h) => base64url.encode(JSON.stringify(h))), payload.map((p) => base64url.encode(JSON.stringify(p))), b64(json), b64(junk(40)), junk(30));
  return fc.array(segment, { minLength: 1, maxLength: 5 }).map((parts) => parts.join('.'));
}

function malformedHeaders(issuer: string): fc.Arbitrary<string> {
  const scheme = fc.constantFrom('Bearer', 'bearer', 'BEARER', 'Basic', 'Token', 'DPoP', 'Bearer:', '', 'Bearer\t', 'B3arer');
  const gap = fc.constantFrom(' ', '  ', '\t', '', ' \t ');
  const nearMiss = fc.oneof(
    fc.nat({ max: VALID.length - 1 }).map((n) => VALID.slice(0, n)),
    junk(4).filter((s) => s.trim() !== '').map((s) => `${VALID}${s}`), // trailing whitespace alone is trimmed by HTTP: that is the valid token
    fc.tuple(fc.nat({ max: VALID.length - 1 }), headerChar).filter(([i, c]) => VALID[i] !== c).map(([i, c]) => `${VALID.slice(0, i)}${c}${VALID.slice(i + 1)}`),
    fc.constant(VALID.toUpperCase()),
  );
  return fc.oneof(
    junk(200),
    fc.tuple(scheme, gap, junk(120)).map(([s, g, v]) => `${s}${g}${v}`),
    fc.tuple(scheme, gap, jwtShaped(issuer)).map(([s, g, v]) => `${s}${g}${v}`),
    fc.tuple(fc.constantFrom('Bearer ', 'Bearer  ', 'bearer\t'), nearMiss).map(([s, v]) => `${s}${v}`),
    fc.tuple(nearMiss, fc.array(junk(30), { maxLength: 3 })).map(([first, rest]) => [`Bearer ${first}`, ...rest].join(',')),
    fc.constant(`Basic ${Buffer.from(`ci:${VALID}`).toString('base64')}`),
    fc.constant(VALID), // the right token without a scheme
    fc.integer({ min: 1_000, max: 8_000 }).map((n) => `Bearer ${'A'.repeat(n)}`),
    fc.integer({ min: 1, max: 200 }).map((n) => `Bearer ${'.'.repeat(n)}`),
  );
}

/** POSTs an initialize with `authorization` over a keep-alive agent; resolves with the status and challenge. */
function send(agent: http.Agent, url: URL, authorization: string): Promise<{ status: number; challenge: string }> {
  return new Promise((resolve, reject) => {
    const body = JSON.stringify(initializeBody());
    const request = http.request(url, { method: 'POST', agent, headers: { authorization, 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'content-length': Buffer.byteLength(body) } }, (response) => {
      response.resume();
      response.on('end', () => resolve({ status: response.statusCode ?? 0, challenge: String(response.headers['www-authenticate'] ?? '') }));
    });
    request.on('error', reject);
    request.end(body);
  });
}

describe('fuzzing the Authorization header', () => {
  it('the valid token works (the fuzz below is not refusing everything by accident)', async () => {
    expect((await post(served.url('/mcp'), initializeBody(), { authorization: `Bearer ${VALID}` })).status).toBe(200);
  });

  it(`answers ${RUNS.toLocaleString('en')} malformed values 401 with a challenge, never 500`, async () => {
    const values = fc.sample(malformedHeaders(idp.issuer), { seed: SEED, numRuns: RUNS });
    const agent = new http.Agent({ keepAlive: true, maxSockets: 16 });
    const unexpected: Array<{ value: string; status: number; challenge: string }> = [];
    let next = 0;
    const worker = async () => {
      while (next < values.length) {
        const value = values[next++]!;
        const { status, challenge } = await send(agent, served.url('/mcp'), value);
        if (status !== 401 || !challenge.startsWith('Bearer error="invalid_token"')) unexpected.push({ value: value.slice(0, 120), status, challenge });
      }
    };
    try {
      await Promise.all(Array.from({ length: 16 }, worker));
    } finally {
      agent.destroy();
    }
    expect(values).toHaveLength(RUNS);
    expect(unexpected.slice(0, 5)).toEqual([]);
    expect(errors).toEqual([]);
  }, 120_000);
});
