/**
 * The demo end to end: the same command main.ts runs, discovering the two
 * extensions from this app's package.json, served over real HTTP on
 * 127.0.0.1, and a real MCP client asking it real questions about the sample data.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningCommand } from '@reactor/host';
import { connectClient, runDemo } from './helpers/runDemo.js';

let running: RunningCommand;
let dataDir: string;

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'reactor-demo-'));
  running = await runDemo({ REACTOR_BENCHMARKS_DATA: dataDir });
});

afterAll(async () => {
  await running?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

const connect = (query: string) => connectClient(running, query, 'demo-e2e');

const structured = <T>(result: unknown) => (result as { structuredContent: T }).structuredContent;

describe('the demo', () => {
  it('serves spaces by default and holds benchmarks until a URL asks for it', async () => {
    const health = (await (await fetch(new URL('/healthz', running.url))).json()) as { ok: boolean; extensions: Record<string, { state: string }> };
    expect(health.ok).toBe(true);
    expect(health.extensions['benchmarks']?.state).toBe('held');
    const client = await connect('');
    const names = (await client.listTools()).tools.map((t) => t.name);
    expect(names).toEqual(expect.arrayContaining(['list_spaces', 'read_file', 'find_notebooks', 'list_server_toolsets']));
    expect(names).not.toContain('best_run');
    expect(client.getInstructions()).toContain('Reactor MCP demo.');
    await client.close();
  });

  it('answers which notebook mentions a given dataset', async () => {
    const client = await connect('');
    const found = structured<{ notebooks: Array<{ space: string; path: string }> }>(await client.callTool({ name: 'find_notebooks', arguments: { query: 'global_temperatures.csv' } }));
    expect(found.notebooks.map((n) => `${n.space}/${n.path}`)).toEqual(['climate-lab/temperature_trends.ipynb']);
    await client.close();
  });

  it('with ?benchmarks: the best run of a benchmark and how it differs from the worst', async () => {
    const client = await connect('?benchmarks');
    const answer = structured<{ best: { id: string; score: number }; worst: { id: string; score: number }; difference: { scoreDelta?: number; flipped?: unknown } }>(
      await client.callTool({ name: 'best_run', arguments: { benchmark: 'gsm8k-mini' } }),
    );
    expect(answer.best.score).toBeGreaterThan(answer.worst.score);
    expect(answer.best.id).not.toBe(answer.worst.id);
    expect(answer.difference).toBeTruthy();
    const described = (await (await fetch(new URL('/toolsets?benchmarks', running.url))).json()) as { active: string[]; tools: string[] };
    expect(described.active).toEqual(expect.arrayContaining(['benchmarks', 'spaces']));
    expect(described.tools).toContain('best_run');
    await client.close();
  });

  it('benchmarks annotates spaces\' read_file for benchmark artefacts (an extension of another package\'s tool)', async () => {
    const client = await connect('?benchmarks');
    const files = structured<{ entries: Array<{ path: string }> }>(await client.callTool({ name: 'list_files', arguments: { space: 'benchmark-notes', path: 'results' } }));
    const artefact = files.entries.map((e) => e.path).find((p) => p.endsWith('.jsonl'));
    expect(artefact).toBeDefined();
    const read = structured<{ text: string; benchmark?: { runs: Array<{ id: string; benchmark: string }>; benchmarks: string[] } }>(
      await client.callTool({ name: 'read_file', arguments: { space: 'benchmark-notes', path: artefact! } }),
    );
    // The annotation names the runs the file contains, each of them one the database knows.
    const named = [...read.text.matchAll(/"(?:id|run|run_id)"\s*:\s*"(run-\d+)"/g)].map((m) => m[1]);
    expect(named.length).toBeGreaterThan(0);
    expect(read.benchmark?.runs.map((r) => r.id)).toEqual(expect.arrayContaining([...new Set(named)]));
    expect(read.benchmark?.benchmarks.length).toBeGreaterThan(0);
    await client.close();
    // Where the benchmarks toolset is not active, read_file is spaces' own: it points at no benchmarks tool.
    const plain = await connect('');
    const description = (await plain.listTools()).tools.find((t) => t.name === 'read_file')?.description ?? '';
    expect(description).not.toMatch(/get_run|compare_runs|best_run/);
    await plain.close();
  });

  it('with ?everything: the adopted MCP reference server, held until asked for, answering echo and get-sum', async () => {
    const health = (await (await fetch(new URL('/healthz', running.url))).json()) as { extensions: Record<string, { state: string }> };
    expect(health.extensions['everything']?.state).toBe('held');
    const client = await connect('?everything');
    const names = (await client.listTools()).tools.map((t) => t.name);
    expect(names).toEqual(expect.arrayContaining(['echo', 'get-sum', 'list_spaces']));
    expect(await client.callTool({ name: 'echo', arguments: { message: 'adopted' } })).toMatchObject({ content: [{ type: 'text', text: 'Echo: adopted' }] });
    expect(await client.callTool({ name: 'get-sum', arguments: { a: 1, b: 2 } })).toMatchObject({ content: [{ type: 'text', text: 'The sum of 1 and 2 is 3.' }] });
    await client.close();
    const plain = await connect('');
    expect((await plain.listTools()).tools.map((t) => t.name)).not.toContain('echo');
    await plain.close();
  });
});
