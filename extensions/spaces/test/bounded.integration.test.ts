/**
 * The spaces tools are truthful and bounded, as a client sees them: search
 * finds what a notebook's outputs really hold (not only their summary), a
 * long listing comes in pages with an opaque cursor, no answer is longer
 * than `maxResponseTokens` (counted with o200k_base, as the catalog counts) —
 * nor than the deprecated `maxResponseChars`, while it is accepted — and an
 * answer that left anything out says `truncated: true`.
 */
import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildHost, ErrorCodes, isReactorError, silentLogger, type McpHost } from '@reactor/host';
import { connect, type TestConnection } from '@reactor/host/testing';
import { Tiktoken } from 'js-tiktoken/lite';
import o200kBase from 'js-tiktoken/ranks/o200k_base';
import { createSpacesExtension, MAX_RESPONSE_CHARS_ENV, MAX_RESPONSE_TOKENS_ENV, SAMPLE_ROOT } from '../src/index.js';

const encoder = new Tiktoken(o200kBase);
const tokensOf = (text: string) => encoder.encode(text).length;

const CAP = 4000;
const FILES = 1234;

let base: string;
let wide: TestConnection;
let wideHost: McpHost;
let capped: TestConnection;
let cappedHost: McpHost;

interface Answer {
  readonly text: string;
  readonly data: Record<string, unknown> & { truncated?: boolean };
}

const answer = async (conn: TestConnection, name: string, args: Record<string, unknown>): Promise<Answer> => {
  const result = await conn.callTool(name, args);
  const text = (result.content[0] as { text: string }).text;
  if (result.isError) throw new Error(text);
  return { text, data: result.structuredContent as Answer['data'] };
};

const notebook = (cells: unknown[]) => JSON.stringify({ nbformat: 4, nbformat_minor: 5, metadata: {}, cells });

beforeAll(async () => {
  base = await fs.mkdtemp(path.join(os.tmpdir(), 'reactor-spaces-bounded-'));
  const write = async (rel: string, data: string) => {
    await fs.mkdir(path.dirname(path.join(base, rel)), { recursive: true });
    await fs.writeFile(path.join(base, rel), data);
  };
  // "big": 1 234 files in nested folders, like the tree that once answered 806 777 characters at once.
  for (let i = 0; i < FILES; i++) await write(`big/folder-${String(i % 12).padStart(2, '0')}/sub-${i % 5}/file-${String(i).padStart(4, '0')}.txt`, `line ${i}\n`);
  // "logs": a notebook whose outputs are longer than their summary, and text full of characters JSON escapes.
  const log = Array.from({ length: 5000 }, (_, i) => `step ${i + 1}: loss = ${(1 / (i + 1)).toFixed(6)}`).join('\n');
  await write('logs/training.ipynb', notebook([
    { cell_type: 'markdown', metadata: {}, source: '# Training' },
    { cell_type: 'code', metadata: {}, execution_count: 1, source: 'train()', outputs: [
      { output_type: 'stream', name: 'stderr', text: 'warming up\n' },
      { output_type: 'stream', name: 'stdout', text: log },
    ] },
    { cell_type: 'code', metadata: {}, execution_count: 2, source: 'evaluate()', outputs: [
      { output_type: 'error', ename: 'RuntimeError', evalue: 'CUDA out of memory', traceback: ['\u001b[0;31mRuntimeError\u001b[0m Traceback', '  File "train.py", line 88, in evaluate_batch', 'RuntimeError: CUDA out of memory'] },
    ] },
    { cell_type: 'code', metadata: {}, execution_count: 3, source: `huge = """${'x'.repeat(20_000)}"""`, outputs: [] },
  ]));
  await write('logs/quotes.txt', `${'"\\'.repeat(6000)}\n`);
  await write('logs/many-matches.md', Array.from({ length: 400 }, (_, i) => `needle number ${i} in a haystack of words`).join('\n'));
  for (let i = 0; i < 40; i++) await write(`logs/nb-${String(i).padStart(2, '0')}.ipynb`, notebook([{ cell_type: 'markdown', metadata: {}, source: `# Notebook ${i} about ${'long words '.repeat(30)}needle` }]));

  wideHost = await buildHost([createSpacesExtension({ roots: [SAMPLE_ROOT, `big=${path.join(base, 'big')}`, `logs=${path.join(base, 'logs')}`] })], { strict: true, logger: silentLogger });
  wide = await connect(wideHost);
  cappedHost = await buildHost([createSpacesExtension({ roots: [`big=${path.join(base, 'big')}`, `logs=${path.join(base, 'logs')}`], maxResponseChars: CAP })], { strict: true, logger: silentLogger });
  capped = await connect(cappedHost);
}, 60_000);

