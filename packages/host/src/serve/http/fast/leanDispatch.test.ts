/**
 * A plain `tools/call` handed to the lean handler without the SDK's
 * `_onrequest` is answered as `_onrequest` answers it: the same messages
 * (related ones, then the answer), the same context for the handler, the
 * same refusals, cancellation and failures — each case run on a server
 * with the lean dispatch and on one without, and compared.
 */
import {
  CLIENT_CAPABILITIES_META_KEY,
  CLIENT_INFO_META_KEY,
  inputRequired,
  McpServer,
  PROTOCOL_VERSION_META_KEY,
  ProtocolError,
  ProtocolErrorCode,
  type JSONRPCMessage,
  type JSONRPCRequest,
  type ServerContext,
} from '@modelcontextprotocol/server';
import { describe, expect, it, vi } from 'vitest';
import { buildContextWithoutSpreads } from './handlerContext.js';
import { leanDispatch } from './leanDispatch.js';
import { installLeanToolsCall, leanToolsCallOf } from './leanToolsCall.js';
import { rememberToolsCall } from '../../../host/mint/sdkInternals.js';
import { abortHandler, requestDelivery, serveModernRevision, SharedExchangeTransport } from './sharedExchange.js';

const REVISION = '2026-07-28';
const ENVELOPE = { [PROTOCOL_VERSION_META_KEY]: REVISION, [CLIENT_CAPABILITIES_META_KEY]: {}, [CLIENT_INFO_META_KEY]: { name: 'test-client', version: '1.0.0' } };

type Handler = (request: { params: { name: string; arguments?: Record<string, unknown> } }, ctx: ServerContext) => Promise<unknown>;

interface Served {
  readonly server: McpServer;
  readonly transport: SharedExchangeTransport;
  readonly dispatched: () => number;
  readonly errors: Error[];
}

/** A server as `sharedServers.ts` makes one — lean handler, contexts without spreads — delivering through the lean dispatch or through `_onrequest`. */
async function served(handler: Handler, direct: boolean): Promise<Served> {
  const server = new McpServer({ name: 'dispatch-test', version: '1.0.0' }, { capabilities: { tools: {}, logging: {} } });
  server.server.setRequestHandler('tools/call', handler as never);
  rememberToolsCall(server, handler);
  serveModernRevision(server, REVISION);
  const transport = new SharedExchangeTransport({ era: 'modern', revision: REVISION });
  await server.connect(transport);
  const errors: Error[] = [];
  server.server.onerror = (error) => void errors.push(error);
  const deliver = requestDelivery(server)!;
  buildContextWithoutSpreads(server);
  expect(installLeanToolsCall(server)).toBe(true);
  let count = 0;
  const dispatch = direct ? leanDispatch(server, leanToolsCallOf(server)!) : undefined;
  if (direct) expect(dispatch).toBeDefined();
  transport.deliver = (message, extra, deferAbort) => {
    if (deferAbort && dispatch?.(message, extra)) count++;
    else deliver(message, extra, deferAbort);
  };
  return { server, transport, dispatched: () => count, errors };
}

const REQUEST = new Request('http://localhost/mcp', { method: 'POST' });

/** The messages one request is answered with (related ones, then the answer; `refused` for a refusal sent during delivery), delivered as the fast path delivers a tools/call. */
function ask(target: Served, message: JSONRPCRequest, authInfo?: { token: string; clientId: string; scopes: string[] }, onOpen?: () => void): Promise<JSONRPCMessage[] | 'refused'> {
  return new Promise((resolve) => {
    const seen: JSONRPCMessage[] = [];
    const outcome = target.transport.exchange(
      message,
      { request: REQUEST, authInfo },
      { related: (m) => void seen.push(m), answer: (m) => resolve([...seen, m]), closed: () => resolve(seen) },
      (id) => abortHandler(target.server, id),
      true,
    );
    if (outcome.kind === 'refused') resolve('refused');
    else onOpen?.();
  });
}

const call = (params: Record<string, unknown>, id: number | string = 7): JSONRPCRequest => ({ jsonrpc: '2.0', id, method: 'tools/call', params: { ...params, _meta: { ...ENVELOPE, ...(params._meta as object | undefined) } } });
const text = (value: string) => ({ content: [{ type: 'text', text: value }] });

