/**
 * The extension as a client sees it: a real host (strict), a real SDK client
 * connected in memory, answering questions about the shipped sample.
 */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildHost, silentLogger, type McpHost } from '@reactor/host';
import { connect, type TestConnection } from '@reactor/host/testing';
import spacesDefault, { createSpacesExtension, SAMPLE_ROOT, SPACES_TOOL_NAMES } from '../src/index.js';
import type { z } from 'zod';
import type { findNotebooksOutput } from '../src/tools/findNotebooks.js';
import type { listFilesOutput } from '../src/tools/listFiles.js';
import type { listSpacesOutput } from '../src/tools/listSpaces.js';
import type { readFileOutput } from '../src/tools/readFile.js';
import type { readNotebookOutput } from '../src/tools/readNotebook.js';
import type { searchTextOutput } from '../src/tools/searchText.js';
import { makeTempSpaces, type TempSpaces } from './tempSpaces.js';

let host: McpHost;
let conn: TestConnection;
let temp: TempSpaces;

beforeAll(async () => {
  temp = await makeTempSpaces();
  host = await buildHost([createSpacesExtension({ roots: [SAMPLE_ROOT, `alpha=${temp.alpha.dir}`] })], { strict: true, logger: silentLogger });
  conn = await connect(host);
});
afterAll(async () => {
  await conn.close();
  await host.stop();
  await temp.cleanup();
});

interface Outputs {
  list_spaces: z.infer<typeof listSpacesOutput>;
  list_files: z.infer<typeof listFilesOutput>;
  read_file: z.infer<typeof readFileOutput>;
  find_notebooks: z.infer<typeof findNotebooksOutput>;
  read_notebook: z.infer<typeof readNotebookOutput>;
  search_text: z.infer<typeof searchTextOutput>;
}
const call = async <N extends keyof Outputs>(name: N, args: Record<string, unknown> = {}): Promise<Outputs[N]> => {
  const result = await conn.callTool(name, args);
  if (result.isError) throw new Error(JSON.stringify(result.content));
  return result.structuredContent as Outputs[N];
};
const callError = async (name: string, args: Record<string, unknown>) => {
  const result = await conn.callTool(name, args);
  expect(result.isError).toBe(true);
  return (result.content[0] as { text: string }).text;
};

