/**
 * read_file beyond one page of characters: files of any size read a page at a
 * time (never decoded whole), lines from the head or the tail, and images
 * returned as image content — as a client sees them, and as a wrapping
 * extension calling the handler sees them.
 */
import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildHost, silentLogger, type McpHost } from '@reactor/host';
import { connect, testContext, type TestConnection } from '@reactor/host/testing';
import { createSpacesExtension, SAMPLE_ROOT } from '../src/index.js';
import { createRuntime } from '../src/runtime.js';
import { CHECKPOINT_BYTES } from '../src/textPages.js';
import { createReadFileTool, readFileOutput } from '../src/tools/readFile.js';
import { createReadNotebookTool } from '../src/tools/readNotebook.js';

let dir: string;
let host: McpHost;
let conn: TestConnection;
const ctx = testContext({ extension: 'spaces', toolsets: ['spaces'] });

// Multi-byte text across many checkpoints: 2-, 3- and 4-byte characters (surrogate pairs), a U+FEFF in the middle.
const unit = 'line of text, naïve café → ✓ 日本語 🙂🚀 \uFEFF end\n';
const BIG = `\uFEFF${unit.repeat(Math.ceil((3 * CHECKPOINT_BYTES) / Buffer.byteLength(unit)))}last line without a break`;
// Invalid UTF-8 around checkpoint boundaries: lone continuation bytes, a cut 4-byte sequence, a stray lead byte.
const broken = Buffer.concat([Buffer.from('a'.repeat(CHECKPOINT_BYTES - 2)), Buffer.from([0xf0, 0x9f, 0x99]), Buffer.from('b\n'), Buffer.from([0x80, 0x80, 0xc3]), Buffer.from('c'.repeat(CHECKPOINT_BYTES))]);

beforeAll(async () => {
  dir = await fs.mkdtemp(path.join(os.tmpdir(), 'spaces-read-file-'));
  await fs.mkdir(path.join(dir, 'files'));
  await fs.writeFile(path.join(dir, 'files', 'big.txt'), BIG);
  await fs.writeFile(path.join(dir, 'files', 'broken.txt'), broken);
  await fs.writeFile(path.join(dir, 'files', 'ten.txt'), Array.from({ length: 10 }, (_, i) => `line ${i + 1}\n`).join(''));
  await fs.writeFile(path.join(dir, 'files', 'no-break.txt'), 'one\ntwo\nthree');
  await fs.copyFile(path.join(SAMPLE_ROOT, 'climate-lab', 'figures', 'temperature_anomaly.png'), path.join(dir, 'files', 'chart.png'));
  host = await buildHost([createSpacesExtension({ roots: [dir] })], { strict: true, logger: silentLogger });
  conn = await connect(host);
});
afterAll(async () => {
  await conn.close();
  await host.stop();
  await fs.rm(dir, { recursive: true, force: true });
});

const read = async (args: Record<string, unknown>, options: Parameters<typeof createRuntime>[0] = {}) =>
  readFileOutput.parse(await createReadFileTool(createRuntime({ roots: [dir], ...options })).handler({ space: 'files', path: 'big.txt', offset: 0, limit: 20_000, ...args }, ctx));

async function readAll(file: string, options: Parameters<typeof createRuntime>[0], limit = 20_000): Promise<{ text: string; totalChars: number; pages: number }> {
  const tool = createReadFileTool(createRuntime({ roots: [dir], ...options }));
  let text = '';
  let pages = 0;
  let offset: number | null = 0;
  let totalChars = -1;
  while (offset !== null) {
    const page = readFileOutput.parse(await tool.handler({ space: 'files', path: file, offset, limit }, ctx));
    expect(page.offset).toBe(offset);
    expect(Buffer.byteLength(page.text)).toBeLessThanOrEqual(options?.maxReadBytes ?? 64 * 1024);
    totalChars = page.totalChars;
    text += page.text;
    offset = page.nextOffset;
    pages++;
  }
  return { text, totalChars, pages };
}

