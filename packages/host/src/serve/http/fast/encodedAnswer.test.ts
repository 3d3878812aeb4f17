import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { acceptedEncoding, EncodedAnswer } from './encodedAnswer.js';

const answer = (n: number) => `{"result":{"tools":[${Array.from({ length: n }, (_, i) => `{"name":"tool_${i}","description":"Tool number ${i}."}`).join(',')}]},"jsonrpc":"2.0","id":`;

describe('EncodedAnswer', () => {
  it.each([1, 100, 5000])('replays the answer of %i tools under any id, plain, gzip and Brotli, each decoding to the same JSON', (n) => {
    const head = answer(n);
    const encoded = new EncodedAnswer(Buffer.from(head));
    for (const id of [0, 42, 'a "quoted" id', 'é']) {
      const expected = `${head}${JSON.stringify(id)}}`;
      expect(Buffer.concat(encoded.chunks(id, undefined)).toString()).toBe(expected);
      expect(gunzipSync(Buffer.concat(encoded.chunks(id, 'gzip'))).toString()).toBe(expected);
      expect(brotliDecompressSync(Buffer.concat(encoded.chunks(id, 'br'))).toString()).toBe(expected);
      JSON.parse(expected);
    }
  });

  it('compresses the head once: a large list shrinks below a seventh with Brotli', () => {
    const encoded = new EncodedAnswer(Buffer.from(answer(5000)));
    const plain = Buffer.concat(encoded.chunks(1, undefined)).length;
    expect(Buffer.concat(encoded.chunks(1, 'br')).length / plain).toBeLessThan(0.15);
    expect(encoded.chunks(2, 'br')[0]).toBe(encoded.chunks(3, 'br')[0]);
    expect(encoded.chunks(2, 'gzip')[0]).toBe(encoded.chunks(3, 'gzip')[0]);
  });
});

describe('acceptedEncoding', () => {
  it.each([
    [undefined, undefined],
    ['', undefined],
    ['identity', undefined],
    ['gzip', 'gzip'],
    ['gzip, deflate, br', 'br'],
    ['br;q=0.5, gzip', 'gzip'],
    ['br;q=0, gzip;q=0', undefined],
    ['GZIP', 'gzip'],
    ['*', undefined],
  ] as const)('%j → %j', (header, expected) => {
    expect(acceptedEncoding(header)).toBe(expected);
  });
});
