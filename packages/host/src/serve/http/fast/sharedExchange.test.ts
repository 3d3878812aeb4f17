/**
 * The shared transports' routing: each exchange gets its own messages back
 * by the client's id (related ones first, then the answer, which ends it), a
 * cancelled or ended exchange hears nothing more, and closing tells every
 * open one. The 2025 transport checks versions as the SDK's transport does.
 */
import { McpServer, SUPPORTED_PROTOCOL_VERSIONS, type JSONRPCMessage } from '@modelcontextprotocol/server';
import { describe, expect, it, vi } from 'vitest';
import { LegacyExchangeTransport } from './legacyExchange.js';
import { OpenExchanges, requestDelivery, serveModernRevision, SharedExchangeTransport, type ExchangeSink } from './sharedExchange.js';

function recordingSink(): ExchangeSink & { seen: string[] } {
  const seen: string[] = [];
  return {
    seen,
    related: (m) => void seen.push(`related ${'method' in m ? m.method : '?'}`),
    answer: (m) => void seen.push(`answer ${'id' in m ? String(m.id) : '?'}`),
    closed: () => void seen.push('closed'),
  };
}

const log = (id: number): JSONRPCMessage => ({ jsonrpc: '2.0', method: 'notifications/message', params: { level: 'info', data: `for ${id}` } });
const result = (id: number | string): JSONRPCMessage => ({ jsonrpc: '2.0', id, result: {} });

describe('OpenExchanges', () => {
  it('routes related messages and the answer to their exchange by id; the answer ends it', () => {
    const open = new OpenExchanges<{ sink: ExchangeSink }>();
    const [a, b] = [{ sink: recordingSink() }, { sink: recordingSink() }];
    open.open(1, a, () => undefined);
    open.open('x', b, () => undefined);
    expect(open.route(log(1), { relatedRequestId: 1 })).toEqual({ exchange: a, answer: false });
    expect(open.route(result('x'), undefined)).toEqual({ exchange: b, answer: true });
    expect(open.has('x')).toBe(false);
    // Ended: nothing more reaches it; a message of no request reaches none.
    expect(open.route(result('x'), undefined)).toBeUndefined();
    expect(open.route(log(9), undefined)).toBeUndefined();
    const onclose = vi.fn();
    open.endAll(onclose);
    expect(onclose).toHaveBeenCalledOnce();
    expect(a.sink.seen).toEqual(['closed']);
    expect(b.sink.seen).toEqual([]);
    expect(open.has(1)).toBe(false);
  });

  it('cancels an open exchange (forgotten, its handler aborted) but not one that already ended', () => {
    const open = new OpenExchanges<{ sink: ExchangeSink }>();
    const abort = vi.fn();
    const first = open.open(1, { sink: recordingSink() }, abort);
    const second = open.open(2, { sink: recordingSink() }, abort);
    open.route(result(2), undefined);
    if (first.kind !== 'dispatched' || second.kind !== 'dispatched') throw new Error('dispatched');
    second.cancel();
    expect(abort).not.toHaveBeenCalled();
    first.cancel();
    expect(abort).toHaveBeenCalledWith(1);
    expect(open.has(1)).toBe(false);
  });
});

describe('LegacyExchangeTransport', () => {
  it('accepts no version header or one its server speaks, as the SDK transport checks', () => {
    const transport = new LegacyExchangeTransport();
    expect(transport.acceptsVersion(undefined)).toBe(true);
    expect(transport.acceptsVersion(SUPPORTED_PROTOCOL_VERSIONS[0])).toBe(true);
    expect(transport.acceptsVersion('soon')).toBe(false);
    transport.setSupportedProtocolVersions(['2025-06-18']);
    expect(transport.acceptsVersion('2025-06-18')).toBe(true);
    expect(transport.acceptsVersion(SUPPORTED_PROTOCOL_VERSIONS.find((v) => v !== '2025-06-18'))).toBe(false);
  });

  it.each(['the transport’s onmessage', 'the protocol’s request entry'] as const)('answers through a connected server, delivered by %s: related first, then the answer; a second exchange under an id in flight is refused; close tells the open ones', async (delivery) => {
    const server = new McpServer({ name: 't', version: '1.0.0' }, { capabilities: { logging: {} } });
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    server.registerTool('slow', { description: 'Logs, waits, answers.' }, async (ctx) => {
      await ctx.mcpReq.log('info', 'working');
      await held;
      return { content: [{ type: 'text', text: 'done' }] };
    });
    server.registerTool('hang', { description: 'Never answers.' }, () => new Promise<never>(() => undefined));
    const transport = new LegacyExchangeTransport();
    await server.connect(transport);
    if (delivery === 'the protocol’s request entry') {
      // An SDK without the entry would leave the shared transports on onmessage: this says so.
      transport.deliver = requestDelivery(server);
      expect(transport.deliver).toBeTypeOf('function');
    }
    const request = new Request('http://localhost/mcp', { method: 'POST' });
    const call = (id: number, name = 'slow') => ({ jsonrpc: '2.0' as const, id, method: 'tools/call', params: { name, arguments: {} } });
    const sink = recordingSink();
    let answered!: () => void;
    const done = new Promise<void>((resolve) => (answered = resolve));
    const answer = sink.answer;
    sink.answer = (m) => (answer(m), answered());
    expect(transport.exchange(call(1), { request, authInfo: undefined }, sink, () => undefined).kind).toBe('dispatched');
    expect(transport.exchange(call(1), { request, authInfo: undefined }, recordingSink(), () => undefined).kind).toBe('refused');
    await vi.waitFor(() => expect(sink.seen).toEqual(['related notifications/message']));
    release();
    await done;
    expect(sink.seen).toEqual(['related notifications/message', 'answer 1']);

    const waiting = recordingSink();
    expect(transport.exchange(call(2, 'hang'), { request, authInfo: undefined }, waiting, () => undefined).kind).toBe('dispatched');
    await transport.close();
    expect(waiting.seen).toEqual(['closed']);
    await server.close();
  });
});

describe('serveModernRevision', () => {
  it('binds a shared server to 2026-07-28 when connected to its transport', async () => {
    const server = new McpServer({ name: 't', version: '1.0.0' });
    serveModernRevision(server, '2026-07-28');
    await server.connect(new SharedExchangeTransport({ era: 'modern', revision: '2026-07-28' }));
    expect(server.server.getNegotiatedProtocolVersion()).toBe('2026-07-28');
    await server.close();
  });
});
