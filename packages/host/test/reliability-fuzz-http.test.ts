/**
 * Fuzzing the app with fast-check, the count asserted: 10,000 malformed HTTP
 * requests to one app on 127.0.0.1 over keep-alive (bounded concurrency), each
 * a valid request with exactly one defect — bad JSON, JSON that is not
 * JSON-RPC, wrong content types, oversized bodies (with and without
 * content-length), unknown and stolen session ids, foreign Host and Origin,
 * odd methods and paths, non-path targets, bad Accept, contradicting 2026
 * headers, missing/expired/malformed tokens on every route and selection
 * form, and selections naming a toolset the token lacks scopes for. No crash,
 * no 5xx, no error logged, the right 4xx (and JSON-RPC code, Allow header or
 * WWW-Authenticate challenge) for each — and afterwards nothing leaked and a
 * real client of each kind is served correctly.
 *
 * The seed is fixed so a failure reproduces; `FUZZ_SEED` overrides it.
 */
import { Agent, request as httpRequest } from 'node:http';
import { OAuthError, OAuthErrorCode, type AuthInfo } from '@modelcontextprotocol/server';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMcpApp, defineExtension, defineTool, type McpApp, type McpHost } from '../src/index.js';
import { fixtureHost, type WhoAmI } from './helpers/fixtures.js';
import { CLIENT_KINDS, connectClient, initializeBody, jsonOf, listen, messagesOf, post, type Listening } from './helpers/http.js';

const SEED = process.env.FUZZ_SEED === undefined ? 20_260_728 : Number(process.env.FUZZ_SEED);

/** Names a selection may use (admin is left out: the token lacks its scope, a case of its own). */
const nameArb = fc.constantFrom('a', 'b', 'core', 'spaces', 'Spaces', 'library', 'é', '😀', 'x.y', 'x/y', 'only', 'toolsets', 'without');
const namesArb = fc
  .tuple(fc.array(nameArb, { maxLength: 4 }), fc.constantFrom(',', '+', '%2C', ' ,', '%20'))
  .map(([names, separator]) => names.map((n) => encodeURIComponent(n)).join(separator));
const pairArb = fc.oneof(
  fc.tuple(fc.constantFrom('toolsets', 'only', 'without'), namesArb).map(([key, value]) => `${key}=${value}`),
  fc.tuple(namesArb, fc.constantFrom('', '=', '=1', '=false', '=OFF', '=0')).map(([key, value]) => `${key}${value}`),
);

const inAnHour = () => Math.floor(Date.now() / 1000) + 3600;
const TOKENS: Record<string, Omit<AuthInfo, 'token'>> = {
  alice: { clientId: 'alice', scopes: ['mcp'], expiresAt: inAnHour() },
  bob: { clientId: 'bob', scopes: ['mcp', 'admin'], expiresAt: inAnHour() },
  expired: { clientId: 'carol', scopes: ['mcp'], expiresAt: Math.floor(Date.now() / 1000) - 60 },
};
const verifier = {
  verifyAccessToken(token: string): Promise<AuthInfo> {
    const info = TOKENS[token];
    return info ? Promise.resolve({ token, ...info }) : Promise.reject(new OAuthError(OAuthErrorCode.InvalidToken, 'unknown token'));
  },
};
const admin = defineExtension({
  manifest: { name: 'admin', version: '1.0.0' },
  toolsets: () => [{ name: 'admin', scopes: ['admin'] }],
  tools: () => [defineTool({ name: 'reset_everything', description: 'Reset.', handler: () => 'reset' })],
});

const MAX_BODY = 4096;
const ACCEPT = 'application/json, text/event-stream';
const ALICE = { authorization: 'Bearer alice' };

/** One generated request, with exactly one defect, and what it must be answered. */
interface Case {
  readonly kind: string;
  readonly method: string;
  readonly path: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly body?: string | Buffer;
  readonly status: number;
  /** The JSON-RPC error code the body must carry. */
  readonly rpcCode?: number;
  /** What the `WWW-Authenticate` header must match. */
  readonly challenge?: RegExp;
  /** The `Allow` header a 405 must carry. */
  readonly allow?: string;
  /** A plain-text answer, not JSON-RPC (what is not MCP: OAuth clients probe such paths). */
  readonly plainText?: true;
}

