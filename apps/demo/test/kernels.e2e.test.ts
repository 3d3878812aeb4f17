/**
 * The demo with kernels, end to end: the demo's defaults (REACTOR_JUPYTER=auto)
 * make the kernels extension start a real Jupyter Server on loopback when
 * ?kernels first asks for it; a real MCP client over HTTP opens a sample
 * notebook, runs cells and saves the outputs; stopping the demo stops that
 * server. The sample is copied to a temp folder so saving leaves the repository
 * untouched. Needs Debian's python3-jupyter-server and python3-ipykernel.
 */
import { cpSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningCommand } from '@reactor/host';
import { SAMPLE_ROOT } from '@reactor/ext-spaces';
import { connectClient, runDemoOver } from './helpers/runDemo.js';

let running: RunningCommand;
let work: string;

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), 'reactor-demo-kernels-'));
  cpSync(SAMPLE_ROOT, join(work, 'spaces'), { recursive: true });
  // What main.ts does, plus spaces on the copy.
  running = await runDemoOver({ spaces: join(work, 'spaces'), benchmarks: join(work, 'benchmarks') });
});

afterAll(async () => {
  await running?.close();
  rmSync(work, { recursive: true, force: true });
});

const connect = (query: string) => connectClient(running, query, 'demo-kernels-e2e');

type Result = { isError?: boolean; content: Array<{ type: string; text?: string }>; structuredContent?: Record<string, unknown> };
const text = (r: Result) => r.content.filter((c) => c.type === 'text').map((c) => c.text).join('\n');

describe('the demo with ?kernels', () => {
  it('holds kernels until asked, then serves its tools from an embedded Jupyter Server', async () => {
    const before = (await (await fetch(new URL('/healthz', running.url))).json()) as { extensions: Record<string, { state: string }> };
    expect(before.extensions['kernels']?.state).toBe('held');
    const client = await connect('?kernels');
    const names = (await client.listTools()).tools.map((t) => t.name);
    expect(names).toEqual(expect.arrayContaining(['open_notebook', 'execute_cell', 'execute_code', 'get_execution', 'list_spaces', 'read_notebook']));
    const after = (await (await fetch(new URL('/healthz', running.url))).json()) as { ok: boolean; extensions: Record<string, { state: string; started: boolean; unavailable?: unknown }> };
    expect(after.extensions['kernels']).toMatchObject({ state: 'active', started: true });
    expect(after.extensions['kernels']).not.toHaveProperty('unavailable');
    await client.close();
  });

  it('opens a sample notebook, runs code and a cell, and saves the cell\'s outputs into the notebook', async () => {
    const client = await connect('?kernels');
    const opened = (await client.callTool({ name: 'open_notebook', arguments: { space: 'climate-lab', path: 'temperature_trends.ipynb' } })) as Result;
    expect(opened.isError, text(opened)).toBeFalsy();
    const cells = (opened.structuredContent as { cells: Array<{ id: string; type: string }> }).cells;
    const firstCode = cells.find((c) => c.type === 'code')!;
    const scratch = (await client.callTool({ name: 'execute_code', arguments: { space: 'climate-lab', path: 'temperature_trends.ipynb', code: 'import os\nprint(sorted(os.listdir("data")))' } })) as Result;
    expect(text(scratch)).toContain("'global_temperatures.csv'");
    const ran = (await client.callTool({ name: 'execute_cell', arguments: { space: 'climate-lab', path: 'temperature_trends.ipynb', cell_id: firstCode.id, save: true } })) as Result;
    expect(ran.isError, text(ran)).toBeFalsy();
    expect(ran.structuredContent).toMatchObject({ saved: true, cell_id: firstCode.id });
    const saved = JSON.parse(readFileSync(join(work, 'spaces', 'climate-lab', 'temperature_trends.ipynb'), 'utf8')) as { cells: Array<{ id: string; execution_count: number | null }> };
    expect(saved.cells.find((c) => c.id === firstCode.id)?.execution_count).toBe((ran.structuredContent as { execution_count: number }).execution_count);
    await client.close();
  });
});
