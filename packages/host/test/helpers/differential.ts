/**
 * The fast path's differential test, its parts: a host serving every kind
 * of thing the fast path answers (tools with schemas, an `isError` result, a
 * throw, a time limit, a log line, structured output, read-only and not, a
 * tool extension, middleware, resources, a template, prompts, a toolset
 * needing a scope), the generated requests — valid and invalid, every kind
 * named — and the answer, normalised to what must be equal on both paths.
 */
import { request as httpRequest, type Agent } from 'node:http';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import fc from 'fast-check';
import { z } from 'zod';
import { acceptedContent, buildHost, defineExtension, defineTool, inputRequired, silentLogger, type McpHost } from '../../src/index.js';
import type { AuthInfo } from '@modelcontextprotocol/server';

export const MODERN = '2026-07-28';
export const LEGACY = '2025-11-25';

/** The tokens the auth-on apps know. */
export const TOKENS: Record<string, AuthInfo> = {
  reader: { token: 'reader', clientId: 'reader', scopes: ['mcp'], expiresAt: Math.floor(Date.now() / 1000) + 3600 },
  admin: { token: 'admin', clientId: 'admin', scopes: ['mcp', 'admin'], expiresAt: Math.floor(Date.now() / 1000) + 3600 },
};

/** The host both apps of a pair serve. */
export async function differentialHost(): Promise<McpHost> {
  const main = defineExtension({
    manifest: { name: 'main', version: '1.0.0' },
    toolsets: () => [
      { name: 'core', description: 'Core tools.' },
      { name: 'extra', description: 'More tools.' },
      { name: 'admin', description: 'Needs the admin scope.', scopes: ['admin'], default: false },
    ],
    tools: () => [
      defineTool({
        name: 'search',
        description: 'Looks something up.',
        toolset: 'core',
        annotations: { readOnlyHint: true },
        inputSchema: { query: z.string().min(1), limit: z.number().int().min(1).max(10).optional() },
        handler: ({ query, limit }) => `found ${query} x${limit ?? 1}`,
      }),
      defineTool({
        name: 'write',
        description: 'Writes something.',
        toolset: 'core',
        annotations: { readOnlyHint: false },
        inputSchema: { text: z.string() },
        handler: ({ text }) => ({ content: [{ type: 'text', text: `wrote ${text}` }] }),
      }),
      defineTool({
        name: 'fails',
        description: 'Answers with an error result.',
        toolset: 'core',
        handler: () => ({ isError: true, content: [{ type: 'text', text: 'it failed' }] }),
      }),
      defineTool({
        name: 'throws',
        description: 'Throws.',
        toolset: 'extra',
        handler: () => {
          throw new Error('the handler threw');
        },
      }),
      defineTool({
        name: 'slow',
        description: 'Never answers within its time limit.',
        toolset: 'extra',
        timeoutMs: 25,
        handler: (_args, ctx) => new Promise((resolve) => ctx.signal.addEventListener('abort', () => resolve('aborted'))),
      }),
      defineTool({
        name: 'logs',
        description: 'Logs a line, then answers.',
        toolset: 'extra',
        handler: async (_args, ctx) => {
          await ctx.mcpReq.log('info', 'a log line');
          return 'logged';
        },
      }),
      defineTool({
        name: 'structured',
        description: 'Answers with structured content.',
        toolset: 'extra',
        outputSchema: { total: z.number() },
        inputSchema: { a: z.number(), b: z.number() },
        handler: ({ a, b }) => ({ structuredContent: { total: a + b }, content: [{ type: 'text', text: String(a + b) }] }),
      }),
      defineTool({
        name: 'whoami',
        description: 'Says what it was given.',
        toolset: 'extra',
        handler: (_args, ctx) => JSON.stringify({ id: ctx.mcpReq.id, auth: ctx.http?.authInfo?.clientId ?? null, aborted: ctx.signal.aborted }),
      }),
      defineTool({ name: 'secret', description: 'Admin only.', toolset: 'admin', handler: () => 'the secret' }),
      defineTool({
        name: 'confirm',
        description: 'Asks the client to confirm (an input-required round), then answers.',
        toolset: 'extra',
        handler: (_args, ctx) =>
          acceptedContent<{ ok?: boolean }>(ctx.mcpReq.inputResponses, 'confirm')?.ok === true && ctx.mcpReq.requestState() === 'asked'
            ? 'confirmed'
            : inputRequired({ inputRequests: { confirm: inputRequired.elicit({ message: 'Sure?', requestedSchema: { type: 'object', properties: { ok: { type: 'boolean' } }, required: ['ok'] } }) }, requestState: 'asked' }),
      }),
      // Enough of a list that `tools/list` is compressed for a client that accepts it.
      ...Array.from({ length: 40 }, (_, i) =>
        defineTool({ name: `pad_${i}`, description: `Padding tool ${i}: makes the list long enough to be worth compressing.`, toolset: 'extra', inputSchema: { value: z.string().optional() }, handler: () => `pad ${i}` }),
      ),
    ],
    resources: () => [
      { name: 'readme', uri: 'docs://readme', mimeType: 'text/plain', read: (uri) => ({ contents: [{ uri: uri.href, text: 'read me' }] }) },
      {
        name: 'page',
        template: 'docs://pages/{n}',
        list: () => [{ uri: 'docs://pages/1', name: 'page 1' }],
        read: (uri, variables) => ({ contents: [{ uri: uri.href, text: `page ${String(variables.n)}` }] }),
      },
    ],
    prompts: () => [
      { name: 'greet', description: 'Greets.', argsSchema: { who: z.string() }, get: ({ who }) => ({ messages: [{ role: 'user', content: { type: 'text', text: `hello ${who}` } }] }) },
      { name: 'plain', get: () => ({ messages: [{ role: 'user', content: { type: 'text', text: 'plain' } }] }) },
    ],
    toolExtensions: () => [
      ['search', { order: 1, description: 'Looks something up (extended).', wrap: (original) => async (args, ctx) => await original(args, ctx) }],
      ['write', { order: 2, wrap: (original) => async (args, ctx) => ({ ...((await original(args, ctx)) as object), _meta: { wrapped: true } }) }],
    ],
  });
  const layered = defineExtension({
    manifest: { name: 'layered', version: '1.0.0' },
    toolsets: () => [{ name: 'layered', default: false, description: 'Middleware around calls.' }],
    middleware: () => [
      {
        name: 'tagger',
        methods: ['tools/call', 'tools/list', 'prompts/get', 'resources/read'],
        handle: async (call, next) => {
          const result = (await next()) as { _meta?: object };
          return { ...result, _meta: { ...result._meta, layered: call.method } };
        },
      },
    ],
  });
  // Served to tenant `acme` only (the apps read the tenant from `x-tenant`).
  const tenanted = defineExtension({
    manifest: { name: 'tenanted', version: '1.0.0', tenants: ['acme'] },
    toolsets: () => [{ name: 'acme', description: 'Tenant acme only.' }],
    tools: () => [defineTool({ name: 'acme_tool', description: 'Acme only.', toolset: 'acme', handler: () => 'acme' })],
  });
  return await buildHost([main, layered, tenanted], { name: 'differential', logger: silentLogger });
}