describe('tools/list', () => {
  it('lists the six tools, each with all four annotations set truthfully and an output schema', async () => {
    const { tools } = await conn.client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual([...SPACES_TOOL_NAMES].sort());
    for (const tool of tools) {
      expect(tool.annotations, tool.name).toEqual({ readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false });
      expect(tool.outputSchema?.type, tool.name).toBe('object');
      expect(tool.title, tool.name).toBeTruthy();
    }
  });

  it('says how to use the tools in the server instructions', () => {
    expect(conn.client.getInstructions()).toMatch(/## Spaces\n\nSpaces are folders of someone's work/);
  });

  it('is on by default, and off with ?without=spaces', async () => {
    const without = await connect(host, { selection: 'without=spaces' });
    try {
      expect(await without.toolNames()).toEqual([]);
    } finally {
      await without.close();
    }
  });
});

describe('answering questions about the sample', () => {
  it('list_spaces: the spaces, described from their READMEs', async () => {
    const { spaces, source } = await call('list_spaces');
    expect(source).toBe('options');
    expect(spaces.map((s: { name: string }) => s.name)).toEqual(['benchmark-notes', 'climate-lab', 'alpha']);
    expect(spaces[1]).toMatchObject({ name: 'climate-lab', title: 'Climate lab', description: 'Notebooks and data from a small climate-data exploration.', files: 9, notebooks: 3, uri: 'spaces://climate-lab/' });
  });

  it('find_notebooks: which notebook mentions global_temperatures.csv?', async () => {
    const { notebooks } = await call('find_notebooks', { query: 'global_temperatures.csv' });
    expect(notebooks.map((n: { space: string; path: string }) => `${n.space}/${n.path}`)).toEqual(['climate-lab/temperature_trends.ipynb']);
  });

  it('find_notebooks: which benchmark runs do the notes discuss?', async () => {
    const { notebooks } = await call('find_notebooks', { space: 'benchmark-notes', query: 'gsm8k-mini run-0143' });
    expect(notebooks).toHaveLength(1);
    expect(notebooks[0]).toMatchObject({ path: 'gsm8k-mini-runs.ipynb', title: 'gsm8k-mini: run-0142 vs run-0143' });
  });

  it('read_notebook: how fast has the globe warmed since 1970?', async () => {
    const nb = await call('read_notebook', { space: 'climate-lab', path: 'temperature_trends.ipynb', cells: { start: 6, end: 8 } });
    expect(nb).toMatchObject({ cellCount: 10, nextCell: null, language: 'python', title: 'Global temperature trends' });
    expect(nb.cells.map((c: { index: number }) => c.index)).toEqual([6, 7]);
    expect(nb.cells[0]!.outputs![0]!.text).toMatch(/^Trend 1970–2023: \+0\.2\d\d °C per decade/);
    expect(nb.cells[1]!.outputs![0]!.text).toMatch(/^\[image\/png 5\.1 KB\]/);
  });

  it('read_notebook: pages a notebook that does not fit, and leaves outputs out on request', async () => {
    const small = await connect(await buildHost([createSpacesExtension({ roots: [SAMPLE_ROOT], maxReadBytes: 2048 })], { strict: true, logger: silentLogger }));
    try {
      const seen: number[] = [];
      let start: number | null = 0;
      while (start !== null) {
        const page = (await small.callTool('read_notebook', { space: 'climate-lab', path: 'sea_level_exploration.ipynb', cells: { start } })).structuredContent as { cells: Array<{ index: number }>; nextCell: number | null };
        seen.push(...page.cells.map((c) => c.index));
        start = page.nextCell;
      }
      expect(seen).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
    } finally {
      await small.close();
    }
    const bare = await call('read_notebook', { space: 'climate-lab', path: 'iris_classifier.ipynb', includeOutputs: false });
    expect(bare.cells.every((c: { outputs?: unknown }) => c.outputs === undefined)).toBe(true);
  });

  it('read_file: pages through a CSV with nextOffset', async () => {
    const first = await call('read_file', { space: 'climate-lab', path: 'data/sea_level.csv', limit: 100 });
    expect(first).toMatchObject({ space: 'climate-lab', path: 'data/sea_level.csv', mimeType: 'text/csv', offset: 0, nextOffset: 100 });
    expect(first.text.startsWith('year,gmsl_mm,gmsl_smoothed_mm\n1993,')).toBe(true);
    let text = first.text;
    let offset: number | null = first.nextOffset;
    while (offset !== null) {
      const page = await call('read_file', { space: 'climate-lab', path: 'data/sea_level.csv', offset, limit: 100 });
      text += page.text;
      offset = page.nextOffset;
    }
    expect(text.length).toBe(first.totalChars);
    expect(text.trimEnd().split('\n')).toHaveLength(32);
  });

  it('search_text: where is run-0142 mentioned?', async () => {
    const { matches } = await call('search_text', { space: 'benchmark-notes', query: 'run-0142', glob: '*.md' });
    expect(matches).toEqual([{ path: 'README.md', line: 5, column: 38, text: expect.stringContaining('compares run-0142 and run-0143') }]);
  });

  it('list_files: a folder, then everything', async () => {
    const top = await call('list_files', { space: 'benchmark-notes' });
    expect(top.entries.map((e: { path: string; type: string }) => `${e.type}:${e.path}`)).toEqual(['file:README.md', 'file:gsm8k-mini-runs.ipynb', 'directory:results']);
    const all = await call('list_files', { space: 'benchmark-notes', path: 'results', recursive: true });
    expect(all.entries.map((e: { path: string }) => e.path)).toEqual(['results/gsm8k-mini_run-0142.jsonl', 'results/gsm8k-mini_run-0143.jsonl']);
    expect(all.entries[0]).toMatchObject({ type: 'file', mimeType: 'application/jsonl' });
  });
});

describe('refusals, as a client reads them', () => {
  it('names the available spaces when one is unknown', async () => {
    expect(await callError('list_files', { space: 'nope' })).toBe('space "nope": not found; expected one of: benchmark-notes, climate-lab, alpha; hint: call list_spaces to see every space');
  });

  it.each([
    ['../benchmark-notes/README.md'],
    ['/etc/passwd'],
    ['link-outside.txt'],
    ['link-dir-outside/secret.txt'],
  ])('refuses %j: path escapes the space', async (path) => {
    expect(await callError('read_file', { space: 'alpha', path })).toMatch(/path escapes the space/);
  });

  it('refuses hidden files', async () => {
    expect(await callError('read_file', { space: 'alpha', path: '.env' })).toMatch(/is hidden/);
  });

  it('refuses a binary file that is no image, pointing at the resource', async () => {
    expect(await callError('read_file', { space: 'alpha', path: 'blob.dat' })).toMatch(/binary file: 6 B application\/octet-stream.*spaces:\/\/alpha\/blob\.dat/);
  });

  it('rejects invalid arguments before the handler runs', async () => {
    const result = await conn.callTool('read_file', { space: 'climate-lab', path: 'README.md', offset: -1 });
    expect(result.isError).toBe(true);
  });
});

describe('the space-file resource template', () => {
  it('is listed with its template', async () => {
    const { resourceTemplates } = await conn.client.listResourceTemplates();
    expect(resourceTemplates).toEqual([expect.objectContaining({ name: 'space-file', uriTemplate: 'spaces://{space}/{+path}' }), expect.objectContaining({ name: 'space', uriTemplate: 'spaces://{space}/' })]);
  });

  it('lists the files of every space', async () => {
    const { resources } = await conn.client.listResources();
    const uris = resources.map((r) => r.uri);
    expect(uris).toContain('spaces://climate-lab/temperature_trends.ipynb');
    expect(uris).toContain('spaces://benchmark-notes/results/gsm8k-mini_run-0142.jsonl');
    expect(uris.some((u) => u.includes('.env') || u.includes('secret'))).toBe(false);
  });

  it('reads a text file as text and a PNG as a blob', async () => {
    const readme = await conn.client.readResource({ uri: 'spaces://climate-lab/README.md' });
    expect(readme.contents[0]).toMatchObject({ uri: 'spaces://climate-lab/README.md', mimeType: 'text/markdown' });
    expect((readme.contents[0] as { text: string }).text.startsWith('# Climate lab')).toBe(true);
    const png = await conn.client.readResource({ uri: 'spaces://climate-lab/figures/temperature_anomaly.png' });
    const blob = Buffer.from((png.contents[0] as { blob: string }).blob, 'base64');
    expect(png.contents[0]?.mimeType).toBe('image/png');
    expect(blob.subarray(1, 4).toString('latin1')).toBe('PNG');
  });

  it('reads the URI list_spaces hands out for a space (spaces://climate-lab/) as its top-level listing', async () => {
    const { spaces } = await call('list_spaces');
    const climate = spaces.find((s) => s.name === 'climate-lab') as { uri?: string } | undefined;
    expect(climate?.uri).toBe('spaces://climate-lab/');
    const read = await conn.client.readResource({ uri: climate!.uri! });
    expect(read.contents[0]).toMatchObject({ uri: 'spaces://climate-lab/', mimeType: 'application/json' });
    const listing = JSON.parse((read.contents[0] as { text: string }).text) as { space: string; entries: Array<{ path: string }> };
    expect(listing.space).toBe('climate-lab');
    expect(listing.entries.map((e) => e.path)).toContain('README.md');
  });

  it('reads a folder as its listing', async () => {
    const folder = await conn.client.readResource({ uri: 'spaces://benchmark-notes/results' });
    const listing = JSON.parse((folder.contents[0] as { text: string }).text);
    expect(listing.entries.map((e: { uri: string }) => e.uri)).toEqual(['spaces://benchmark-notes/results/gsm8k-mini_run-0142.jsonl', 'spaces://benchmark-notes/results/gsm8k-mini_run-0143.jsonl']);
  });

  it('decodes percent-encoding and still refuses an encoded escape', async () => {
    const read = await conn.client.readResource({ uri: 'spaces://climate-lab/data%2Firis.csv' });
    expect((read.contents[0] as { text: string }).text.startsWith('sepal_length')).toBe(true);
    await expect(conn.client.readResource({ uri: 'spaces://alpha/%2e%2e%2f%2e%2e%2foutside/secret.txt' })).rejects.toThrow(/path escapes the space/);
    await expect(conn.client.readResource({ uri: 'spaces://alpha/link-outside.txt' })).rejects.toThrow(/path escapes the space/);
  });

  it('serves a space whose name needs encoding, configured by a record', async () => {
    const named = await connect(await buildHost([createSpacesExtension({ roots: { 'my notes': temp.beta.dir } })], { strict: true, logger: silentLogger }));
    try {
      const { resources } = await named.client.listResources();
      const uris = resources.map((r) => r.uri);
      expect(uris.filter((u) => u.startsWith('spaces://'))).toEqual(['spaces://my%20notes/analysis.ipynb']);
      // read_notebook is served here, so its view is listed beside the files.
      expect(uris).toContain('ui://spaces/notebook');
      const read = await named.client.readResource({ uri: 'spaces://my%20notes/analysis.ipynb' });
      expect(read.contents[0]).toMatchObject({ uri: 'spaces://my%20notes/analysis.ipynb', mimeType: 'application/x-ipynb+json' });
      const nb = (await named.callTool('read_notebook', { space: 'my notes', path: 'analysis.ipynb' })).structuredContent as { title: string };
      expect(nb.title).toBe('Beta analysis');
    } finally {
      await named.close();
    }
  });

  it('completes space names', async () => {
    const result = await conn.client.complete({ ref: { type: 'ref/resource', uri: 'spaces://{space}/{+path}' }, argument: { name: 'space', value: 'cl' } });
    expect(result.completion.values).toEqual(['climate-lab']);
  });
});

describe('the summarize_notebook prompt', () => {
  it('is listed with its two arguments', async () => {
    const { prompts } = await conn.client.listPrompts();
    expect(prompts).toEqual([expect.objectContaining({ name: 'summarize_notebook', arguments: [expect.objectContaining({ name: 'space', required: true }), expect.objectContaining({ name: 'path', required: true })] })]);
  });

  it('embeds the notebook as a transcript with the request to summarise it', async () => {
    const prompt = await conn.client.getPrompt({ name: 'summarize_notebook', arguments: { space: 'benchmark-notes', path: 'gsm8k-mini-runs.ipynb' } });
    expect(prompt.messages).toHaveLength(1);
    const text = (prompt.messages[0]?.content as { text: string }).text;
    expect(text).toMatch(/^Summarise the Jupyter notebook `gsm8k-mini-runs.ipynb` from the space `benchmark-notes` \("gsm8k-mini: run-0142 vs run-0143", 8 cells, python\)/);
    expect(text).toContain('Output (error):\n```\nKeyError: \'failure_kind\'');
  });

  it('completes notebook paths', async () => {
    const result = await conn.client.complete({ ref: { type: 'ref/prompt', name: 'summarize_notebook' }, argument: { name: 'path', value: 'temp' } });
    expect(result.completion.values).toEqual(['temperature_trends.ipynb']);
  });

  it('completes notebook paths of the space the client already chose, walking no other', async () => {
    const complete = async (space: string) => (await conn.client.complete({ ref: { type: 'ref/prompt', name: 'summarize_notebook' }, argument: { name: 'path', value: '' }, context: { arguments: { space } } })).completion.values;
    expect(await complete('benchmark-notes')).toEqual(['gsm8k-mini-runs.ipynb']);
    expect(await complete('climate-lab')).toEqual(['iris_classifier.ipynb', 'sea_level_exploration.ipynb', 'temperature_trends.ipynb']);
    expect(await complete('nope')).toEqual([]);
  });
});

describe('the default export', () => {
  it('is the extension with its defaults, named and versioned from package.json', () => {
    const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
    expect(spacesDefault.manifest).toMatchObject({ name: 'spaces', version: pkg.version });
    expect(pkg.reactorMcp.extensions.spaces.module).toBe('./dist/index.js');
    expect(spacesDefault.toolsets?.()).toEqual([expect.objectContaining({ name: 'spaces', title: 'Spaces', default: true })]);
  });

  it('fails start-up, naming the folder, when a configured root does not exist', async () => {
    await expect(buildHost([createSpacesExtension({ roots: [`${temp.root}/missing`] })], { strict: true, logger: silentLogger })).rejects.toThrow(/missing is not a readable folder/);
  });

  it('refuses invalid options when created', () => {
    expect(() => createSpacesExtension({ maxReadBytes: 0 })).toThrow(/option "maxReadBytes" of extension "spaces": is invalid; expected a whole number of at least 256/);
  });
});
