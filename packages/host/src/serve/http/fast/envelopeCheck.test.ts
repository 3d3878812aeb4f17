/**
 * A shared server's dispatch asks the SDK codec's envelope check once per
 * distinct envelope, and answers as the SDK does: the same refusals for the
 * same envelopes.
 */
import { CLIENT_CAPABILITIES_META_KEY, CLIENT_INFO_META_KEY, McpServer, PROTOCOL_VERSION_META_KEY, type JSONRPCMessage } from '@modelcontextprotocol/server';
import { describe, expect, it, vi } from 'vitest';
import { keepEnvelopeChecks } from './envelopeCheck.js';
import { requestDelivery, serveModernRevision, SharedExchangeTransport } from './sharedExchange.js';

const REVISION = '2026-07-28';
type Codec = { checkInboundEnvelope(material: unknown): string | undefined };
type CodecOf = () => Codec;

/** A stock server bound to 2026-07-28 on a shared transport, its envelope checks kept or not. */
async function served(keep: boolean): Promise<{ server: McpServer; transport: SharedExchangeTransport; kept: boolean }> {
  const server = new McpServer({ name: 'envelope-test', version: '1.0.0' }, { capabilities: { tools: {} } });
  server.server.setRequestHandler('tools/list', () => ({ tools: [] }));
  serveModernRevision(server, REVISION);
  const transport = new SharedExchangeTransport({ era: 'modern', revision: REVISION });
  await server.connect(transport);
  transport.deliver = requestDelivery(server);
  return { server, transport, kept: keep && keepEnvelopeChecks(server) };
}

/** What the server answers to a tools/list carrying `meta`: the answer, or the refusal the SDK sent before any handler ran (as the transport was given it). */
function ask(transport: SharedExchangeTransport, id: number, meta: Record<string, unknown>): Promise<JSONRPCMessage | undefined> {
  const sent: JSONRPCMessage[] = [];
  const send = transport.send.bind(transport);
  transport.send = (message, options) => (sent.push(message), send(message, options));
  return new Promise<JSONRPCMessage | undefined>((resolve) => {
    const outcome = transport.exchange(
      { jsonrpc: '2.0', id, method: 'tools/list', params: { _meta: meta } },
      { request: new Request('http://localhost/mcp', { method: 'POST' }), authInfo: undefined },
      { related: () => undefined, answer: (m) => resolve(m), closed: () => resolve(undefined) },
      () => undefined,
    );
    if (outcome.kind === 'refused') resolve(sent.at(-1));
  }).finally(() => (transport.send = send));
}

const VALID = { [PROTOCOL_VERSION_META_KEY]: REVISION, [CLIENT_CAPABILITIES_META_KEY]: {}, [CLIENT_INFO_META_KEY]: { name: 'c', version: '1' } };
const ENVELOPES: Array<Record<string, unknown>> = [
  VALID,
  { [PROTOCOL_VERSION_META_KEY]: REVISION, [CLIENT_CAPABILITIES_META_KEY]: 'not an object' },
  { [PROTOCOL_VERSION_META_KEY]: REVISION, [CLIENT_CAPABILITIES_META_KEY]: {}, [CLIENT_INFO_META_KEY]: { name: 7 } },
  { [PROTOCOL_VERSION_META_KEY]: 42, [CLIENT_CAPABILITIES_META_KEY]: {} },
  VALID,
];

describe('keepEnvelopeChecks', () => {
  it('answers every envelope as the SDK’s own check does, valid or refused', async () => {
    const kept = await served(true);
    const sdk = await served(false);
    try {
      expect(kept.kept).toBe(true);
      const answers = [];
      for (const [at, meta] of ENVELOPES.entries()) {
        const ours = await ask(kept.transport, at + 1, meta);
        expect(ours).toEqual(await ask(sdk.transport, at + 1, meta));
        answers.push(ours);
      }
      // Three refusals, each with the SDK's own text, between two answers.
      expect(answers.map((m) => (m && 'error' in m ? m.error.message.slice(0, 22) : m && 'result' in m ? 'answer' : m))).toEqual(['answer', 'Invalid _meta envelope', 'Invalid _meta envelope', 'Invalid _meta envelope', 'answer']);
    } finally {
      await kept.server.close();
      await sdk.server.close();
    }
  });

  it('asks the SDK’s check once for an envelope every request repeats', async () => {
    const { server, transport } = await served(true);
    // The SDK's codec, as its own method answers it (the server's own answers a view of it).
    const codec = (Object.getPrototypeOf(server.server) as { _negotiatedWireCodec: CodecOf })._negotiatedWireCodec.call(server.server);
    const check = vi.spyOn(codec, 'checkInboundEnvelope');
    try {
      // A fresh envelope (this client's name), so no earlier test's verdict answers it.
      const meta = { ...VALID, [CLIENT_INFO_META_KEY]: { name: 'once', version: '1' } };
      for (let id = 1; id <= 5; id++) expect(await ask(transport, id, structuredClone(meta))).toMatchObject({ id, result: { tools: [] } });
      expect(check).toHaveBeenCalledTimes(1);
    } finally {
      check.mockRestore();
      await server.close();
    }
  });

  it('leaves a server of another class, or one whose method was replaced, as it is', () => {
    class OwnServer extends McpServer {}
    expect(keepEnvelopeChecks(new OwnServer({ name: 't', version: '1' }))).toBe(false);
    const replaced = new McpServer({ name: 't', version: '1' });
    const own = () => ({ checkInboundEnvelope: () => undefined });
    Object.defineProperty(replaced.server, '_negotiatedWireCodec', { value: own, configurable: true });
    expect(keepEnvelopeChecks(replaced)).toBe(false);
    expect((replaced.server as unknown as { _negotiatedWireCodec: unknown })._negotiatedWireCodec).toBe(own);
  });
});