/** A `requestState` the host sealed for an anonymous caller of `confirm`: asked for over `origin` (an app with auth off). */
export async function sealedStateFrom(origin: string): Promise<string> {
  const response = await fetch(new URL('/mcp', origin), {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': MODERN, 'mcp-method': 'tools/call', 'mcp-name': 'confirm' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'confirm', arguments: {}, _meta: { ...ENVELOPE, 'io.modelcontextprotocol/clientCapabilities': { elicitation: {} } } } }),
  });
  const answer = (await response.json()) as { result?: { requestState?: unknown } };
  if (typeof answer.result?.requestState !== 'string') throw new Error(`no requestState sealed: ${JSON.stringify(answer)}`);
  return answer.result.requestState;
}

/** The tenant of a request, as both apps of a pair read it. */
export const tenantOf = (req: { headers: Record<string, string | string[] | undefined> }): string | undefined => {
  const value = req.headers['x-tenant'];
  return typeof value === 'string' ? value : undefined;
};

/** The verifier of the auth-on apps. */
export const verifier = {
  verifyAccessToken(token: string): Promise<AuthInfo> {
    const info = TOKENS[token];
    return info ? Promise.resolve(info) : Promise.reject(new Error('unknown token'));
  },
};

/** One generated request, with the kind it exercises. */
export interface GeneratedRequest {
  readonly kind: string;
  readonly path: string;
  readonly headers: Record<string, string>;
  readonly body: string;
}

