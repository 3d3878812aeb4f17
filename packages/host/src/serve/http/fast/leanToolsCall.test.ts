/**
 * A shared 2026-07-28 server's lean `tools/call` answers what the SDK's
 * wrapper answers: its two shortcuts are held to the SDK's own schemas with
 * generated requests and results, and whole answers are compared with a
 * server that keeps the SDK's wrapper, for results and throws of every kind
 * the shortcuts leave to the SDK.
 */
import {
  CLIENT_CAPABILITIES_META_KEY,
  inputRequired,
  McpServer,
  PROTOCOL_VERSION_META_KEY,
  ProtocolError,
  ProtocolErrorCode,
  UrlElicitationRequiredError,
  type JSONRPCMessage,
  type JSONRPCRequest,
  type ServerContext,
} from '@modelcontextprotocol/server';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { installLeanToolsCall, isPlainToolsCall, stampedPlainResult } from './leanToolsCall.js';
import { dispatchOf, rememberToolsCall } from '../../../host/mint/sdkInternals.js';
import { requestDelivery, serveModernRevision, SharedExchangeTransport } from './sharedExchange.js';

const REVISION = '2026-07-28';
const ENVELOPE = { [PROTOCOL_VERSION_META_KEY]: REVISION, [CLIENT_CAPABILITIES_META_KEY]: {} };

/** The host's handler: it answers at once when it can (a synchronous tool), else with a promise. */
type Handler = (request: { params: { name: string; arguments?: Record<string, unknown> } }, ctx: ServerContext) => unknown;

interface Codec {
  validateRequest(method: string, raw: unknown): { ok: boolean };
  validateResult(method: string, raw: unknown): { ok: true; value: unknown } | { ok: false };
  encodeResult(method: string, result: unknown, serverInfo: unknown): unknown;
}

/** A server as `sharedServers.ts` serves one: minted with the handler, bound to 2026-07-28, connected to a shared transport; lean or not. */
async function served(handler: Handler, lean: boolean): Promise<{ server: McpServer; transport: SharedExchangeTransport; installed: boolean; stats: { leanToolCalls: number } }> {
  const stats = { leanToolCalls: 0 };
  const server = new McpServer({ name: 'lean-test', version: '1.0.0' }, { capabilities: { tools: {} } });
  server.server.setRequestHandler('tools/call', handler as never);
  rememberToolsCall(server, handler);
  serveModernRevision(server, REVISION);
  const transport = new SharedExchangeTransport({ era: 'modern', revision: REVISION });
  await server.connect(transport);
  transport.deliver = requestDelivery(server);
  return { server, transport, installed: lean && installLeanToolsCall(server, stats), stats };
}

/** The messages one request is answered with (related ones, then the answer), or `refused`. */
function ask(transport: SharedExchangeTransport, message: JSONRPCRequest): Promise<JSONRPCMessage[] | 'refused'> {
  return new Promise((resolve) => {
    const seen: JSONRPCMessage[] = [];
    const outcome = transport.exchange(
      message,
      { request: new Request('http://localhost/mcp', { method: 'POST' }), authInfo: undefined },
      { related: (m) => void seen.push(m), answer: (m) => resolve([...seen, m]), closed: () => resolve(seen) },
      () => undefined,
    );
    if (outcome.kind === 'refused') resolve('refused');
  });
}

const call = (params: Record<string, unknown>, id = 7): JSONRPCRequest => ({ jsonrpc: '2.0', id, method: 'tools/call', params: { ...params, _meta: { ...ENVELOPE, ...(params._meta as object | undefined) } } });

/** The answers a lean server and an SDK-wrapped one give to the same request from the same handler, as bytes. */
async function bothAnswers(handler: Handler, message: JSONRPCRequest): Promise<{ lean: string; sdk: string; installed: boolean; leanCalls: number }> {
  const lean = await served(handler, true);
  const sdk = await served(handler, false);
  try {
    return { lean: JSON.stringify(await ask(lean.transport, message)), sdk: JSON.stringify(await ask(sdk.transport, message)), installed: lean.installed, leanCalls: lean.stats.leanToolCalls };
  } finally {
    await lean.server.close();
    await sdk.server.close();
  }
}

async function modernCodec(): Promise<{ codec: Codec; serverInfo: unknown; close: () => Promise<void> }> {
  const { server } = await served(() => Promise.resolve({ content: [] }), false);
  const sdk = dispatchOf(server)!;
  return { codec: sdk.negotiatedCodec() as unknown as Codec, serverInfo: sdk.serverInfo(), close: () => server.close() };
}