describe('paging a file larger than one checkpoint', () => {
  it('gives, page by page, exactly the text of the whole file decoded at once', async () => {
    const expected = new TextDecoder('utf-8').decode(await fs.readFile(path.join(dir, 'files', 'big.txt')));
    const all = await readAll('big.txt', { maxReadBytes: 4096 });
    expect(all.totalChars).toBe(expected.length);
    expect(all.text).toBe(expected);
    expect(all.pages).toBeGreaterThan(40);
  });

  it('counts invalid bytes as the whole-file decode does (one U+FFFD each), across checkpoints', async () => {
    const expected = new TextDecoder('utf-8').decode(broken);
    const all = await readAll('broken.txt', { maxReadBytes: 1000 }, 777);
    expect(all.text).toBe(expected);
    expect(all.totalChars).toBe(expected.length);
  });

  it('starts a page anywhere: the same characters as slicing the whole text', async () => {
    const expected = new TextDecoder('utf-8').decode(await fs.readFile(path.join(dir, 'files', 'big.txt')));
    for (const offset of [1, CHECKPOINT_BYTES - 1, CHECKPOINT_BYTES + 17, expected.length - 5]) {
      const page = await read({ offset, limit: 100 });
      expect(page.text).toBe(expected.slice(offset, offset + page.text.length));
      expect(page.text.length).toBe(Math.min(100, expected.length - offset));
    }
  });

  it('sees a file that changed since the last page', async () => {
    const file = path.join(dir, 'files', 'changing.txt');
    await fs.writeFile(file, 'first version\n');
    const tool = createReadFileTool(createRuntime({ roots: [dir] }));
    expect(readFileOutput.parse(await tool.handler({ space: 'files', path: 'changing.txt', offset: 0, limit: 100 }, ctx)).text).toBe('first version\n');
    await fs.writeFile(file, 'the second, longer version\n');
    const page = readFileOutput.parse(await tool.handler({ space: 'files', path: 'changing.txt', offset: 0, limit: 100 }, ctx));
    expect(page).toMatchObject({ text: 'the second, longer version\n', totalChars: 27 });
  });

  it('reads a file over maxFileBytes in pages instead of refusing it', async () => {
    const page = await read({ limit: 10 }, { maxFileBytes: 1024 });
    expect(page).toMatchObject({ offset: 0, nextOffset: 10, text: 'line of te', truncated: false });
  });

  it('names read_file, not search_text (which skips such files), when another tool refuses a file over maxFileBytes', async () => {
    await fs.writeFile(path.join(dir, 'files', 'big.ipynb'), JSON.stringify({ nbformat: 4, nbformat_minor: 5, metadata: {}, cells: [{ cell_type: 'markdown', metadata: {}, source: 'x'.repeat(4096) }] }));
    const tool = createReadNotebookTool(createRuntime({ roots: [dir], maxFileBytes: 1024 }));
    const refusal = tool.handler({ space: 'files', path: 'big.ipynb' }, ctx);
    await expect(refusal).rejects.toThrow(/is too large to load.*hint: read it in pages with read_file \(offset and limit, or head or tail line counts\)/);
    await expect(refusal).rejects.not.toThrow(/search_text/);
  });
});

describe('lines: head and tail', () => {
  it('head: N gives the first N lines, and continues from nextOffset', async () => {
    const first = await read({ path: 'ten.txt', head: 3 });
    expect(first).toMatchObject({ text: 'line 1\nline 2\nline 3\n', offset: 0, nextOffset: 21, truncated: false });
    const next = await read({ path: 'ten.txt', head: 2, offset: first.nextOffset });
    expect(next.text).toBe('line 4\nline 5\n');
    expect(await read({ path: 'ten.txt', head: 50 })).toMatchObject({ text: expect.stringMatching(/^line 1\n[^]*line 10\n$/), nextOffset: null, truncated: false });
  });

  it('tail: N gives the last N lines, with the offset they start at', async () => {
    const tail = await read({ path: 'ten.txt', tail: 2 });
    expect(tail).toMatchObject({ text: 'line 9\nline 10\n', offset: tail.totalChars - 15, nextOffset: null, truncated: false });
    expect(await read({ path: 'no-break.txt', tail: 2 })).toMatchObject({ text: 'two\nthree', offset: 4 });
    expect(await read({ path: 'no-break.txt', tail: 9 })).toMatchObject({ text: 'one\ntwo\nthree', offset: 0, truncated: false });
  });

  it('tail reads only the end of a large file, and says truncated when the lines asked for do not fit a page', async () => {
    const expected = new TextDecoder('utf-8').decode(await fs.readFile(path.join(dir, 'files', 'big.txt')));
    const last = await read({ tail: 2 });
    expect(last.text).toBe(`${unit}last line without a break`);
    expect(last.offset).toBe(expected.length - last.text.length);
    const many = await read({ tail: 100_000 }, { maxReadBytes: 1024 });
    expect(many.truncated).toBe(true);
    expect(many.text.startsWith('line of text')).toBe(true);
    expect(expected.slice(many.offset)).toBe(many.text);
  });

  it('refuses tail with head or offset', async () => {
    await expect(read({ path: 'ten.txt', tail: 2, head: 2 })).rejects.toThrow(/tail cannot be combined with head or offset/);
    await expect(read({ path: 'ten.txt', tail: 2, offset: 3 })).rejects.toThrow(/tail cannot be combined with head or offset/);
  });

  it('takes head and tail over the protocol', async () => {
    const result = await conn.callTool('read_file', { space: 'files', path: 'ten.txt', tail: 1 });
    expect(result.structuredContent).toMatchObject({ text: 'line 10\n', nextOffset: null });
  });
});

describe('images', () => {
  it('come back as image content a model sees, with the structured answer beside it', async () => {
    const result = await conn.callTool('read_file', { space: 'files', path: 'chart.png' });
    expect(result.isError ?? false).toBe(false);
    const image = result.content.find((c) => c.type === 'image') as { data: string; mimeType: string } | undefined;
    expect(image?.mimeType).toBe('image/png');
    expect(Buffer.from(image?.data ?? '', 'base64').equals(await fs.readFile(path.join(dir, 'files', 'chart.png')))).toBe(true);
    expect(result.structuredContent).toMatchObject({ path: 'chart.png', mimeType: 'image/png', size: 5217, image: true, text: '' });
  });

  it('larger than maxImageBytes are refused, pointing at the resource', async () => {
    const tool = createReadFileTool(createRuntime({ roots: [dir], maxImageBytes: 1024 }));
    await expect(tool.handler({ space: 'files', path: 'chart.png', offset: 0, limit: 10 }, ctx)).rejects.toThrow(/is an image too large to return \(5\.1 KB image\/png\); expected at most 1 KB; hint: read the resource spaces:\/\/files\/chart\.png/);
  });
});
