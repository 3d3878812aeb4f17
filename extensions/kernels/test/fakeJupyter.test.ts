/**
 * The unit layer: the tools, the real `@jupyterlab/services` client and this
 * extension's bookkeeping against a fake Jupyter Server (test/helpers/fakeJupyter.ts),
 * so the suite stays meaningful where Python is absent. Where the token
 * travels, bounds, culled kernels and save conflicts are easiest to see here.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createSpacesExtension } from '@reactor/ext-spaces';
import { buildHost, defineExtension, silentLogger, type CallToolResult, type McpExtension, type McpHost } from '@reactor/host';
import { connect, type TestConnection } from '@reactor/host/testing';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createKernelsExtension, type KernelsLimits } from '../src/index.js';
import { startFakeJupyter, type FakeJupyter } from './helpers/fakeJupyter.js';
import { copyLab, type LabCopy } from './helpers/lab.js';

let lab: LabCopy;
let fake: FakeJupyter;
let host: McpHost | undefined;
const open: TestConnection[] = [];

beforeEach(async () => {
  lab = copyLab();
  const files: Record<string, unknown> = {};
  for (const name of ['basics.ipynb', 'edits.ipynb', 'alpha.ipynb', 'beta.ipynb']) files[`lab/${name}`] = JSON.parse(readFileSync(join(lab.lab, name), 'utf8'));
  fake = await startFakeJupyter(files);
});
afterEach(async () => {
  for (const conn of open.splice(0)) await conn.close();
  await host?.stop();
  host = undefined;
  await fake.close();
  lab.remove();
});

async function serve(limits: Partial<KernelsLimits> = {}, kernelspecs?: string[], extra: McpExtension[] = []): Promise<TestConnection> {
  const kernels = createKernelsExtension({ jupyter: { url: fake.url, token: fake.token, rootDir: lab.root }, spaces: { roots: [lab.root] }, limits, logger: silentLogger, ...(kernelspecs ? { kernelspecs } : {}) });
  host = await buildHost([createSpacesExtension({ roots: [lab.root] }), kernels, ...extra], { strict: true, logger: silentLogger });
  return await another();
}
async function another(tenant?: string): Promise<TestConnection> {
  const conn = await connect(host!, { selection: 'kernels', ...(tenant !== undefined ? { tenant } : {}) });
  open.push(conn);
  return conn;
}
const text = (r: CallToolResult) => r.content.filter((c) => c.type === 'text').map((c) => (c as { text: string }).text).join('\n');
const ok = (r: CallToolResult) => {
  expect(r.isError, text(r)).toBeFalsy();
  return r.structuredContent as Record<string, unknown>;
};

describe('against a fake Jupyter Server', () => {
  it('sends the token only in headers: every REST request and the kernel WebSocket, never in a URL', async () => {
    const conn = await serve();
    ok(await conn.callTool('execute_cell', { space: 'lab', path: 'basics.ipynb', cell_id: 'hello' }));
    expect(fake.requests.some((r) => r.upgrade)).toBe(true);
    for (const request of fake.requests) {
      expect(request.authorized, `${request.method} ${request.url}`).toBe(true);
      expect(request.url).not.toContain(fake.token);
      expect(request.url).not.toContain('token=');
    }
  });

  it('runs a cell, returning its stream and execution count, and marks the kernel as started by us', async () => {
    const conn = await serve();
    const result = await conn.callTool('execute_cell', { space: 'lab', path: 'basics.ipynb', cell_id: 'hello' });
    expect(ok(result)).toMatchObject({ status: 'ok', execution_count: 1, cell_id: 'hello', space: 'lab', path: 'basics.ipynb' });
    expect(text(result)).toContain('hello from the kernel');
    const listed = ok(await conn.callTool('list_kernels', {})) as { kernels: Array<{ notebook: unknown; started_by_us: boolean; kernelspec: string }> };
    expect(listed.kernels).toEqual([expect.objectContaining({ notebook: { space: 'lab', path: 'basics.ipynb' }, started_by_us: true, kernelspec: 'python3' })]);
  });

  it('lists only allowed kernelspecs, and refuses to start one that is not allowed', async () => {
    const conn = await serve();
    expect(ok(await conn.callTool('list_kernelspecs', {}))).toEqual({ kernelspecs: [{ name: 'python3', display_name: 'Fake Python', language: 'python', default: true }] });
    const refused = await conn.callTool('open_notebook', { space: 'lab', path: 'basics.ipynb', kernelspec: 'ir' });
    expect(refused.isError).toBe(true);
    expect(text(refused)).toContain('kernelspec "ir": is not allowed on this server');
  });

  it('interrupts a run past its limit and keeps it readable by execution_id', async () => {
    const conn = await serve();
    const result = await conn.callTool('execute_code', { space: 'lab', path: 'basics.ipynb', code: 'print("before")\nsleep', timeout_s: 0.2 });
    const run = ok(result) as { status: string; execution_id: string; note: string };
    expect(run.status).toBe('interrupted');
    expect(run.note).toContain('passed its 0.2 s limit');
    expect(text(result)).toContain('before');
    expect(text(result)).toContain('KeyboardInterrupt');
    expect(ok(await conn.callTool('get_execution', { execution_id: run.execution_id }))).toMatchObject({ status: 'interrupted', execution_id: run.execution_id });
  });

  it('sends progress notifications while a run goes, when the client asks for them', async () => {
    const conn = await serve();
    const progress: Array<{ progress: number; message?: string }> = [];
    const result = await conn.client.callTool(
      { name: 'execute_code', arguments: { space: 'lab', path: 'basics.ipynb', code: 'print("first")\nsleep', timeout_s: 0.5 } },
      { onprogress: (p) => progress.push({ progress: p.progress, ...(p.message !== undefined ? { message: p.message } : {}) }) },
    );
    expect(result.isError).toBeFalsy();
    expect(progress[0]).toEqual({ progress: 1, message: '1 output so far' });
  });

  it('runs as a task: says how the run goes through ctx.task, and a cancelled task interrupts the kernel', async () => {
    const statuses: string[] = [];
    const cancel = new AbortController();
    // What the host hands a handler that runs as a task: ctx.task, and a ctx.signal that tasks/cancel aborts.
    // Here the task is cancelled as soon as its status says the run printed.
    const asTask = defineExtension({
      manifest: { name: 'as-task', version: '1.0.0' },
      toolExtensions: () => [['execute_code', { wrap: (original) => (args, ctx) => original(args, { ...ctx, signal: cancel.signal, task: { taskId: 'task-1', status: (message: string) => (statuses.push(message), cancel.abort()) } }) }]],
    });
    const conn = await serve({}, undefined, [asTask]);
    const result = await conn.callTool('execute_code', { space: 'lab', path: 'basics.ipynb', code: 'print("first")\nsleep', timeout_s: 10 });
    expect(statuses[0]).toBe('1 output so far');
    expect(ok(result)).toMatchObject({ status: 'interrupted', note: 'The call was cancelled, so the kernel was interrupted.' });
    expect(text(result)).toContain('KeyboardInterrupt');
    expect(fake.requests.filter((r) => r.method === 'POST' && /^\/api\/kernels\/[^/]+\/interrupt\b/.test(r.url))).toHaveLength(1);
  });

  it('answers an unknown execution_id with a clear error', async () => {
    const conn = await serve();
    const result = await conn.callTool('get_execution', { execution_id: 'nope' });
    expect(result.isError).toBe(true);
    expect(text(result)).toContain('execution "nope": is not known');
  });

  it('refuses a cell id that does not exist, naming the ones that do, and markdown cells', async () => {
    const conn = await serve();
    const missing = await conn.callTool('execute_cell', { space: 'lab', path: 'basics.ipynb', cell_id: 'nope' });
    expect(text(missing)).toContain('has no cell "nope"; expected one of "intro", "hello"');
    const markdown = await conn.callTool('execute_cell', { space: 'lab', path: 'basics.ipynb', cell_id: 'intro' });
    expect(text(markdown)).toContain('is a markdown cell, not a code cell');
  });

  it('saves outputs when the file is unchanged, and refuses (writing nothing) when another editor saved meanwhile', async () => {
    const conn = await serve();
    const saved = ok(await conn.callTool('execute_cell', { space: 'lab', path: 'edits.ipynb', cell_id: 'save-me', save: true }));
    expect(saved).toMatchObject({ saved: true });
    // Written into the notebook file itself (atomically, next to it), which the Jupyter Server serves.
    const onDisk = () => JSON.parse(readFileSync(join(lab.lab, 'edits.ipynb'), 'utf8')) as { cells: Array<{ id: string; outputs: unknown[]; execution_count: number }> };
    expect(onDisk().cells[0]).toMatchObject({ id: 'save-me', execution_count: saved.execution_count, outputs: [{ output_type: 'stream', name: 'stdout', text: ['saved output\n'] }] });
    // The cell's run stands for another editor saving the notebook while it runs.
    const cells = (fake.files.get('lab/edits.ipynb')!.content as { cells: Array<{ source: string }> }).cells;
    cells[1]!.source = 'touch lab/edits.ipynb';
    const refused = await conn.callTool('execute_cell', { space: 'lab', path: 'edits.ipynb', cell_id: 'touch-self', save: true });
    expect(refused.isError).toBe(true);
    expect(text(refused)).toContain('changed while the cell ran, so its outputs were NOT saved (nothing was overwritten)');
    expect(onDisk().cells[1]!.outputs).toEqual([]);
  });

  it('bounds the kernels one session may start', async () => {
    const conn = await serve({ maxKernelsPerSession: 1 });
    ok(await conn.callTool('open_notebook', { space: 'lab', path: 'alpha.ipynb' }));
    const second = await conn.callTool('open_notebook', { space: 'lab', path: 'beta.ipynb' });
    expect(second.isError).toBe(true);
    expect(text(second)).toContain('this session already started 1 (the most one session may)');
    ok(await conn.callTool('shutdown_kernel', { space: 'lab', path: 'alpha.ipynb' }));
    expect(ok(await conn.callTool('open_notebook', { space: 'lab', path: 'beta.ipynb' }))).toMatchObject({ opened: 'started' });
  });

  it('joins the kernel someone else has open instead of starting another', async () => {
    const conn = await serve();
    // Someone (a person in JupyterLab) started a session for the notebook.
    const response = await fetch(new URL('api/sessions', fake.url), { method: 'POST', headers: { Authorization: `token ${fake.token}` }, body: JSON.stringify({ path: 'lab/alpha.ipynb', name: 'alpha.ipynb', type: 'notebook', kernel: { name: 'python3' } }) });
    const theirs = (await response.json()) as { kernel: { id: string } };
    expect(ok(await conn.callTool('open_notebook', { space: 'lab', path: 'alpha.ipynb' }))).toMatchObject({ opened: 'joined', kernel_id: theirs.kernel.id });
    const listed = ok(await conn.callTool('list_kernels', {})) as { kernels: Array<{ id: string; started_by_us: boolean }> };
    expect(listed.kernels).toEqual([expect.objectContaining({ id: theirs.kernel.id, started_by_us: false })]);
  });

  it('gives each owner (here: tenant) kernels and runs of its own, and never names another\'s', async () => {
    await serve({ maxKernelsPerSession: 1 });
    const [acme, globex] = [await another('acme'), await another('globex')];
    const notebook = { space: 'lab', path: 'alpha.ipynb' };
    const acmeRun = ok(await acme.callTool('execute_code', { ...notebook, code: 'print("acme")' })) as { execution_id: string };
    const acmeKernel = (ok(await acme.callTool('open_notebook', notebook)) as { kernel_id: string }).kernel_id;
    // The same notebook, another owner: a kernel of its own, in a Jupyter session of its own.
    const globexOpened = ok(await globex.callTool('open_notebook', notebook)) as { kernel_id: string; opened: string };
    expect(globexOpened.opened).toBe('started');
    expect(globexOpened.kernel_id).not.toBe(acmeKernel);
    expect(fake.kernels.size).toBe(2);
    const sessions = (await (await fetch(new URL('api/sessions', fake.url), { headers: { Authorization: `token ${fake.token}` } })).json()) as Array<{ path: string }>;
    expect(sessions.map((x) => x.path)).toEqual([expect.stringMatching(/^lab\/alpha\.ipynb#reactor-[0-9a-f]{16}$/), expect.stringMatching(/^lab\/alpha\.ipynb#reactor-[0-9a-f]{16}$/)]);
    // Nothing of acme's reaches globex: its run, its kernel in the listing, its notebooks in the bound's message.
    const read = await globex.callTool('get_execution', { execution_id: acmeRun.execution_id });
    expect(read.isError).toBe(true);
    expect(text(read)).toContain('is not known');
    expect((ok(await globex.callTool('list_kernels', {})) as { kernels: Array<{ id: string; notebook: unknown }> }).kernels).toEqual([expect.objectContaining({ id: globexOpened.kernel_id, notebook: notebook })]);
    const bound = await globex.callTool('open_notebook', { space: 'lab', path: 'beta.ipynb' });
    expect(bound.isError).toBe(true);
    expect(text(bound)).toContain('this session already started 1');
    expect(ok(await acme.callTool('get_execution', { execution_id: acmeRun.execution_id }))).toMatchObject({ status: 'ok' });
    // Without a tenant or a token, the caller is the shared owner: the notebook's own session, which neither tenant holds.
    const shared = await another();
    expect(ok(await shared.callTool('open_notebook', notebook))).toMatchObject({ opened: 'started' });
    expect((ok(await shared.callTool('list_kernels', {})) as { kernels: unknown[] }).kernels).toHaveLength(1);
  });

  it('notices a culled kernel on the next call and starts another, saying its state is gone', async () => {
    const conn = await serve();
    const first = ok(await conn.callTool('open_notebook', { space: 'lab', path: 'alpha.ipynb' })) as { kernel_id: string };
    fake.cull(first.kernel_id);
    const again = ok(await conn.callTool('open_notebook', { space: 'lab', path: 'alpha.ipynb' })) as { kernel_id: string; opened: string; note: string };
    expect(again.kernel_id).not.toBe(first.kernel_id);
    expect(again.opened).toBe('started');
    expect(again.note).toMatch(/gone .*variables and imports are lost/);
  });

  it('says clearly when the token is refused', async () => {
    const kernels = createKernelsExtension({ jupyter: { url: fake.url, token: 'wrong', rootDir: lab.root }, spaces: { roots: [lab.root] }, logger: silentLogger });
    host = await buildHost([createSpacesExtension({ roots: [lab.root] }), kernels], { strict: true, logger: silentLogger });
    const conn = await another();
    const result = await conn.callTool('list_kernels', {});
    expect(result.isError).toBe(true);
    expect(text(result)).toContain('refused to list its kernels (403): the token was not accepted');
    expect(text(result)).not.toContain('wrong');
  });
});