afterAll(async () => {
  await wide?.close();
  await wideHost?.stop();
  await capped?.close();
  await cappedHost?.stop();
  if (base) await fs.rm(base, { recursive: true, force: true });
});

describe('search_text searches what notebook outputs really hold', () => {
  it('finds a line from the middle of a long output that read_notebook only summarises, with its line in that output', async () => {
    const nb = await answer(wide, 'read_notebook', { space: 'climate-lab', path: 'sea_level_exploration.ipynb', cells: { start: 4, end: 5 } });
    expect(nb.text).not.toContain('bootstrap 100/200'); // the summary keeps the head and the tail only
    const { data } = await answer(wide, 'search_text', { space: 'climate-lab', query: 'bootstrap 100/200' });
    expect(data.matches).toEqual([{ path: 'sea_level_exploration.ipynb', cell: 4, inOutput: true, output: 0, line: 100, column: 1, text: 'bootstrap 100/200: acceleration = 0.1099 mm/yr²' }]);
    expect(data.truncated).toBe(false);
  });

  it('numbers lines within each output, and searches an error\'s traceback', async () => {
    const { data } = await answer(wide, 'search_text', { space: 'logs', query: 'step 2500:', glob: '*.ipynb' });
    expect(data.matches).toEqual([expect.objectContaining({ path: 'training.ipynb', cell: 1, output: 1, line: 2500, column: 1 })]);
    const traceback = await answer(wide, 'search_text', { space: 'logs', query: 'evaluate_batch' });
    expect(traceback.data.matches).toEqual([expect.objectContaining({ cell: 2, output: 0, line: 3, text: '  File "train.py", line 88, in evaluate_batch' })]);
  });

  it('find_notebooks matches words that only the whole output holds', async () => {
    const { data } = await answer(wide, 'find_notebooks', { space: 'climate-lab', query: '100/200' });
    expect(data.notebooks).toEqual([expect.objectContaining({ path: 'sea_level_exploration.ipynb', matchedIn: ['output'] })]);
  });
});

describe('list_files pages with an opaque cursor', () => {
  it('pages through a recursive listing: every entry once, in tree order, truncated until the last page', async () => {
    const seen: string[] = [];
    let cursor: string | undefined;
    let pages = 0;
    do {
      const { data } = await answer(wide, 'list_files', { space: 'big', recursive: true, limit: 400, ...(cursor ? { cursor } : {}) });
      const entries = data.entries as Array<{ path: string }>;
      seen.push(...entries.map((e) => e.path));
      cursor = (data.nextCursor as string | null) ?? undefined;
      expect(data.truncated, `page ${pages}`).toBe(cursor !== undefined);
      pages++;
    } while (cursor !== undefined);
    const folders = 12 + 12 * 5;
    expect(seen).toHaveLength(FILES + folders);
    expect(new Set(seen).size).toBe(seen.length);
    expect(pages).toBeGreaterThanOrEqual(Math.ceil((FILES + folders) / 400)); // 400 entries, or fewer when they pass 10,000 tokens
    expect(seen.slice(0, 3)).toEqual(['folder-00', 'folder-00/sub-0', 'folder-00/sub-0/file-0000.txt']);
  });

  it('answers the first page by default, not the whole tree: as many entries as fit 10,000 tokens', async () => {
    const { text, data } = await answer(wide, 'list_files', { space: 'big', recursive: true });
    const tokens = tokensOf(text);
    expect(tokens).toBeLessThanOrEqual(10_000);
    expect(tokens).toBeGreaterThan(9000); // the page is sized by tokens, not by a fixed count
    expect(data).toMatchObject({ truncated: true, nextCursor: expect.any(String) });
  });

  it('refuses a cursor it did not make, or one of another listing, saying how to start over', async () => {
    const bad = await wide.callTool('list_files', { space: 'big', recursive: true, cursor: 'not-a-cursor' });
    expect(bad.isError).toBe(true);
    expect((bad.content[0] as { text: string }).text).toBe('cursor "not-a-cursor" of tool "list_files": is not a cursor this tool made; expected the nextCursor of a previous list_files call, unchanged; hint: call list_files again without cursor to start from the beginning');
    const { data } = await answer(wide, 'list_files', { space: 'big', recursive: true, limit: 10 });
    const other = await wide.callTool('list_files', { space: 'big', recursive: false, cursor: data.nextCursor });
    expect((other.content[0] as { text: string }).text).toMatch(/: belongs to another call; expected the nextCursor of a previous list_files call for space "big", path "", recursive false; hint: call list_files again without cursor/);
  });
});