/** The same request answered by both servers, and whether the lean one dispatched it itself. */
async function both(handler: Handler, message: JSONRPCRequest): Promise<{ direct: string; sdk: string; dispatched: number; errors: [string[], string[]] }> {
  const direct = await served(handler, true);
  const sdk = await served(handler, false);
  try {
    const answers = { direct: JSON.stringify(await ask(direct, structuredClone(message))), sdk: JSON.stringify(await ask(sdk, structuredClone(message))) };
    // Failures the servers reported (a failed send, a failed encoding), after their last microtasks.
    await new Promise((resolve) => setTimeout(resolve, 5));
    return { ...answers, dispatched: direct.dispatched(), errors: [direct.errors.map(String), sdk.errors.map(String)] };
  } finally {
    await direct.server.close();
    await sdk.server.close();
  }
}

describe('the lean dispatch, against the SDK’s _onrequest', () => {
  const cases: Array<[string, Handler, JSONRPCRequest?]> = [
    ['a plain result (dispatched)', (request) => Promise.resolve(text(`called ${request.params.name}`))],
    ['an isError result with structured content (dispatched)', () => Promise.resolve({ ...text('no'), structuredContent: { a: 1 }, isError: true })],
    ['a result the lean handler replays through the SDK wrapper (dispatched)', () => Promise.resolve({ content: [{ type: 'text', text: 'x', annotations: { audience: ['user'] } }] })],
    ['a result the schema refuses (dispatched)', () => Promise.resolve({ content: [], isError: 'yes' })],
    ['an input-required result (dispatched)', () => Promise.resolve(inputRequired({ requestState: 'opaque' }))],
    ['a protocol error thrown (dispatched)', () => Promise.reject(new ProtocolError(ProtocolErrorCode.InvalidParams, 'Tool nope not found', { tool: 'nope' }))],
    ['an error thrown (dispatched)', () => Promise.reject(new Error('boom'))],
    // eslint-disable-next-line @typescript-eslint/prefer-promise-reject-errors
    ['a string thrown (dispatched)', () => Promise.reject('just text')],
    ['a notification sent while working (dispatched)', async (_request, ctx) => (await ctx.mcpReq.notify({ method: 'notifications/message', params: { level: 'info', data: 'working' } }), text('done'))],
    ['a log message sent while working (dispatched)', async (_request, ctx) => (await ctx.mcpReq.log('warning', 'careful'), text('done'))],
    ['a server request sent while working (dispatched)', async (_request, ctx) => {
      const outcome = await Promise.race([ctx.mcpReq.send({ method: 'ping' }).then(() => 'answered', (error: unknown) => `refused: ${String(error)}`), new Promise((resolve) => setTimeout(() => resolve('waiting'), 20))]);
      return text(String(outcome));
    }],
    ['an elicitation sent while working (dispatched)', async (_request, ctx) => {
      const outcome = await ctx.mcpReq.elicitInput({ message: 'sure?', requestedSchema: { type: 'object', properties: {} } }).then(() => 'answered', (error: unknown) => `refused: ${String(error)}`);
      return text(outcome);
    }],
    ['no arguments (dispatched)', () => Promise.resolve(text('none')), call({ name: 'a' })],
    ['a string id (dispatched)', () => Promise.resolve(text('x')), call({ name: 'a', arguments: {} }, 'req-1')],
    ['a request with _meta beside the envelope (the SDK’s)', () => Promise.resolve(text('x')), call({ name: 'a', _meta: { traceparent: '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01' } })],
    ['a request with a requestState (the SDK’s)', () => Promise.resolve(text('x')), call({ name: 'a', requestState: 'echo' })],
    ['an envelope the codec refuses (the SDK’s)', () => Promise.resolve(text('never')), { jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'a', _meta: { [PROTOCOL_VERSION_META_KEY]: REVISION, [CLIENT_CAPABILITIES_META_KEY]: 'no' } } }],
    ['a request without _meta (the SDK’s)', () => Promise.resolve(text('never')), { jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'a' } }],
  ];
  for (const [name, handler, message] of cases) {
    it(`answers alike: ${name}`, async () => {
      const answers = await both(handler, message ?? call({ name: 'a', arguments: { q: 'x' } }));
      expect(answers.direct).toBe(answers.sdk);
      expect(answers.errors[0]).toEqual(answers.errors[1]);
      expect(answers.dispatched).toBe(name.endsWith('(dispatched)') ? 1 : 0);
    });
  }

  it('reports a thrown `undefined` as the SDK does: no answer, a failed send', async () => {
    const reported: string[][] = [];
    for (const direct of [true, false]) {
      // eslint-disable-next-line @typescript-eslint/prefer-promise-reject-errors
      const target = await served(() => Promise.reject(undefined), direct);
      try {
        const answer = await Promise.race([ask(target, call({ name: 'a' })), new Promise((resolve) => setTimeout(() => resolve('no answer'), 50))]);
        expect(answer).toBe('no answer');
        expect(target.dispatched()).toBe(direct ? 1 : 0);
        reported.push(target.errors.map(String));
      } finally {
        await target.server.close();
      }
    }
    expect(reported[0]).toHaveLength(1);
    expect(reported[0]![0]).toMatch(/^Error: Failed to send response: TypeError/);
    expect(reported[0]).toEqual(reported[1]);
  });

  it('gives the handler the context _onrequest gives it, key for key', async () => {
    const contexts: ServerContext[] = [];
    const handler: Handler = (_request, ctx) => (contexts.push(ctx), Promise.resolve(text('x')));
    const direct = await served(handler, true);
    const sdk = await served(handler, false);
    const auth = { token: 't', clientId: 'c', scopes: ['a'] };
    try {
      await ask(direct, call({ name: 'a', arguments: { q: 1 } }), auth);
      await ask(sdk, call({ name: 'a', arguments: { q: 1 } }), auth);
    } finally {
      await direct.server.close();
      await sdk.server.close();
    }
    expect(direct.dispatched()).toBe(1);
    const [ours, theirs] = contexts as [ServerContext, ServerContext];
    expect(described(ours)).toEqual(described(theirs));
    expect(ours.mcpReq.envelope).toEqual(theirs.mcpReq.envelope);
    expect(ours.mcpReq.requestState()).toBe(undefined);
    expect(ours.http?.req).toBe(REQUEST);
    expect(ours.http?.authInfo).toEqual(auth);
    expect(ours.mcpReq.signal.aborted).toBe(false);
  });

  it('aborts the handler when its client goes away, and answers nothing, as _onrequest does', async () => {
    const seen: Array<{ aborted: boolean; reason: string }> = [];
    const handler: Handler = (_request, ctx) =>
      new Promise((resolve) => {
        ctx.mcpReq.signal.addEventListener('abort', () => {
          seen.push({ aborted: ctx.mcpReq.signal.aborted, reason: String(ctx.mcpReq.signal.reason) });
          resolve(text('too late'));
        });
      });
    for (const direct of [true, false]) {
      const target = await served(handler, direct);
      try {
        const answered = ask(target, call({ name: 'a' }, 9), undefined, () => setTimeout(() => abortHandler(target.server, 9), 5));
        // No answer comes: the exchange stays open until the transport closes.
        expect(await Promise.race([answered, new Promise((resolve) => setTimeout(() => resolve('no answer'), 50))])).toBe('no answer');
        expect(target.dispatched()).toBe(direct ? 1 : 0);
      } finally {
        await target.server.close();
      }
    }
    expect(seen).toHaveLength(2);
    expect(seen[0]).toEqual(seen[1]);
  });

  it('leaves to _onrequest a server whose tools/call handler is no longer the lean one', async () => {
    const target = await served(() => Promise.resolve(text('lean')), true);
    try {
      target.server.server.setRequestHandler('tools/call', (() => Promise.resolve(text('a hook'))) as never);
      const answer = await ask(target, call({ name: 'a' }));
      expect(JSON.stringify(answer)).toContain('a hook');
      expect(target.dispatched()).toBe(0);
    } finally {
      await target.server.close();
    }
  });

  it('is not made for a server of another class', () => {
    class Subclass extends McpServer {}
    const sub = new Subclass({ name: 'sub', version: '1' }, { capabilities: { tools: {} } });
    expect(leanDispatch(sub, vi.fn())).toBeUndefined();
  });
});

/** Each own key with its value, functions as their kind, objects as their keys: what two contexts must share. */
function described(object: unknown, depth = 0): unknown {
  if (typeof object === 'function') return 'function';
  if (typeof object !== 'object' || object === null) return object;
  if (depth > 1 || object instanceof Request || object.constructor?.name === 'DeferredAbortSignal') return Object.prototype.toString.call(object);
  return Reflect.ownKeys(object).map((key) => [String(key), described((object as Record<PropertyKey, unknown>)[key], depth + 1)]);
}