const SELECTIONS: ReadonlyArray<{ path: string; headers?: Record<string, string> }> = [
  { path: '/mcp' },
  { path: '/mcp?toolsets=core' },
  { path: '/mcp?toolsets=core,extra' },
  { path: '/mcp/core' },
  { path: '/mcp/extra' },
  { path: '/mcp', headers: { 'x-mcp-toolsets': 'extra' } },
  { path: '/mcp?only=core' },
  { path: '/mcp?without=extra' },
  { path: '/mcp?tools=search,whoami' },
  { path: '/mcp?readonly=true' },
  { path: '/mcp?toolsets=core,layered' },
  { path: '/mcp?toolsets=admin' },
  { path: '/mcp?toolsets=nosuch' },
  { path: '/mcp/core,extra?exclude_tools=write' },
];

const TOOL_CALLS: ReadonlyArray<{ name: string; args: unknown }> = [
  { name: 'search', args: { query: 'x', limit: 3 } },
  { name: 'search', args: { query: 'y' } },
  { name: 'write', args: { text: 'hi' } },
  { name: 'fails', args: {} },
  { name: 'throws', args: {} },
  { name: 'slow', args: {} },
  { name: 'logs', args: {} },
  { name: 'structured', args: { a: 1, b: 2 } },
  { name: 'whoami', args: {} },
  { name: 'secret', args: {} },
  { name: 'acme_tool', args: {} },
];

const BAD_ARGS: ReadonlyArray<{ name: string; args: unknown }> = [
  { name: 'search', args: {} },
  { name: 'search', args: { query: '' } },
  { name: 'search', args: { query: 'x', limit: 99 } },
  { name: 'search', args: { query: 7 } },
  { name: 'structured', args: { a: 'one', b: 2 } },
  { name: 'write', args: 'not an object' },
  { name: 'write', args: [1, 2] },
];

const ENVELOPE = { 'io.modelcontextprotocol/protocolVersion': MODERN, 'io.modelcontextprotocol/clientCapabilities': {} };
const ENVELOPES: ReadonlyArray<Record<string, unknown>> = [
  ENVELOPE,
  { ...ENVELOPE, 'io.modelcontextprotocol/clientInfo': { name: 'diff', version: '1.0.0' } },
  { ...ENVELOPE, 'io.modelcontextprotocol/logLevel': 'debug' },
  { ...ENVELOPE, 'io.modelcontextprotocol/clientCapabilities': { elicitation: {} } },
];
const BAD_META: ReadonlyArray<unknown> = [
  'a string',
  [],
  { 'io.modelcontextprotocol/protocolVersion': 7 },
  { 'io.modelcontextprotocol/protocolVersion': '2099-01-01', 'io.modelcontextprotocol/clientCapabilities': {} },
  { 'io.modelcontextprotocol/protocolVersion': MODERN, 'io.modelcontextprotocol/clientCapabilities': 'none' },
  { 'io.modelcontextprotocol/protocolVersion': MODERN },
  { ...ENVELOPE, progressToken: 'p1' },
  { ...ENVELOPE, 'io.modelcontextprotocol/clientInfo': 'nobody' },
  // Shaped right at the top, wrong inside: only the envelope's schema tells.
  { ...ENVELOPE, 'io.modelcontextprotocol/clientInfo': { name: 5 } },
  { ...ENVELOPE, 'io.modelcontextprotocol/clientCapabilities': { elicitation: 'yes' } },
  { ...ENVELOPE, 'io.modelcontextprotocol/logLevel': 'loud' },
  // A claim of another revision than the header names.
  { ...ENVELOPE, 'io.modelcontextprotocol/protocolVersion': '2025-11-25' },
  { ...ENVELOPE, 'io.modelcontextprotocol/protocolVersion': ' 2026-07-28' },
  // Foreign keys beside the envelope.
  { ...ENVELOPE, traceparent: '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01', 'com.example/note': { any: 'thing' } },
];

