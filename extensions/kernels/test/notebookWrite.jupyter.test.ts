/**
 * Writing notebooks against a real Jupyter Server: `insert_cell`,
 * `overwrite_cell_source` and `delete_cell` address cells by id, change the
 * file only while it is the version the caller last read — a person saving
 * the notebook in between (here through Jupyter's Contents API, as
 * JupyterLab does) refuses the change and writes nothing — and leave no
 * temporary file behind. Read-only mode and clients without `?kernels` never
 * see them.
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createSpacesExtension } from '@reactor/ext-spaces';
import { buildHost, silentLogger, type CallToolResult, type McpHost } from '@reactor/host';
import { connect, type TestConnection } from '@reactor/host/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createKernelsExtension, type JupyterServerProcess } from '../src/index.js';
import { copyLab, startLabJupyter, type LabCopy } from './helpers/lab.js';

const WRITERS = ['insert_cell', 'overwrite_cell_source', 'delete_cell'];

let lab: LabCopy;
let jupyter: JupyterServerProcess;
let host: McpHost;
let conn: TestConnection;

beforeAll(async () => {
  lab = copyLab();
  jupyter = await startLabJupyter(lab.root);
  const kernels = createKernelsExtension({ jupyter: { url: jupyter.url, token: jupyter.token, rootDir: lab.root }, spaces: { roots: [lab.root] }, logger: silentLogger });
  host = await buildHost([createSpacesExtension({ roots: [lab.root] }), kernels], { strict: true, logger: silentLogger });
  conn = await connect(host, { selection: 'kernels' });
}, 90_000);

afterAll(async () => {
  await conn?.close();
  await host?.stop();
  await jupyter?.stop();
  lab?.remove();
});

type Cell = { id?: string; cell_type: string; source: string | string[]; outputs?: unknown[]; execution_count?: number | null };
const texts = (result: CallToolResult) => result.content.filter((c) => c.type === 'text').map((c) => (c as { text: string }).text).join('\n');
async function call(name: string, args: Record<string, unknown>, on: TestConnection = conn): Promise<CallToolResult> {
  const result = await on.callTool(name, args);
  expect(result.isError, texts(result).slice(0, 500)).toBeFalsy();
  return result;
}
const onDisk = (name: string) => JSON.parse(readFileSync(join(lab.lab, name), 'utf8')) as { nbformat_minor: number; cells: Cell[] };
const joined = (cell: Cell | undefined) => (Array.isArray(cell?.source) ? cell.source.join('') : cell?.source);

/** A notebook of its own for each test, so they do not depend on each other. */
function notebook(name: string, cells: Cell[], minor = 5): void {
  writeFileSync(join(lab.lab, name), JSON.stringify({ nbformat: 4, nbformat_minor: minor, metadata: { kernelspec: { name: 'python3', display_name: 'Python 3' } }, cells }));
}
const code = (id: string | undefined, source: string): Cell => ({ ...(id !== undefined ? { id } : {}), cell_type: 'code', metadata: {}, source, execution_count: null, outputs: [] } as Cell);

/** Saves the notebook as JupyterLab does: a PUT of the whole model to Jupyter's Contents API. */
async function personSaves(name: string, edit: (nb: { cells: Cell[] }) => void): Promise<void> {
  const url = new URL(`api/contents/lab/${name}`, jupyter.url);
  const headers = { authorization: `token ${jupyter.token}`, 'content-type': 'application/json' };
  const model = (await (await fetch(url, { headers })).json()) as { content: { cells: Cell[] } };
  edit(model.content);
  const saved = await fetch(url, { method: 'PUT', headers, body: JSON.stringify({ type: 'notebook', format: 'json', content: model.content }) });
  expect(saved.status).toBe(200);
}

