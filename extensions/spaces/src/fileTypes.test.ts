import { describe, expect, it } from 'vitest';
import { formatBytes, isBinaryByName, isNotebookPath, looksBinary, mimeTypeOf } from './fileTypes.js';

describe('fileTypes', () => {
  it('knows the MIME types of a space\'s usual files', () => {
    expect(mimeTypeOf('a/b.ipynb')).toBe('application/x-ipynb+json');
    expect(mimeTypeOf('data.CSV')).toBe('text/csv');
    expect(mimeTypeOf('runs.jsonl')).toBe('application/jsonl');
    expect(mimeTypeOf('plot.png')).toBe('image/png');
    expect(mimeTypeOf('Makefile')).toBe('text/plain');
    expect(mimeTypeOf('weights.xyz', true)).toBe('application/octet-stream');
  });

  it('calls images, archives and model files binary by name, and SVG text', () => {
    expect(isBinaryByName('x.png')).toBe(true);
    expect(isBinaryByName('x.parquet')).toBe(true);
    expect(isBinaryByName('x.safetensors')).toBe(true);
    expect(isBinaryByName('x.svg')).toBe(false);
    expect(isBinaryByName('x.csv')).toBe(false);
  });

  it('sniffs a NUL byte as binary', () => {
    expect(looksBinary(Buffer.from('plain text\n'))).toBe(false);
    expect(looksBinary(Buffer.from([0x41, 0x00, 0x42]))).toBe(true);
    expect(looksBinary(Buffer.from('héllo wörld', 'utf8'))).toBe(false);
  });

  it('recognises notebooks by extension', () => {
    expect(isNotebookPath('x/y.IPYNB')).toBe(true);
    expect(isNotebookPath('x/y.ipynb.bak')).toBe(false);
  });

  it('formats sizes for people', () => {
    expect(formatBytes(0)).toBe('0 B');
    expect(formatBytes(1023)).toBe('1023 B');
    expect(formatBytes(1536)).toBe('1.5 KB');
    expect(formatBytes(12 * 1024)).toBe('12 KB');
    expect(formatBytes(3.4 * 1024 * 1024)).toBe('3.4 MB');
  });
});