/** A 2026-07-28 request changed in one way the body's classification or its JSON-RPC parse must notice. */
const MODERN_ODDITIES: ReadonlyArray<[string, (m: Record<string, unknown>) => Record<string, unknown>]> = [
  ['a result member', (m) => ({ ...m, result: {} })],
  ['an error member', (m) => ({ ...m, error: { code: 1, message: 'no' } })],
  ['an extra member', (m) => ({ ...m, extra: true })],
  ['jsonrpc 1.0', (m) => ({ ...m, jsonrpc: '1.0' })],
  ['a negative id', (m) => ({ ...m, id: -3 })],
  ['an empty string id', (m) => ({ ...m, id: '' })],
  ['params an array', (m) => ({ ...m, params: [] })],
];

interface Call {
  method: string;
  params: Record<string, unknown> | undefined;
  name?: string;
}

const call = (method: string, params?: Record<string, unknown>, name?: string): Call => ({ method, params, ...(name !== undefined ? { name } : {}) });

const VALID_CALLS: ReadonlyArray<[string, Call]> = [
  ['tools/list', call('tools/list', {})],
  ['tools/list', call('tools/list', { cursor: 'abc' })],
  ...TOOL_CALLS.map((t): [string, Call] => [`tools/call ${t.name}`, call('tools/call', { name: t.name, arguments: t.args }, t.name)]),
  ['resources/list', call('resources/list', {})],
  ['resources/read', call('resources/read', { uri: 'docs://readme' }, 'docs://readme')],
  ['resources/read template', call('resources/read', { uri: 'docs://pages/7' }, 'docs://pages/7')],
  ['prompts/list', call('prompts/list', {})],
  ['prompts/get', call('prompts/get', { name: 'greet', arguments: { who: 'ann' } }, 'greet')],
  ['prompts/get plain', call('prompts/get', { name: 'plain' }, 'plain')],
  ['server/discover', call('server/discover', {})],
];

const INVALID_CALLS: ReadonlyArray<[string, Call]> = [
  ['unknown tool', call('tools/call', { name: 'nosuch', arguments: {} }, 'nosuch')],
  ['unknown method', call('tools/frobnicate', {})],
  ...BAD_ARGS.map((t): [string, Call] => ['args failing the schema', call('tools/call', { name: t.name, arguments: t.args }, t.name)]),
  ['unknown resource', call('resources/read', { uri: 'docs://nothing' }, 'docs://nothing')],
  ['unknown prompt', call('prompts/get', { name: 'nosuch' }, 'nosuch')],
  ['prompt args failing the schema', call('prompts/get', { name: 'greet', arguments: { who: 5 } }, 'greet')],
  ['tools/call without a name', call('tools/call', { arguments: {} })],
];

type HeaderMutation = 'none' | 'no-method' | 'wrong-method' | 'no-name' | 'wrong-name' | 'base64-name' | 'no-version' | 'legacy-version' | 'garbage-version';
const HEADER_MUTATIONS: readonly HeaderMutation[] = ['no-method', 'wrong-method', 'no-name', 'wrong-name', 'base64-name', 'no-version', 'legacy-version', 'garbage-version'];

