/**
 * The tools' handlers called as ordinary functions, with no server: what a
 * wrapping extension (e.g. benchmarks) gets when it calls `original(args, ctx)`.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testContext } from '@reactor/host/testing';
import { makeTempSpaces, type TempSpaces } from '../../test/tempSpaces.js';
import { createRuntime } from '../runtime.js';
import { SAMPLE_ROOT } from '../spaceRoots.js';
import { createFindNotebooksTool } from './findNotebooks.js';
import { createListFilesTool } from './listFiles.js';
import { createListSpacesTool, describeReadme } from './listSpaces.js';
import { createReadFileTool, readFileOutput } from './readFile.js';
import { createReadNotebookTool } from './readNotebook.js';
import { createSearchTextTool } from './searchText.js';

let temp: TempSpaces;
beforeAll(async () => {
  temp = await makeTempSpaces();
});
afterAll(async () => {
  await temp.cleanup();
});

const ctx = testContext({ extension: 'spaces', toolsets: ['spaces'] });
const runtime = () => createRuntime({ roots: [SAMPLE_ROOT, temp.root] });

describe('tool handlers without a server', () => {
  it('list_spaces returns plain JSON describing every space', async () => {
    const result = await createListSpacesTool(runtime()).handler({}, ctx);
    expect(result.spaces.map((s) => [s.name, s.files, s.notebooks])).toEqual([
      ['benchmark-notes', 4, 1],
      ['climate-lab', 9, 3],
      ['alpha', 6, 0],
      ['beta', 1, 1],
    ]);
    expect(result.spaces[0]).toMatchObject({ title: 'Benchmark notes', description: 'Working notes on benchmark runs.' });
  });

  it('read_file counts offset and limit in characters and reports the whole length', async () => {
    const tool = createReadFileTool(runtime());
    const page = await tool.handler({ space: 'alpha', path: 'notes.md', offset: 2, limit: 5 }, ctx);
    expect(page).toEqual({ space: 'alpha', path: 'notes.md', mimeType: 'text/markdown', size: 80, totalChars: 80, offset: 2, nextOffset: 7, text: 'Alpha', truncated: false });
    await expect(tool.handler({ space: 'alpha', path: 'notes.md', offset: 500, limit: 5 }, ctx)).rejects.toThrow(/offset 500 is past the end; expected an offset from 0 to 80/);
  });

  it('read_file bounds a page by maxReadBytes whatever the limit asks', async () => {
    const tool = createReadFileTool(createRuntime({ roots: [SAMPLE_ROOT], maxReadBytes: 256 }));
    // A text page is the plain result object; readFileOutput parses it (an image would come as a CallToolResult instead).
    const page = readFileOutput.parse(await tool.handler({ space: 'climate-lab', path: 'data/global_temperatures.csv', offset: 0, limit: 100_000 }, ctx));
    expect(page.text.length).toBe(256);
    expect(page.nextOffset).toBe(256);
  });

  it('read_file refuses a folder, and a link to outside', async () => {
    const tool = createReadFileTool(runtime());
    await expect(tool.handler({ space: 'alpha', path: 'data', offset: 0, limit: 10 }, ctx)).rejects.toThrow(/is a folder, not a file; hint: call list_files/);
    await expect(tool.handler({ space: 'alpha', path: 'link-dir-outside/secret.txt', offset: 0, limit: 10 }, ctx)).rejects.toThrow(/path escapes the space/);
  });

  it('list_files refuses a file, and lists through a link inside the space', async () => {
    const tool = createListFilesTool(runtime());
    await expect(tool.handler({ space: 'alpha', path: 'notes.md', recursive: false, limit: 500 }, ctx)).rejects.toThrow(/is a file, not a folder/);
    const linked = await tool.handler({ space: 'alpha', path: 'link-dir-inside', recursive: false, limit: 500 }, ctx);
    expect(linked.entries.map((e) => e.path)).toEqual(['link-dir-inside/nested', 'link-dir-inside/values.csv']);
    await expect(tool.handler({ space: 'alpha', path: '..', recursive: true, limit: 500 }, ctx)).rejects.toThrow(/path escapes the space/);
  });

  it('read_notebook refuses a start past the last cell, and reads an empty range as no cells', async () => {
    const tool = createReadNotebookTool(runtime());
    await expect(tool.handler({ space: 'beta', path: 'analysis.ipynb', cells: { start: 2 }, includeOutputs: true }, ctx)).rejects.toThrow(/has no cell 2; expected cells.start from 0 to 1/);
    const empty = await tool.handler({ space: 'beta', path: 'analysis.ipynb', cells: { start: 1, end: 1 }, includeOutputs: true }, ctx);
    expect(empty.cells).toEqual([]);
    expect(empty.nextCell).toBeNull();
  });

  it('read_notebook refuses a file that is no notebook, saying how to read it', async () => {
    const tool = createReadNotebookTool(runtime());
    await expect(tool.handler({ space: 'alpha', path: 'data/values.csv', includeOutputs: true }, ctx)).rejects.toThrow(/notebook "alpha\/data\/values.csv": is not valid JSON.*read_file/);
  });

  it('find_notebooks searches one space or all, and reports unparsable notebooks', async () => {
    const tool = createFindNotebooksTool(runtime());
    const one = await tool.handler({ space: 'beta', query: 'measurements.csv', maxResults: 5 }, ctx);
    expect(one.notebooks.map((n) => n.path)).toEqual(['analysis.ipynb']);
    const all = await tool.handler({ query: 'hello beta', maxResults: 5 }, ctx);
    expect(all.notebooks).toEqual([expect.objectContaining({ space: 'beta', path: 'analysis.ipynb', matchedIn: ['source', 'output'] })]);
    expect(all.skipped).toEqual([]);
  });

  it('search_text names the unknown space and the known ones', async () => {
    const tool = createSearchTextTool(runtime());
    await expect(tool.handler({ space: 'gamma', query: 'x', maxResults: 5, caseSensitive: false }, ctx)).rejects.toThrow('space "gamma": not found; expected one of: benchmark-notes, climate-lab, alpha, beta');
  });

  it('search_text run as a task says how many of the space\'s files it has searched, and stops when the task is cancelled', async () => {
    const root = mkdtempSync(join(tmpdir(), 'reactor-search-task-'));
    try {
      mkdirSync(join(root, 'many'));
      for (let i = 0; i < 1200; i++) writeFileSync(join(root, 'many', `f${i}.txt`), 'hay\n');
      const tool = createSearchTextTool(createRuntime({ roots: [root] }));
      const statuses: string[] = [];
      // What the host hands a handler that runs as a task: ctx.task and a signal that tasks/cancel aborts.
      const task = { taskId: 'task-1', status: (message: string) => statuses.push(message) };
      const found = await tool.handler({ space: 'many', query: 'needle' }, { ...ctx, task });
      expect(found.matches).toEqual([]);
      expect(statuses).toEqual(['searched 500 of 1200 files of many', 'searched 1000 of 1200 files of many']);
      const cancel = new AbortController();
      const cancelling = { taskId: 'task-2', status: () => cancel.abort(new Error('the task was cancelled')) };
      await expect(tool.handler({ space: 'many', query: 'needle' }, { ...ctx, signal: cancel.signal, task: cancelling })).rejects.toThrow('the task was cancelled');
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});

describe('describeReadme', () => {
  it('takes the first heading as title and the first prose paragraph as description', () => {
    expect(describeReadme('# Title\n\n| a | b |\n\nFirst\nparagraph here.\n\nSecond.')).toEqual({ title: 'Title', description: 'First paragraph here.' });
    expect(describeReadme('')).toEqual({});
  });
});
