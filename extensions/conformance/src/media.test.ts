import { inflateSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { RED_PIXEL_PNG_BASE64, SILENT_WAV_BASE64, silentWav } from './media.js';

describe('conformance media', () => {
  it('the PNG is a 1×1 RGB image whose one pixel is red', () => {
    const png = Buffer.from(RED_PIXEL_PNG_BASE64, 'base64');
    expect(png.subarray(0, 8)).toEqual(Buffer.from([137, 80, 78, 71, 13, 10, 26, 10]));
    expect(png.toString('ascii', 12, 16)).toBe('IHDR');
    expect([png.readUInt32BE(16), png.readUInt32BE(20), png[24], png[25]]).toEqual([1, 1, 8, 2]);
    const idatLength = png.readUInt32BE(33);
    expect(png.toString('ascii', 37, 41)).toBe('IDAT');
    // One scanline: filter byte 0, then R, G, B.
    expect([...inflateSync(png.subarray(41, 41 + idatLength))]).toEqual([0, 255, 0, 0]);
  });

  it('the WAV is a RIFF/WAVE PCM file whose sizes add up', () => {
    const wav = silentWav(8);
    expect(wav.toString('ascii', 0, 4)).toBe('RIFF');
    expect(wav.readUInt32LE(4)).toBe(wav.length - 8);
    expect(wav.toString('ascii', 8, 16)).toBe('WAVEfmt ');
    expect(wav.readUInt16LE(20)).toBe(1);
    expect(wav.toString('ascii', 36, 40)).toBe('data');
    expect(wav.readUInt32LE(40)).toBe(wav.length - 44);
    expect([...wav.subarray(44)]).toEqual(new Array(8).fill(128));
    expect(Buffer.from(SILENT_WAV_BASE64, 'base64')).toEqual(wav);
  });
});