function modernHeaders(c: Call, mutation: HeaderMutation): Record<string, string> {
  const headers: Record<string, string> = { 'mcp-protocol-version': MODERN, 'mcp-method': c.method };
  if (c.name !== undefined) headers['mcp-name'] = c.name;
  switch (mutation) {
    case 'no-method':
      delete headers['mcp-method'];
      break;
    case 'wrong-method':
      headers['mcp-method'] = c.method === 'tools/list' ? 'tools/call' : 'tools/list';
      break;
    case 'no-name':
      delete headers['mcp-name'];
      break;
    case 'wrong-name':
      headers['mcp-name'] = 'other';
      break;
    case 'base64-name':
      headers['mcp-name'] = `=?base64?${Buffer.from(c.name ?? 'x').toString('base64')}?=`;
      break;
    case 'no-version':
      delete headers['mcp-protocol-version'];
      break;
    case 'legacy-version':
      headers['mcp-protocol-version'] = LEGACY;
      break;
    case 'garbage-version':
      headers['mcp-protocol-version'] = 'soon';
      break;
    case 'none':
      break;
  }
  return headers;
}

const message = (id: unknown, c: Call, meta: unknown): Record<string, unknown> => {
  const params = meta === undefined ? c.params : { ...c.params, _meta: meta };
  return { jsonrpc: '2.0', ...(id === undefined ? {} : { id }), method: c.method, ...(params === undefined ? {} : { params }) };
};

const ids = fc.oneof(fc.integer({ min: 0, max: 1_000_000 }), fc.string({ minLength: 1, maxLength: 8 }));

const LEGACY_VERSIONS: ReadonlyArray<string | undefined> = [LEGACY, LEGACY, '2025-06-18', '2025-03-26', '2024-11-05', undefined, 'soon', '2099-01-01'];
const LEGACY_ACCEPTS: readonly string[] = ['application/json, text/event-stream', 'application/json, text/event-stream', 'text/event-stream, application/json;q=0.9', 'application/json', 'text/event-stream', '*/*'];
const LEGACY_ODDITIES: ReadonlyArray<[string, (m: Record<string, unknown>) => Record<string, unknown>]> = [
  ['a progress token', (m) => ({ ...m, params: { ...(m.params as object), _meta: { progressToken: 'p1' } } })],
  ['a string _meta', (m) => ({ ...m, params: { ...(m.params as object), _meta: 'meta' } })],
  ['a trace context in _meta', (m) => ({ ...m, params: { ...(m.params as object), _meta: { traceparent: '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01' } } })],
  ['an extra member', (m) => ({ ...m, extra: true })],
  ['a 2026-07-28 envelope', (m) => ({ ...m, params: { ...(m.params as object), _meta: ENVELOPE } })],
  ['Mcp-Method and Mcp-Name headers', (m) => m],
  ['params an array', (m) => ({ ...m, params: [] })],
];

/** What the generator needs that only a running host can give: a `requestState` it sealed (for an anonymous principal). */
export interface GeneratorContext {
  readonly sealedState: string;
}