describe(`every answer fits maxResponseChars (${CAP} here) and says when it left something out`, () => {
  it('list_files: fewer entries per page, the cursor continues, and paging still reaches every entry', async () => {
    let total = 0;
    let cursor: string | undefined;
    do {
      const { text, data } = await answer(capped, 'list_files', { space: 'big', path: 'folder-00', recursive: true, limit: 5000, ...(cursor ? { cursor } : {}) });
      expect(text.length).toBeLessThanOrEqual(CAP);
      total += (data.entries as unknown[]).length;
      cursor = (data.nextCursor as string | null) ?? undefined;
      expect(data.truncated).toBe(cursor !== undefined);
    } while (cursor !== undefined);
    const inFolder = Math.ceil(FILES / 12) + 5; // its files and its five subfolders
    expect(total).toBe(inFolder);
  });

  it('search_text: fewer matches than asked, truncated', async () => {
    const { text, data } = await answer(capped, 'search_text', { space: 'logs', query: 'needle number', maxResults: 500 });
    expect(text.length).toBeLessThanOrEqual(CAP);
    expect((data.matches as unknown[]).length).toBeGreaterThan(0);
    expect((data.matches as unknown[]).length).toBeLessThan(400);
    expect(data.truncated).toBe(true);
  });

  it('read_file: a shorter page whose JSON fits, and the pages still make up the file', async () => {
    const original = await fs.readFile(path.join(base, 'logs/quotes.txt'), 'utf8');
    let text = '';
    let offset: number | null = 0;
    while (offset !== null) {
      const page = await answer(capped, 'read_file', { space: 'logs', path: 'quotes.txt', offset, limit: 20_000 });
      expect(page.text.length).toBeLessThanOrEqual(CAP);
      if (page.data.nextOffset !== null) expect(page.data.truncated).toBe(true);
      text += page.data.text as string;
      offset = page.data.nextOffset as number | null;
    }
    expect(text).toBe(original);
  });

  it('read_notebook: a cell larger than an answer is shown cut, head and tail kept, truncated', async () => {
    const { text, data } = await answer(capped, 'read_notebook', { space: 'logs', path: 'training.ipynb', cells: { start: 3 } });
    expect(text.length).toBeLessThanOrEqual(CAP);
    const cell = (data.cells as Array<{ index: number; source: string }>)[0];
    expect(cell?.index).toBe(3);
    expect(cell?.source).toMatch(/^huge = """x+\n… \[[\d,]+ characters omitted\] …\nx+"""$/);
    expect(data).toMatchObject({ truncated: true, nextCell: null });
  });

  it('read_notebook: fewer cells per page, continued from nextCell', async () => {
    const { text, data } = await answer(capped, 'read_notebook', { space: 'logs', path: 'training.ipynb' });
    expect(text.length).toBeLessThanOrEqual(CAP);
    expect(data).toMatchObject({ truncated: true, nextCell: expect.any(Number) });
  });

  it('find_notebooks: fewer notebooks, truncated', async () => {
    const { text, data } = await answer(capped, 'find_notebooks', { space: 'logs', query: 'needle', maxResults: 200 });
    expect(text.length).toBeLessThanOrEqual(CAP);
    expect((data.notebooks as unknown[]).length).toBeLessThan(40);
    expect(data.truncated).toBe(true);
  });

  it('list_spaces says truncated: false when nothing was left out', async () => {
    const { data } = await answer(capped, 'list_spaces', {});
    expect(data).toMatchObject({ truncated: false });
    expect((data.spaces as unknown[]).length).toBe(2);
  });
});