describe('writing notebooks on a real Jupyter Server', () => {
  it('offers the three writing tools only with ?kernels, annotated as writes, and leaves them out in read-only mode', async () => {
    const { tools } = await conn.client.listTools();
    const byName = new Map(tools.map((t) => [t.name, t]));
    for (const name of WRITERS) expect(byName.get(name)?.annotations?.readOnlyHint, name).toBe(false);
    expect(byName.get('insert_cell')?.annotations?.destructiveHint).toBe(false);
    expect(byName.get('overwrite_cell_source')?.annotations?.destructiveHint).toBe(true);
    expect(byName.get('delete_cell')?.annotations?.destructiveHint).toBe(true);

    const readOnly = await connect(host, { selection: 'kernels', readOnly: true });
    const plain = await connect(host, { selection: '' });
    try {
      const readOnlyNames = await readOnly.toolNames();
      expect(readOnlyNames).toContain('list_kernels');
      expect(readOnlyNames.filter((n) => WRITERS.includes(n))).toEqual([]);
      expect((await plain.toolNames()).filter((n) => WRITERS.includes(n))).toEqual([]);
    } finally {
      await readOnly.close();
      await plain.close();
    }
  });

  it('inserts, overwrites and deletes cells by id on the version read, and the new cell runs', async () => {
    notebook('w1.ipynb', [code('first', 'x = 1'), code('last', 'print(x)')]);
    await call('read_notebook', { space: 'lab', path: 'w1.ipynb' });

    const inserted = (await call('insert_cell', { space: 'lab', path: 'w1.ipynb', after_cell_id: 'first', source: 'x = x + 41\nprint(x)' })).structuredContent as { cell_id: string; index: number; cells: number };
    expect(inserted).toMatchObject({ index: 1, cells: 3, cell_type: 'code' });
    expect(inserted.cell_id).toMatch(/^[0-9a-f]{8}$/);
    let file = onDisk('w1.ipynb');
    expect(file.cells.map((c) => c.id)).toEqual(['first', inserted.cell_id, 'last']);
    // Written as nbformat writes it: sorted keys, indent 1, source as lines.
    expect(file.cells[1]).toEqual({ cell_type: 'code', execution_count: null, id: inserted.cell_id, metadata: {}, outputs: [], source: ['x = x + 41\n', 'print(x)'] });
    expect(readFileSync(join(lab.lab, 'w1.ipynb'), 'utf8')).toMatch(/^\{\n "cells": \[/);

    // Its own writes do not make what it read stale: the next changes need no new read.
    const top = (await call('insert_cell', { space: 'lab', path: 'w1.ipynb', before_cell_id: 'first', cell_type: 'markdown', source: '# Title' })).structuredContent as { cell_id: string; index: number };
    expect(top.index).toBe(0);
    await call('execute_cell', { space: 'lab', path: 'w1.ipynb', cell_id: 'first' });
    const ran = await call('execute_cell', { space: 'lab', path: 'w1.ipynb', cell_id: inserted.cell_id, save: true });
    expect(texts(ran)).toContain('42');
    expect(onDisk('w1.ipynb').cells[2]?.outputs).toHaveLength(1);

    const overwritten = (await call('overwrite_cell_source', { space: 'lab', path: 'w1.ipynb', cell_id: inserted.cell_id, source: 'print("rewritten")' })).structuredContent;
    expect(overwritten).toMatchObject({ cell_id: inserted.cell_id, index: 2, outputs_cleared: 1 });
    file = onDisk('w1.ipynb');
    expect(joined(file.cells[2])).toBe('print("rewritten")');
    expect(file.cells[2]).toMatchObject({ outputs: [], execution_count: null });

    const deleted = (await call('delete_cell', { space: 'lab', path: 'w1.ipynb', cell_id: 'last' })).structuredContent;
    expect(deleted).toMatchObject({ cell_id: 'last', index: 3, cells: 3, deleted_source: 'print(x)', deleted_source_truncated: false });
    file = onDisk('w1.ipynb');
    expect(file.cells.map((c) => c.id)).toEqual([top.cell_id, 'first', inserted.cell_id]);
    // Replaced by rename: no temporary file is left next to it.
    expect(readdirSync(lab.lab).filter((f) => f.endsWith('.tmp'))).toEqual([]);

    const missing = await conn.callTool('delete_cell', { space: 'lab', path: 'w1.ipynb', cell_id: 'last' });
    expect(missing.isError).toBe(true);
    expect(texts(missing)).toContain('has no cell "last"');
  });

  it('refuses a change when a person saved the notebook since it was read, writing nothing, and makes it after a new read', async () => {
    notebook('w2.ipynb', [code('a', 'a = 1'), code('b', 'b = 2')]);
    await call('read_notebook', { space: 'lab', path: 'w2.ipynb' });
    await personSaves('w2.ipynb', (nb) => {
      nb.cells[0]!.source = 'a = "the person\'s edit"';
    });
    const before = readFileSync(join(lab.lab, 'w2.ipynb'), 'utf8');
    for (const [name, args] of [
      ['insert_cell', { source: 'c = 3' }],
      ['overwrite_cell_source', { cell_id: 'a', source: 'a = "the model\'s edit"' }],
      ['delete_cell', { cell_id: 'b' }],
    ] as const) {
      const refused = await conn.callTool(name, { space: 'lab', path: 'w2.ipynb', ...args });
      expect(refused.isError, name).toBe(true);
      expect(texts(refused)).toContain('changed since you last read it');
      expect(texts(refused)).toContain('nothing was written');
      expect(texts(refused)).toContain('read it again with read_notebook');
    }
    expect(readFileSync(join(lab.lab, 'w2.ipynb'), 'utf8')).toBe(before);

    await call('read_notebook', { space: 'lab', path: 'w2.ipynb' });
    await call('overwrite_cell_source', { space: 'lab', path: 'w2.ipynb', cell_id: 'b', source: 'b = 3' });
    expect(onDisk('w2.ipynb').cells.map(joined)).toEqual(['a = "the person\'s edit"', 'b = 3']);
  });

  it('refuses a change to a notebook this session never read, and counts open_notebook as a read', async () => {
    notebook('w3.ipynb', [code('only', 'pass')]);
    const other = await connect(host, { selection: 'kernels' });
    try {
      const before = readFileSync(join(lab.lab, 'w3.ipynb'), 'utf8');
      const refused = await other.callTool('insert_cell', { space: 'lab', path: 'w3.ipynb', source: 'pass' });
      expect(refused.isError).toBe(true);
      expect(texts(refused)).toContain('has not been read in this session');
      expect(readFileSync(join(lab.lab, 'w3.ipynb'), 'utf8')).toBe(before);
      await call('open_notebook', { space: 'lab', path: 'w3.ipynb' }, other);
      await call('insert_cell', { space: 'lab', path: 'w3.ipynb', source: 'print("appended")' }, other);
      expect(onDisk('w3.ipynb').cells.map(joined)).toEqual(['pass', 'print("appended")']);
    } finally {
      await other.close();
    }
  });

  it('addresses the cells of a notebook without ids by position, and says that later ones were renumbered', async () => {
    notebook('w4.ipynb', [code(undefined, 'one'), code(undefined, 'two')], 4);
    await call('read_notebook', { space: 'lab', path: 'w4.ipynb' });
    const inserted = await call('insert_cell', { space: 'lab', path: 'w4.ipynb', after_cell_id: '#0', source: 'between' });
    expect(inserted.structuredContent).toMatchObject({ cell_id: '#1', index: 1, note: expect.stringContaining('renumbered') });
    const file = onDisk('w4.ipynb');
    expect(file.cells.map(joined)).toEqual(['one', 'between', 'two']);
    expect(file.cells.every((c) => c.id === undefined)).toBe(true);
    await call('delete_cell', { space: 'lab', path: 'w4.ipynb', cell_id: '#2' });
    expect(onDisk('w4.ipynb').cells.map(joined)).toEqual(['one', 'between']);
  });
});