/** Every kind of request the test sends, each an arbitrary over its variations. */
export function requestArbitrary(maxBodyBytes: number, context: GeneratorContext): fc.Arbitrary<GeneratedRequest> {
  const selection = fc.constantFrom(...SELECTIONS);
  const auth = fc.constantFrom<string | undefined>(undefined, 'Bearer reader', 'Bearer admin', 'Bearer nope', 'Basic abc');
  const base = (kind: string, sel: { path: string; headers?: Record<string, string> }, authorization: string | undefined, headers: Record<string, string>, body: string, contentType = 'application/json'): GeneratedRequest => ({
    kind,
    path: sel.path,
    headers: { 'content-type': contentType, accept: 'application/json, text/event-stream', ...sel.headers, ...(authorization ? { authorization } : {}), ...headers },
    body,
  });
  const acceptEncoding = fc.constantFrom<string | undefined>(undefined, undefined, 'gzip', 'br', 'gzip, deflate, br', 'br;q=0');
  const tenant = fc.constantFrom<string | undefined>(undefined, undefined, 'acme', 'other');
  const tenantHeader = (t: string | undefined): Record<string, string> => (t === undefined ? {} : { 'x-tenant': t });
  const valid = fc.tuple(fc.constantFrom(...VALID_CALLS), fc.constantFrom(...ENVELOPES), ids, selection, auth, acceptEncoding, tenant).map(([[kind, c], meta, id, sel, a, encoding, t]) =>
    base(`valid ${kind}${t === undefined ? '' : `, tenant ${t}`}`, sel, a, { ...modernHeaders(c, 'none'), ...(encoding ? { 'accept-encoding': encoding } : {}), ...tenantHeader(t) }, JSON.stringify(message(id, c, meta))),
  );
  const invalid = fc.tuple(fc.constantFrom(...INVALID_CALLS), ids, selection, auth).map(([[kind, c], id, sel, a]) => base(kind, sel, a, modernHeaders(c, 'none'), JSON.stringify(message(id, c, ENVELOPE))));
  const headers = fc.tuple(fc.constantFrom(...VALID_CALLS), fc.constantFrom(...HEADER_MUTATIONS), ids, selection, auth).map(([[, c], mutation, id, sel, a]) => base(`header ${mutation}`, sel, a, modernHeaders(c, mutation), JSON.stringify(message(id, c, ENVELOPE))));
  const badMeta = fc.tuple(fc.constantFrom(...VALID_CALLS), fc.constantFrom(...BAD_META), ids, selection, auth).map(([[, c], meta, id, sel, a]) => base('malformed _meta', sel, a, modernHeaders(c, 'none'), JSON.stringify(message(id, c, meta))));
  // A bad envelope together with a refusal the app makes itself (a toolset the token lacks the scope for, a bad token): the SDK path refuses the envelope first.
  const badMetaRefused = fc.tuple(fc.constantFrom(...VALID_CALLS), fc.constantFrom(...BAD_META), ids, fc.constantFrom<string | undefined>('Bearer reader', 'Bearer nope', undefined)).map(([[, c], meta, id, a]) =>
    base('malformed _meta, with a refusal of the app’s own', { path: '/mcp?toolsets=admin' }, a, modernHeaders(c, 'none'), JSON.stringify(message(id, c, meta))),
  );
  const modernOdd = fc.tuple(fc.constantFrom(...VALID_CALLS), fc.constantFrom(...MODERN_ODDITIES), ids, selection).map(([[, c], [oddity, change], id, sel]) =>
    base(`2026-07-28 with ${oddity}`, sel, undefined, modernHeaders(c, 'none'), JSON.stringify(change(message(id, c, ENVELOPE)))),
  );
  const idForms = fc.tuple(fc.constantFrom(...VALID_CALLS), fc.constantFrom<unknown>(undefined, null, 1.5, true, { a: 1 }), selection).map(([[, c], id, sel]) => base('odd or missing id', sel, undefined, modernHeaders(c, 'none'), JSON.stringify(message(id, c, ENVELOPE))));
  const batch = fc.tuple(fc.constantFrom(...VALID_CALLS), ids, fc.boolean(), selection).map(([[, c], id, modern, sel]) =>
    base('batch-like body', sel, undefined, modern ? modernHeaders(c, 'none') : { 'mcp-protocol-version': LEGACY }, JSON.stringify([message(id, c, modern ? ENVELOPE : undefined)])),
  );
  const oversized = fc.tuple(fc.constantFrom(...VALID_CALLS), ids, selection).map(([[, c], id, sel]) =>
    base('oversized body', sel, undefined, modernHeaders(c, 'none'), JSON.stringify(message(id, { ...c, params: { ...c.params, padding: 'x'.repeat(maxBodyBytes) } }, ENVELOPE))),
  );
  const contentTypes = fc.tuple(fc.constantFrom(...VALID_CALLS), ids, fc.constantFrom('text/plain', 'application/x-www-form-urlencoded', 'application/json; charset=utf-8', 'APPLICATION/JSON', ''), selection).map(([[, c], id, type, sel]) =>
    base(`content type ${type === '' ? '(none)' : type}`, sel, undefined, modernHeaders(c, 'none'), JSON.stringify(message(id, c, ENVELOPE)), type),
  );
  const notJson = fc.tuple(fc.constantFrom('{', '', '   ', 'null', '"a string"', '42', '{"jsonrpc":"2.0"}', '{"jsonrpc":"1.0","id":1,"method":"tools/list"}'), fc.constantFrom(...VALID_CALLS), selection).map(([body, [, c], sel]) =>
    base('malformed or non-request JSON', sel, undefined, modernHeaders(c, 'none'), body),
  );
  const legacyCalls = [...VALID_CALLS, ...INVALID_CALLS];
  const legacy = fc.tuple(fc.constantFrom(...legacyCalls), ids, selection, auth, tenant).map(([[kind, c], id, sel, a, t]) =>
    base(`2025 stateless ${kind}${t === undefined ? '' : `, tenant ${t}`}`, sel, a, { 'mcp-protocol-version': LEGACY, ...tenantHeader(t) }, JSON.stringify(message(id, c, undefined))),
  );
  const legacyHeaders = fc.tuple(fc.constantFrom(...VALID_CALLS), fc.constantFrom(...LEGACY_VERSIONS), fc.constantFrom(...LEGACY_ACCEPTS), ids, selection).map(([[, c], version, accept, id, sel]) =>
    base(`2025 stateless, version ${version ?? '(none)'}, accept ${accept}`, sel, undefined, { accept, ...(version === undefined ? {} : { 'mcp-protocol-version': version }) }, JSON.stringify(message(id, c, undefined))),
  );
  const legacyOdd = fc.tuple(fc.constantFrom(...VALID_CALLS), fc.constantFrom(...LEGACY_ODDITIES), ids, selection).map(([[, c], [oddity, change], id, sel]) =>
    base(
      `2025 stateless with ${oddity}`,
      sel,
      undefined,
      { 'mcp-protocol-version': LEGACY, ...(oddity.startsWith('Mcp-Method') ? { 'mcp-method': c.method, ...(c.name !== undefined ? { 'mcp-name': c.name } : {}) } : {}) },
      JSON.stringify(change(message(id, c, undefined))),
    ),
  );
  // The input-required rounds: the first (answered with a sealed state), a retry with the sealed state, a forged one, none.
  const confirmAnswer = { confirm: { action: 'accept', content: { ok: true } } };
  const rounds: ReadonlyArray<[string, Call]> = [
    ['first round', call('tools/call', { name: 'confirm', arguments: {} }, 'confirm')],
    ['retry with the sealed state', call('tools/call', { name: 'confirm', arguments: {}, inputResponses: confirmAnswer, requestState: context.sealedState }, 'confirm')],
    ['retry with a forged state', call('tools/call', { name: 'confirm', arguments: {}, inputResponses: confirmAnswer, requestState: 'asked' }, 'confirm')],
    ['retry without a state', call('tools/call', { name: 'confirm', arguments: {}, inputResponses: confirmAnswer }, 'confirm')],
  ];
  const inputRounds = fc.tuple(fc.constantFrom(...rounds), fc.constantFrom(...ENVELOPES), ids, selection, auth).map(([[round, c], meta, id, sel, a]) =>
    base(`input-required ${round}`, sel, a, modernHeaders(c, 'none'), JSON.stringify(message(id, c, meta))),
  );
  const session = fc.tuple(fc.constantFrom(...VALID_CALLS), ids, selection).map(([[, c], id, sel]) =>
    base('unknown Mcp-Session-Id', sel, undefined, { ...modernHeaders(c, 'none'), 'mcp-session-id': 'no-such-session' }, JSON.stringify(message(id, c, ENVELOPE))),
  );
  return fc.oneof(
    { arbitrary: valid, weight: 40 },
    { arbitrary: invalid, weight: 12 },
    { arbitrary: headers, weight: 12 },
    { arbitrary: badMeta, weight: 8 },
    { arbitrary: modernOdd, weight: 4 },
    { arbitrary: badMetaRefused, weight: 2 },
    { arbitrary: idForms, weight: 4 },
    { arbitrary: batch, weight: 4 },
    { arbitrary: oversized, weight: 2 },
    { arbitrary: contentTypes, weight: 6 },
    { arbitrary: notJson, weight: 4 },
    { arbitrary: legacy, weight: 12 },
    { arbitrary: legacyHeaders, weight: 6 },
    { arbitrary: legacyOdd, weight: 4 },
    { arbitrary: inputRounds, weight: 6 },
    { arbitrary: session, weight: 2 },
  );
}

