/**
 * A shared server's envelope check, asked once per distinct envelope.
 *
 * The SDK's dispatch (`_onrequest`) asks the era codec's
 * `checkInboundEnvelope` on every 2026-07-28 request: a zod parse of the
 * `_meta` envelope the request carried. A client sends the same envelope on
 * every request, and in the server that parse cost about 3 µs of a 70 µs
 * `tools/call` (a scratch build without it, in pairs: docs/performance.md).
 * The check reads the envelope and nothing else, so its answer — `undefined`
 * or the refusal's text — is kept per envelope (`envelopeVerdicts.ts`).
 *
 * How: the server's `_negotiatedWireCodec` answers a view of the SDK's codec
 * whose `checkInboundEnvelope` is the kept one; every other member is the
 * codec's own (the view's prototype). Only on servers of the SDK's own
 * classes, with the method still the SDK's; the codecs are plain objects
 * the SDK never compares by identity.
 */
import type { McpServer } from '@modelcontextprotocol/server';
import { ENVELOPE_META_KEYS, EnvelopeVerdicts } from './envelopeVerdicts.js';
import { classWireCodecOf, isStockServer, replaceWireCodecOf, type WireCodec } from '../../../host/mint/sdkInternals.js';

type Check = WireCodec['checkInboundEnvelope'];
/** An SDK codec, its check read as possibly missing (a codec of another SDK): then nothing is kept. */
type Codec = Omit<WireCodec, 'checkInboundEnvelope'> & { checkInboundEnvelope?: Check };

/** Kept verdicts per SDK codec, shared by every server that speaks its era: the check depends on the codec and the envelope alone. */
const viewsByCodec = new WeakMap<Codec, Codec>();

/** Makes `server` ask its codec's envelope check once per distinct envelope; false, and nothing changed, for a server of another class or one whose method was replaced. */
export function keepEnvelopeChecks(server: McpServer): boolean {
  const sdkCodecOf = classWireCodecOf(server);
  if (!isStockServer(server) || sdkCodecOf === undefined) return false;
  let last: Codec | undefined;
  let lastView: Codec | undefined;
  replaceWireCodecOf(server, function negotiatedWireCodec(this: unknown): WireCodec {
    const codec: Codec = sdkCodecOf.call(this);
    if (codec !== last) {
      last = codec;
      lastView = viewOf(codec);
    }
    return lastView as WireCodec;
  });
  return true;
}

/** `codec`, its envelope check kept per envelope. */
function viewOf(codec: Codec): Codec {
  if (typeof codec.checkInboundEnvelope !== 'function') return codec;
  let view = viewsByCodec.get(codec);
  if (!view) {
    // The codec's check as it stands when asked (read each time, not kept: nothing of the SDK's is frozen by this).
    const check = (material: Parameters<Check>[0]) => (codec.checkInboundEnvelope as Check).call(codec, material);
    const verdicts = new EnvelopeVerdicts<string | undefined>(ENVELOPE_META_KEYS, (envelope) => check({ envelope }));
    const kept: Check = (material) => (material.envelope === undefined ? check(material) : verdicts.verdict(material.envelope));
    view = Object.create(codec, { checkInboundEnvelope: { value: kept, enumerable: true } }) as Codec;
    viewsByCodec.set(codec, view);
  }
  return view;
}