describe('configuring the budget', () => {
  it(`maxResponseTokens, else ${MAX_RESPONSE_TOKENS_ENV}: every answer within that many tokens, the cut saying how to go on`, async () => {
    const host = await buildHost([createSpacesExtension({ roots: [`big=${path.join(base, 'big')}`, `logs=${path.join(base, 'logs')}`], env: { [MAX_RESPONSE_TOKENS_ENV]: '800' } })], { strict: true, logger: silentLogger });
    const conn = await connect(host);
    try {
      const calls: Array<[string, Record<string, unknown>]> = [
        ['list_files', { space: 'big', recursive: true, limit: 5000 }],
        ['search_text', { space: 'logs', query: 'needle number', maxResults: 500 }],
        ['read_file', { space: 'logs', path: 'quotes.txt', limit: 20_000 }],
        ['read_notebook', { space: 'logs', path: 'training.ipynb' }],
        ['read_notebook', { space: 'logs', path: 'training.ipynb', cells: { start: 3 } }],
        ['find_notebooks', { space: 'logs', query: 'needle', maxResults: 200 }],
      ];
      for (const [name, args] of calls) {
        const { text, data } = await answer(conn, name, args);
        expect(tokensOf(text), name).toBeLessThanOrEqual(800);
        if (name !== 'read_notebook') expect(tokensOf(text), name).toBeGreaterThan(400); // filled, not cut to nothing (a notebook's page ends before a cell that does not fit)
        expect(data.truncated, name).toBe(true);
      }
    } finally {
      await conn.close();
      await host.stop();
    }
    expect(() => createSpacesExtension({ env: { [MAX_RESPONSE_TOKENS_ENV]: '10k' } })).toThrow(/^environment variable REACTOR_SPACES_MAX_RESPONSE_TOKENS of extension "spaces": is invalid; expected a whole number of at least 500, received "10k"/);
    expect(() => createSpacesExtension({ maxResponseTokens: 10 })).toThrow(/option "maxResponseTokens" of extension "spaces": is invalid/);
  });

  it(`still accepts the deprecated ${MAX_RESPONSE_CHARS_ENV} when the option is not given, and refuses a value below the minimum`, async () => {
    const host = await buildHost([createSpacesExtension({ roots: [`big=${path.join(base, 'big')}`], env: { [MAX_RESPONSE_CHARS_ENV]: '2500' } })], { strict: true, logger: silentLogger });
    const conn = await connect(host);
    try {
      const { text, data } = await answer(conn, 'list_files', { space: 'big', recursive: true, limit: 5000 });
      expect(text.length).toBeLessThanOrEqual(2500);
      expect(data.truncated).toBe(true);
    } finally {
      await conn.close();
      await host.stop();
    }
    const refused = (() => {
      try {
        createSpacesExtension({ env: { [MAX_RESPONSE_CHARS_ENV]: 'lots' } });
      } catch (error) {
        return error;
      }
      return undefined;
    })();
    expect(isReactorError(refused) && refused.code).toBe(ErrorCodes.OPTION_INVALID);
    expect((refused as Error).message).toMatch(/environment variable REACTOR_SPACES_MAX_RESPONSE_CHARS of extension "spaces": is invalid; expected a whole number of at least 2000, received "lots"/);
    expect(() => createSpacesExtension({ maxResponseChars: 100 })).toThrow(/option "maxResponseChars" of extension "spaces": is invalid; expected a whole number of at least 2000, received 100/);
  });
});