/**
 * The headers compared: every one but framing and the date — and the
 * encoding: the fast path compresses a large `tools/list` for a client that
 * accepts it (the SDK path never does), so bodies are compared decoded.
 */
const IGNORED_HEADERS = new Set(['date', 'content-length', 'transfer-encoding', 'connection', 'keep-alive', 'content-encoding', 'vary']);

function decoded(body: Buffer, encoding: string | string[] | undefined): Buffer {
  if (encoding === 'gzip') return gunzipSync(body);
  if (encoding === 'br') return brotliDecompressSync(body);
  return body;
}

/** An answer as compared: status, the headers that matter, and the JSON-RPC messages of the body. */
export interface Answer {
  readonly status: number;
  readonly headers: Record<string, string>;
  readonly messages: unknown;
}

/**
 * Sends one request over `agent` and reads the answer. A connection reset is
 * retried on a fresh connection: a server answering 413 before reading an
 * oversized body closes the socket with bytes unread, and the client may see
 * the reset before the answer (TCP's race, the same on both paths).
 */
export async function send(agent: Agent, origin: URL, r: GeneratedRequest): Promise<Answer> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await sendOnce(attempt === 1 ? agent : undefined, origin, r);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ECONNRESET' || attempt === 5) throw error;
    }
  }
}