describe('the shortcuts, against the SDK schemas', () => {
  it('a request it calls plain is one the era schema accepts (generated params)', async () => {
    const { codec, close } = await modernCodec();
    const member = fc.oneof(fc.string(), fc.integer(), fc.constant(null), fc.array(fc.jsonValue(), { maxLength: 2 }), fc.dictionary(fc.string(), fc.jsonValue(), { maxKeys: 3 }));
    // Mostly near the plain shape, so both sides of the line are well sampled.
    const often = <T,>(likely: fc.Arbitrary<T>) => fc.oneof({ arbitrary: likely, weight: 4 }, { arbitrary: member, weight: 1 });
    const params = fc.record(
      { name: often(fc.string()), arguments: often(fc.dictionary(fc.string(), fc.jsonValue(), { maxKeys: 3 })), extra: member, _meta: fc.dictionary(fc.string(), fc.jsonValue(), { maxKeys: 2 }) },
      { requiredKeys: ['name'] },
    ).map(({ extra, _meta, ...rest }) => ({ ...rest, ...(extra !== undefined && rest.name === '' ? { extra } : {}), ...(_meta !== undefined && rest.name === 'm' ? { _meta } : {}) }));
    let plain = 0;
    fc.assert(
      fc.property(params, (p) => {
        // Through JSON, as every request the fast path delivers.
        const request = JSON.parse(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: p })) as JSONRPCRequest;
        if (!isPlainToolsCall(request)) return;
        plain++;
        expect(codec.validateRequest('tools/call', request).ok).toBe(true);
      }),
      { numRuns: 3000, seed: 20261203 },
    );
    // The property held for a good share of plain requests, not a handful.
    expect(plain).toBeGreaterThan(100);
    // What makes a request not plain: a member left in params, arguments that are no object, a name that is no string.
    expect(isPlainToolsCall({ method: 'tools/call', params: { name: 'a', arguments: { x: 1 } } })).toBe(true);
    expect(isPlainToolsCall({ method: 'tools/call', params: { name: 'a', _meta: {} } })).toBe(false);
    expect(isPlainToolsCall({ method: 'tools/call', params: { name: 'a', arguments: [] } })).toBe(false);
    expect(isPlainToolsCall({ method: 'tools/call', params: { name: 1 } })).toBe(false);
    await close();
  });

  it('a plain result is answered byte for byte as the SDK encodes its parsed copy (generated results)', async () => {
    const { codec, serverInfo, close } = await modernCodec();
    // Mostly near the plain shape, so both sides of the line are well sampled.
    const often = <T,>(likely: fc.Arbitrary<T>) => fc.oneof({ arbitrary: likely, weight: 6 }, { arbitrary: fc.jsonValue(), weight: 1 });
    const text = fc.oneof(
      { arbitrary: fc.record({ type: fc.constant('text'), text: fc.string() }), weight: 12 },
      { arbitrary: fc.record({ type: fc.constant('text'), text: fc.string(), annotations: fc.constant({ audience: ['user'] }) }), weight: 1 },
      { arbitrary: fc.record({ type: fc.string(), text: fc.jsonValue() }), weight: 1 },
    );
    const result = fc.record(
      { content: often(fc.array(text, { maxLength: 3 })), structuredContent: often(fc.dictionary(fc.string(), fc.jsonValue(), { maxKeys: 3 })), isError: often(fc.boolean()), extra: fc.jsonValue() },
      { requiredKeys: ['content'] },
    ).map(({ extra, ...rest }) => ({ ...rest, ...(extra !== undefined && rest.isError === true ? { extra } : {}) }));
    let plain = 0;
    fc.assert(
      fc.property(result, (r) => {
        const raw = JSON.parse(JSON.stringify(r)) as Record<string, unknown>;
        const stamped = stampedPlainResult(raw, serverInfo);
        if (stamped === undefined) return;
        plain++;
        const parsed = codec.validateResult('tools/call', raw);
        if (!parsed.ok) throw new Error(`the SDK refused a result called plain: ${JSON.stringify(raw)}`);
        expect(JSON.stringify(stamped)).toBe(JSON.stringify(codec.encodeResult('tools/call', parsed.value, serverInfo)));
        // Already encoded: the dispatch's encoding hands it back as it is.
        expect(codec.encodeResult('tools/call', stamped, serverInfo)).toBe(stamped);
      }),
      { numRuns: 3000, seed: 20261203 },
    );
    expect(plain).toBeGreaterThan(100);
    await close();
  });
});