/** Where a selection is written in a request. */
interface Placement {
  readonly tail: string;
  readonly query: string;
  readonly headers: Readonly<Record<string, string>>;
}

/** Where a (valid) selection is written: nowhere, the query, the path, or the header. */
const selectionArb: fc.Arbitrary<Placement> = fc.oneof(
  fc.constant<Placement>({ tail: '', query: '', headers: {} }),
  fc.array(pairArb, { minLength: 1, maxLength: 3 }).chain((pairs) =>
    fc.constantFrom<Placement>(
      { tail: '', query: `?${pairs.join('&')}`, headers: {} },
      { tail: `/${pairs.join('/')}`, query: '', headers: {} },
      { tail: '', query: '', headers: { 'x-mcp-toolsets': pairs.join('&') } },
    ),
  ),
);
/** A request target: a space (a name separator in the grammar) is sent as `%20`, as a client must. */
const mcpTarget = (s: Placement, base = '/mcp') => `${base}${s.tail}${s.query}`.replace(/ /g, '%20');

const initialize = JSON.stringify(initializeBody());
const toolsList = JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'tools/list' });
const MODERN_META = { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': {}, 'io.modelcontextprotocol/clientInfo': { name: 'fuzz', version: '1.0.0' } };
const modernCall = (name: string) => JSON.stringify({ jsonrpc: '2.0', id: 9, method: 'tools/call', params: { name, arguments: {}, _meta: MODERN_META } });
const MODERN_HEADERS = { 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'tools/call', 'mcp-name': 'whoami' };

/** The valid requests each defect is applied to. */
const validRequestArb = fc.constantFrom(
  { what: '2025 initialize', method: 'POST', headers: { 'content-type': 'application/json', accept: ACCEPT }, body: initialize },
  { what: '2025 stateless tools/list', method: 'POST', headers: { 'content-type': 'application/json', accept: ACCEPT }, body: toolsList },
  { what: '2026 tools/call', method: 'POST', headers: { 'content-type': 'application/json', accept: ACCEPT, ...MODERN_HEADERS }, body: modernCall('whoami') },
);

const parses = (text: string) => {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
};
const utf8 = new TextDecoder();
const label = fc.stringMatching(/^[a-z0-9](?:[a-z0-9-]{0,18}[a-z0-9])?$/);
const port = fc.option(fc.integer({ min: 1, max: 65535 }).map((p) => `:${p}`), { nil: '' });
const headerSafe = fc.stringMatching(/^[A-Za-z0-9!#$&'*+.^_`|~-]{1,80}$/);
/** Methods Node's parser knows (others never reach the app: Node answers 400 itself). */
const ODD_METHODS = ['PUT', 'PATCH', 'OPTIONS', 'TRACE', 'HEAD', 'PROPFIND', 'PROPPATCH', 'MKCOL', 'COPY', 'MOVE', 'LOCK', 'UNLOCK', 'SEARCH', 'PURGE', 'REPORT', 'LINK', 'UNLINK', 'QUERY'];
const routed = (pathname: string) => pathname === '/healthz' || pathname === '/toolsets' || pathname.startsWith('/toolsets/') || pathname === '/mcp' || pathname.startsWith('/mcp/');

function caseArb(aliceSession: string): fc.Arbitrary<Case> {
  const rpc = (kind: string, status: number, rpcCode?: number) => ({ kind, status, ...(rpcCode !== undefined ? { rpcCode } : {}) });
  return fc.oneof(
    // Bodies
    fc.tuple(selectionArb, fc.oneof(
      fc.nat(initialize.length - 1).map((n) => initialize.slice(0, n)),
      fc.string({ maxLength: 200 }),
      fc.uint8Array({ maxLength: 200 }).map((bytes) => Buffer.from(bytes)),
    )).filter(([, body]) => !parses(typeof body === 'string' ? body : utf8.decode(body))).map(([s, body]): Case => ({
      ...rpc('invalid JSON', 400, -32700), method: 'POST', path: mcpTarget(s), headers: { ...s.headers, ...ALICE, 'content-type': 'application/json', accept: ACCEPT }, body,
    })),
    fc.tuple(selectionArb, fc.json({ maxDepth: 3 })).filter(([, text]) => {
      const value = JSON.parse(text) as unknown;
      const looksLikeRpc = (v: unknown) => typeof v === 'object' && v !== null && 'jsonrpc' in v;
      return text.length < MAX_BODY && !(Array.isArray(value) ? value.some(looksLikeRpc) : looksLikeRpc(value));
    }).map(([s, body]): Case => ({
      ...rpc('JSON that is not JSON-RPC', 400, -32600), method: 'POST', path: mcpTarget(s), headers: { ...s.headers, ...ALICE, 'content-type': 'application/json', accept: ACCEPT }, body,
    })),
    fc.tuple(selectionArb, validRequestArb, fc.option(fc.oneof(
      fc.constantFrom('text/plain', 'text/html', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x', 'application/xml', 'application/jsonx', 'application/json-patch+json', 'application/vnd.api+json', 'application/json, text/plain', 'text/json', 'json'),
      fc.stringMatching(/^[a-z]{1,12}\/[a-z0-9.+-]{1,16}$/),
    ), { nil: undefined })).filter(([, , type]) => type === undefined || type.split(';')[0]!.trim().toLowerCase() !== 'application/json').map(([s, r, type]): Case => {
      const { 'content-type': _json, ...rest } = r.headers;
      return { ...rpc('a content type that is not JSON', 415, -32000), method: 'POST', path: mcpTarget(s), headers: { ...s.headers, ...rest, ...ALICE, ...(type === undefined ? {} : { 'content-type': type }) }, body: r.body };
    }),
    fc.tuple(selectionArb, fc.integer({ min: MAX_BODY + 1, max: 64 * 1024 }), fc.boolean()).map(([s, size, chunked]): Case => {
      const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: { pad: '' } });
      return {
        ...rpc(`a body over the limit (${chunked ? 'chunked' : 'content-length'})`, 413, -32000),
        method: 'POST',
        path: mcpTarget(s),
        headers: { ...s.headers, ...ALICE, 'content-type': 'application/json', accept: ACCEPT, ...(chunked ? { 'transfer-encoding': 'chunked' } : {}) },
        body: body.replace('"pad":""', `"pad":"${'x'.repeat(size - body.length)}"`),
      };
    }),
    // Sessions
    fc.tuple(selectionArb, headerSafe, fc.constantFrom('POST', 'GET', 'DELETE')).map(([s, id, method]): Case => ({
      ...rpc('an unknown session id', 404, -32001), method, path: mcpTarget(s), headers: { ...s.headers, ...ALICE, 'content-type': 'application/json', accept: method === 'GET' ? 'text/event-stream' : ACCEPT, 'mcp-session-id': id, 'mcp-protocol-version': '2025-11-25' }, ...(method === 'POST' ? { body: toolsList } : {}),
    })),
    fc.tuple(selectionArb, fc.constantFrom('POST', 'GET', 'DELETE')).map(([s, method]): Case => ({
      ...rpc("another principal's session id", 404, -32001), method, path: mcpTarget(s), headers: { ...s.headers, authorization: 'Bearer bob', 'content-type': 'application/json', accept: method === 'GET' ? 'text/event-stream' : ACCEPT, 'mcp-session-id': aliceSession, 'mcp-protocol-version': '2025-11-25' }, ...(method === 'POST' ? { body: toolsList } : {}),
    })),
    fc.tuple(selectionArb, fc.constantFrom('GET', 'DELETE')).map(([s, method]): Case => ({
      ...rpc(`${method} without a session`, 405, -32000), method, path: mcpTarget(s), headers: { ...s.headers, ...ALICE, accept: method === 'GET' ? 'text/event-stream' : ACCEPT },
    })),
    // Host and Origin
    fc.tuple(selectionArb, validRequestArb, fc.oneof(fc.tuple(label, port).map(([l, p]) => `${l}.example${p}`), fc.tuple(fc.integer({ min: 1, max: 126 }), fc.nat(255), fc.nat(255), fc.integer({ min: 1, max: 254 }), port).map(([a, b, c, d, p]) => `${a}.${b}.${c}.${d}${p}`))).map(([s, r, host]): Case => ({
      ...rpc('a foreign Host', 403, -32000), method: r.method, path: mcpTarget(s), headers: { ...s.headers, ...r.headers, ...ALICE, host }, body: r.body,
    })),
    fc.tuple(selectionArb, validRequestArb, fc.oneof(fc.constant('null'), fc.tuple(fc.constantFrom('http', 'https'), label, port).map(([scheme, l, p]) => `${scheme}://${l}.example${p}`))).map(([s, r, origin]): Case => ({
      ...rpc('a foreign Origin', 403, -32000), method: r.method, path: mcpTarget(s), headers: { ...s.headers, ...r.headers, ...ALICE, origin }, body: r.body,
    })),
    // Methods and paths
    fc.tuple(selectionArb, fc.constantFrom(...ODD_METHODS)).map(([s, method]): Case => ({
      kind: 'an odd method on the endpoint', status: 405, allow: 'GET, POST, DELETE', ...(method === 'HEAD' ? {} : { rpcCode: -32000 }), method, path: mcpTarget(s), headers: { ...s.headers, ...ALICE },
    })),
    fc.tuple(fc.constantFrom('/healthz', '/toolsets', '/toolsets/library'), fc.constantFrom(...ODD_METHODS.filter((m) => m !== 'HEAD'), 'POST', 'DELETE')).map(([path, method]): Case => ({
      kind: 'an odd method on /healthz or /toolsets', status: 405, allow: 'GET', rpcCode: -32000, method, path, headers: { ...ALICE },
    })),
    fc.tuple(
      fc.oneof(
        fc.array(fc.stringMatching(/^[A-Za-z0-9._~%:@!$&'()*+,;=-]{0,12}$/), { minLength: 1, maxLength: 4 }).map((segments) => `/${segments.join('/')}`),
        fc.constantFrom('/MCP', '/Mcp/only=a', '/mcpx', '/mcp.json', '/mcp%2Fonly=a', '//mcp', '/healthz/', '/healthzx', '/toolsetsx', '/.well-known/oauth-protected-resource/mcp', '/%2e%2e/mcp'),
      ),
      fc.constantFrom('GET', 'POST'),
    ).filter(([path]) => !routed(path)).map(([path, method]): Case => ({
      kind: 'a path nothing is served on', status: 404, plainText: true, method, path, headers: { ...ALICE, 'content-type': 'application/json', accept: ACCEPT }, ...(method === 'POST' ? { body: initialize } : {}),
    })),
    fc.constantFrom('http://evil.example/mcp', 'http://127.0.0.1/mcp', '*').map((target): Case => ({
      ...rpc('a request target that is not a path', 400, -32000), method: target === '*' ? 'OPTIONS' : 'POST', path: target, headers: { ...ALICE, 'content-type': 'application/json', accept: ACCEPT }, ...(target === '*' ? {} : { body: initialize }),
    })),
    // Protocol
    fc.tuple(selectionArb, fc.constantFrom(initialize, toolsList), fc.constantFrom('application/json', 'text/event-stream', 'text/html', '*/*', 'application/*', '')).map(([s, body, accept]): Case => ({
      ...rpc('a 2025 POST that does not accept both JSON and SSE', 406, -32000), method: 'POST', path: mcpTarget(s), headers: { ...s.headers, ...ALICE, 'content-type': 'application/json', accept }, body,
    })),
    fc.tuple(selectionArb, fc.oneof(
      fc.constantFrom('list_spaces', 'nope', 'WHOAMI').map((name) => ({ ...MODERN_HEADERS, 'mcp-name': name })),
      fc.constant({ 'mcp-protocol-version': '2026-07-28', 'mcp-name': 'whoami' }),
      fc.constant({ 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'tools/list', 'mcp-name': 'whoami' }),
      fc.tuple(fc.integer({ min: 2024, max: 2099 }), fc.integer({ min: 1, max: 12 }), fc.integer({ min: 1, max: 28 }))
        .map(([y, m, d]) => `${y}-${String(m).padStart(2, '0')}-${String(d).padStart(2, '0')}`)
        .filter((v) => v !== '2026-07-28')
        .map((version) => ({ ...MODERN_HEADERS, 'mcp-protocol-version': version })),
    )).map(([s, headers]): Case => ({
      ...rpc('2026 headers that contradict the body', 400, -32020), method: 'POST', path: mcpTarget(s), headers: { ...s.headers, ...headers, ...ALICE, 'content-type': 'application/json', accept: ACCEPT }, body: modernCall('whoami'),
    })),
    // Authentication and scopes
    fc.tuple(
      fc.oneof(selectionArb, fc.constant<Placement>({ tail: '/only=admin', query: '', headers: {} })),
      fc.oneof(
        validRequestArb,
        fc.constant({ what: 'GET on a session', method: 'GET', headers: { accept: 'text/event-stream', 'mcp-session-id': aliceSession }, body: undefined }),
        fc.constant({ what: 'DELETE of a session', method: 'DELETE', headers: { 'mcp-session-id': aliceSession }, body: undefined }),
        fc.constant({ what: 'GET /toolsets', method: 'GET', headers: {}, body: '/toolsets' }),
      ),
      fc.constantFrom<Record<string, string>>({}, { authorization: 'Basic YWxpY2U6c2VjcmV0' }, { authorization: 'Bearer' }, { authorization: 'Bearer ' }, { authorization: 'Bearer mallory' }, { authorization: 'Bearer expired' }, { authorization: 'alice' }, { authorization: 'Token alice' }),
    ).map(([s, r, credentials]): Case => ({
      kind: 'no valid token', status: 401, challenge: /^Bearer /,
      method: r.method,
      path: mcpTarget(s, r.body === '/toolsets' ? '/toolsets' : '/mcp'),
      headers: { ...s.headers, ...r.headers, ...credentials },
      ...(r.body !== undefined && r.body !== '/toolsets' ? { body: r.body } : {}),
    })),
    fc.tuple(
      fc.constantFrom<Placement>(
        { tail: '', query: '?admin', headers: {} },
        { tail: '', query: '?only=admin', headers: {} },
        { tail: '', query: '?library&toolsets=admin', headers: {} },
        { tail: '/admin', query: '', headers: {} },
        { tail: '/only=admin,library', query: '', headers: {} },
        { tail: '', query: '', headers: { 'x-mcp-toolsets': 'admin' } },
        { tail: '', query: '?library', headers: { 'x-mcp-toolsets': 'toolsets=admin' } },
      ),
      fc.oneof(validRequestArb, fc.constant({ what: 'GET /toolsets', method: 'GET', headers: {}, body: '/toolsets' })),
    ).map(([s, r]): Case => ({
      kind: 'a selection naming a toolset the token lacks scopes for', status: 403, challenge: /error="insufficient_scope".*scope="admin"/,
      method: r.method,
      path: mcpTarget(s, r.body === '/toolsets' ? '/toolsets' : '/mcp'),
      headers: { ...s.headers, ...r.headers, ...ALICE },
      ...(r.body !== '/toolsets' ? { body: r.body } : {}),
    })),
  );
}

interface Answer {
  readonly status: number;
  readonly headers: Record<string, string | string[] | undefined>;
  readonly body: string;
}

function send(agent: Agent, origin: URL, c: Case): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: origin.hostname, port: origin.port, method: c.method, path: c.path, headers: c.headers, agent }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (body += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(c.body);
  });
}

/** What is wrong with an answer, or undefined when it is the right one. */
function wrongAnswer(c: Case, a: Answer): string | undefined {
  if (a.status !== c.status) return `status ${a.status}, expected ${c.status}: ${a.body.slice(0, 200)}`;
  if (c.allow !== undefined && a.headers.allow !== c.allow) return `Allow ${String(a.headers.allow)}, expected ${c.allow}`;
  if (c.challenge !== undefined && !c.challenge.test(String(a.headers['www-authenticate'] ?? ''))) return `WWW-Authenticate ${String(a.headers['www-authenticate'])} does not match ${String(c.challenge)}`;
  if (c.plainText && !String(a.headers['content-type']).startsWith('text/plain')) return `content type ${String(a.headers['content-type'])}, expected text/plain: ${a.body.slice(0, 200)}`;
  if (c.rpcCode !== undefined) {
    let code: unknown;
    try {
      code = (JSON.parse(a.body) as { error?: { code?: unknown } }).error?.code;
    } catch {
      return `a body that is not JSON: ${a.body.slice(0, 200)}`;
    }
    if (code !== c.rpcCode) return `JSON-RPC error ${String(code)}, expected ${c.rpcCode}: ${a.body.slice(0, 200)}`;
  }
  return undefined;
}

const HTTP_REQUESTS = 10_000;
const CONCURRENCY = 16;

describe('fuzzing the app with malformed HTTP requests', () => {
  let host: McpHost;
  let app: McpApp;
  let served: Listening;
  const errors: unknown[] = [];
  beforeAll(async () => {
    host = await fixtureHost({}, [admin]);
    const logger = { ...host.logger, error: (obj: unknown) => void errors.push(obj), child: () => logger };
    app = createMcpApp(host, { auth: { verifier }, maxBodyBytes: MAX_BODY, sessions: { max: 64 }, logger });
    served = await listen(app);
  });
  afterAll(async () => {
    await served.close();
    await host.stop();
  });

  it(`answers ${HTTP_REQUESTS.toLocaleString('en')} requests with one defect each with the right 4xx, then still serves`, async () => {
    const opened = await post(served.url('/mcp'), initializeBody(), ALICE);
    const aliceSession = opened.headers.get('mcp-session-id')!;
    await messagesOf(opened);
    expect(app.sessionCount).toBe(1);

    const cases = fc.sample(caseArb(aliceSession), { numRuns: HTTP_REQUESTS, seed: SEED });
    expect(cases).toHaveLength(HTTP_REQUESTS);
    const agent = new Agent({ keepAlive: true, maxSockets: CONCURRENCY });
    const origin = new URL(served.origin);
    const wrong: string[] = [];
    const byKind = new Map<string, number>();
    const byStatus = new Map<number, number>();
    let sent = 0;
    let next = 0;
    try {
      await Promise.all(
        Array.from({ length: CONCURRENCY }, async () => {
          while (next < cases.length) {
            const c = cases[next++]!;
            sent++;
            byKind.set(c.kind, (byKind.get(c.kind) ?? 0) + 1);
            let problem: string | undefined;
            try {
              const answer = await send(agent, origin, c);
              byStatus.set(answer.status, (byStatus.get(answer.status) ?? 0) + 1);
              problem = wrongAnswer(c, answer);
            } catch (error) {
              problem = `the request failed: ${String(error)}`;
            }
            if (problem !== undefined && wrong.length < 10) wrong.push(`${c.kind}: ${c.method} ${c.path} ${JSON.stringify(c.headers)} ${String(c.body).slice(0, 80)} → ${problem}`);
          }
        }),
      );
    } finally {
      agent.destroy();
    }
    expect(wrong).toEqual([]);
    expect(sent).toBe(HTTP_REQUESTS);
    expect([...byStatus.keys()].every((status) => status >= 400 && status < 500)).toBe(true);
    // Every kind of defect was sent many times.
    expect(byKind.size).toBe(19);
    for (const [kind, count] of byKind) expect(count, kind).toBeGreaterThan(100);
    expect(errors).toEqual([]);

    // Nothing leaked, and the server still serves correctly — the session that was there included.
    expect(app.sessionCount).toBe(1);
    const listed = await messagesOf(await post(served.url('/mcp'), toolsList, { ...ALICE, 'mcp-session-id': aliceSession, 'mcp-protocol-version': '2025-11-25' }));
    expect((listed[0]?.['result'] as { tools: Array<{ name: string }> }).tools.map((t) => t.name).sort()).toEqual(['list_spaces', 'whoami']);
    for (const kind of CLIENT_KINDS) {
      const client = await connectClient(kind, served.url('/mcp?library'), ALICE);
      try {
        expect((await client.toolNames()).sort()).toEqual(['find_book', 'list_spaces', 'whoami']);
        expect(jsonOf<WhoAmI>(await client.callTool('whoami')).clientId).toBe('alice');
      } finally {
        await client.close();
      }
    }
    const health = await fetch(served.url('/healthz'));
    expect(health.status).toBe(200);
    expect(((await health.json()) as { ok: boolean }).ok).toBe(true);
    process.stdout.write(`malformed HTTP requests: ${sent} sent; by kind ${JSON.stringify(Object.fromEntries([...byKind].sort()))}; by status ${JSON.stringify(Object.fromEntries([...byStatus].sort()))}\n`);
    // A count, not a speed: the bound only keeps a loaded CI machine (browser and Jupyter tests beside it) from cutting the run short.
  }, 180_000);
});