function sendOnce(agent: Agent | undefined, origin: URL, r: GeneratedRequest): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const body = Buffer.from(r.body);
    const headers: Record<string, string | number> = { ...r.headers, 'content-length': body.length };
    if (headers['content-type'] === '') delete headers['content-type'];
    const req = httpRequest({ host: origin.hostname, port: origin.port, path: r.path, method: 'POST', agent: agent ?? false, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('error', reject);
      res.on('end', () => {
        const picked: Record<string, string> = {};
        for (const [name, value] of Object.entries(res.headers)) if (!IGNORED_HEADERS.has(name) && value !== undefined) picked[name] = Array.isArray(value) ? value.join(', ') : value;
        resolve({ status: res.statusCode ?? 0, headers: picked, messages: messagesOf(decoded(Buffer.concat(chunks), res.headers['content-encoding']).toString('utf8'), picked['content-type']) });
      });
    });
    req.on('error', reject);
    req.end(body);
  });
}

/** A sealed `requestState` carries its expiry time: two answers sealed a moment apart differ in it. */
const sealed = (key: string, value: unknown): unknown => (key === 'requestState' && typeof value === 'string' ? '(sealed requestState)' : value);

function messagesOf(text: string, contentType: string | undefined): unknown {
  if (contentType?.startsWith('text/event-stream')) {
    return text
      .split('\n\n')
      .filter((frame) => frame.trim() !== '')
      .map((frame) => {
        const data = frame.split('\n').filter((line) => line.startsWith('data:')).map((line) => line.slice(5).trimStart()).join('\n');
        return { event: frame.split('\n').find((line) => line.startsWith('event:')), data: data === '' ? undefined : (JSON.parse(data, sealed) as unknown) };
      });
  }
  if (text === '') return undefined;
  try {
    return JSON.parse(text, sealed) as unknown;
  } catch {
    return { text };
  }
}