describe('a lean server, against one with the SDK wrapper', () => {
  const text = (value: string) => ({ content: [{ type: 'text', text: value }] });
  const cases: Array<[string, Handler, JSONRPCRequest?]> = [
    ['a plain result (the lean path)', (request) => Promise.resolve(text(`called ${request.params.name}`))],
    ['an isError result with structured content (the lean path)', () => Promise.resolve({ ...text('no'), structuredContent: { a: 1 }, isError: true })],
    ['a result with annotated content', () => Promise.resolve({ content: [{ type: 'text', text: 'x', annotations: { audience: ['user'] } }] })],
    ['a result with a member of its own', () => Promise.resolve({ ...text('x'), extra: 2 })],
    ['a result without content', () => Promise.resolve({ structuredContent: { a: 1 } })],
    ['a result the schema refuses', () => Promise.resolve({ content: [], isError: 'yes' })],
    ['a result with _meta of its own', () => Promise.resolve({ ...text('x'), _meta: { mine: true } })],
    ['an input-required result the envelope cannot fulfil', () => Promise.resolve(inputRequired({ inputRequests: { confirm: inputRequired.elicit({ message: 'sure?', requestedSchema: { type: 'object', properties: {} } }) } }))],
    ['an input-required result with only a state to echo', () => Promise.resolve(inputRequired({ requestState: 'opaque' }))],
    ['a protocol error thrown', () => Promise.reject(new ProtocolError(ProtocolErrorCode.InvalidParams, 'Tool nope not found'))],
    ['a URL elicitation thrown (the SDK converts it on 2026-07-28)', () => Promise.reject(new UrlElicitationRequiredError([]))],
    ['an error thrown', () => Promise.reject(new Error('boom'))],
    ['a plain result answered at once (the lean path)', (request) => text(`called ${request.params.name} at once`)],
    ['a result the schema refuses, answered at once', () => ({ content: [], isError: 'yes' })],
    [
      'an error thrown at once',
      () => {
        throw new ProtocolError(ProtocolErrorCode.InvalidParams, 'thrown, not rejected');
      },
    ],
    ['a request with _meta beside the envelope', (request) => Promise.resolve(text(`called ${request.params.name}`)), call({ name: 'a', _meta: { traceparent: '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01' } })],
    ['a request with arguments that are no object', () => Promise.resolve(text('never')), call({ name: 'a', arguments: [1] })],
  ];
  for (const [name, handler, message] of cases) {
    it(`answers alike: ${name}`, async () => {
      const answers = await bothAnswers(handler, message ?? call({ name: 'a', arguments: { q: 'x' } }));
      expect(answers.installed).toBe(true);
      expect(answers.lean).toBe(answers.sdk);
      // Only a plain request with a plain result skips the SDK's parses; every other answer is the SDK wrapper's own.
      expect(answers.leanCalls).toBe(name.endsWith('(the lean path)') ? 1 : 0);
    });
  }

  it('is installed only on a server the host minted, of the SDK classes, with its handler unchanged', async () => {
    const handler: Handler = () => Promise.resolve(text('x'));
    const minted = await served(handler, true);
    expect(minted.installed).toBe(true);

    const unknown = new McpServer({ name: 'other', version: '1' }, { capabilities: { tools: {} } });
    unknown.server.setRequestHandler('tools/call', handler as never);
    expect(installLeanToolsCall(unknown)).toBe(false);

    const replaced = new McpServer({ name: 'replaced', version: '1' }, { capabilities: { tools: {} } });
    replaced.server.setRequestHandler('tools/call', handler as never);
    rememberToolsCall(replaced, handler);
    replaced.server.setRequestHandler('tools/call', (() => Promise.resolve(text('a hook'))) as never);
    expect(installLeanToolsCall(replaced)).toBe(false);

    class Subclass extends McpServer {}
    const sub = new Subclass({ name: 'sub', version: '1' }, { capabilities: { tools: {} } });
    sub.server.setRequestHandler('tools/call', handler as never);
    rememberToolsCall(sub, handler);
    expect(installLeanToolsCall(sub)).toBe(false);
    await minted.server.close();
  });
});
