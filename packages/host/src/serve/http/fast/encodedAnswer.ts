/**
 * A JSON-RPC answer encoded once and replayed under any request's id — the
 * fast path's `tools/list` — plain, gzip or Brotli, compressed once.
 *
 * The SDK writes a response as `{"result":…,"jsonrpc":"2.0","id":<id>}`: only
 * the last few bytes differ between requests. So the head (everything up to
 * the id) is kept as bytes, and compressed once per encoding into a stream
 * that is flushed but not finished (byte-aligned, non-final); each request
 * appends its `<id>}` as a raw (stored / uncompressed) block and the end of
 * the stream. Both formats allow that by design: a deflate stream is a
 * sequence of blocks, one of them stored (RFC 1951 §3.2.4), and gzip's
 * trailer is the CRC-32 of the whole content, continued from the head's
 * (`zlib.crc32`); a Brotli stream is a sequence of meta-blocks, one of them
 * uncompressed (RFC 7932 §9.2). The compression cost stays with the head.
 */
import { brotliCompressSync, constants, crc32, deflateRawSync } from 'node:zlib';

/** Answers smaller than this are sent plain: compressing them saves little and costs a round of work per blueprint. */
export const COMPRESS_MIN_BYTES = 4096;

/** The encodings offered, best first. */
export type AnswerEncoding = 'br' | 'gzip';

const GZIP_HEADER = Buffer.from([0x1f, 0x8b, 0x08, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0xff]);
/** Brotli: an empty last meta-block (ISLAST=1, ISLASTEMPTY=1). */
const BROTLI_END = Buffer.from([0x03]);

export class EncodedAnswer {
  private gzipHead: { bytes: Buffer; crc: number } | undefined;
  private brotliHead: Buffer | undefined;

  /**
   * `head`: the answer's bytes up to and including `"id":`; `close`: what
   * follows the id (`}`, or `}` and the blank line ending an SSE event).
   */
  constructor(
    readonly head: Buffer,
    private readonly close = '}',
  ) {}

  /** The answer for request `id`, as chunks to write, in `encoding` (or plain). */
  chunks(id: string | number, encoding: AnswerEncoding | undefined): Buffer[] {
    const tail = Buffer.from(`${JSON.stringify(id)}${this.close}`);
    if (encoding === 'gzip') {
      const head = (this.gzipHead ??= { bytes: Buffer.concat([GZIP_HEADER, deflateRawSync(this.head, { level: 9, finishFlush: constants.Z_SYNC_FLUSH })]), crc: crc32(this.head) });
      const trailer = Buffer.alloc(8);
      trailer.writeUInt32LE(crc32(tail, head.crc), 0);
      trailer.writeUInt32LE((this.head.length + tail.length) % 2 ** 32, 4);
      return [head.bytes, storedFinalBlock(tail), trailer];
    }
    if (encoding === 'br') {
      const head = (this.brotliHead ??= brotliCompressSync(this.head, {
        finishFlush: constants.BROTLI_OPERATION_FLUSH,
        params: { [constants.BROTLI_PARAM_QUALITY]: 9, [constants.BROTLI_PARAM_SIZE_HINT]: this.head.length, [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT },
      }));
      return [head, uncompressedMetaBlock(tail), BROTLI_END];
    }
    return [this.head, tail];
  }
}

/** A final deflate stored block holding `data` (at most 65,535 bytes: an id). */
function storedFinalBlock(data: Buffer): Buffer {
  const block = Buffer.alloc(5 + data.length);
  block[0] = 0x01; // BFINAL=1, BTYPE=00, padded to the byte
  block.writeUInt16LE(data.length, 1);
  block.writeUInt16LE(~data.length & 0xffff, 3);
  data.copy(block, 5);
  return block;
}

/** A non-last uncompressed Brotli meta-block holding `data` (1 to 65,536 bytes). */
function uncompressedMetaBlock(data: Buffer): Buffer {
  // ISLAST=0 (bit 0), MNIBBLES=4 (bits 1–2 = 0), MLEN-1 (bits 3–18), ISUNCOMPRESSED=1 (bit 19); padded to 3 bytes.
  const header = ((data.length - 1) << 3) | (1 << 19);
  const block = Buffer.alloc(3 + data.length);
  block[0] = header & 0xff;
  block[1] = (header >> 8) & 0xff;
  block[2] = (header >> 16) & 0xff;
  data.copy(block, 3);
  return block;
}

/** The encoding to answer with, from `Accept-Encoding` (q-values honoured; `br` preferred on a tie). */
export function acceptedEncoding(header: string | undefined): AnswerEncoding | undefined {
  if (header === undefined || header === '') return undefined;
  let best: { encoding: AnswerEncoding; q: number } | undefined;
  for (const part of header.split(',')) {
    const [token = '', ...params] = part.trim().toLowerCase().split(';');
    const name = token.trim();
    const qParam = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    const q = qParam === undefined ? 1 : Number(qParam.slice(2));
    if (!(q > 0)) continue;
    const encoding: AnswerEncoding | undefined = name === 'br' ? 'br' : name === 'gzip' || name === 'x-gzip' ? 'gzip' : undefined;
    if (encoding && (!best || q > best.q || (q === best.q && encoding === 'br'))) best = { encoding, q };
  }
  return best?.encoding;
}
