/**
 * The kernels toolset against a real Jupyter Server (one for the whole file,
 * on a copy of the `lab` space): every case of issue 13 — output, errors,
 * time limits, caps, images, stdin, restarts, saving, two clients, and a
 * server that dies.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createSpacesExtension } from '@reactor/ext-spaces';
import { buildHost, silentLogger, type CallToolResult, type McpHost } from '@reactor/host';
import { connect, type TestConnection } from '@reactor/host/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createKernelsExtension, KERNELS_TOOL_NAMES, type JupyterServerProcess, type KernelsExtension } from '../src/index.js';
import { copyLab, startLabJupyter, type LabCopy } from './helpers/lab.js';

let lab: LabCopy;
let jupyter: JupyterServerProcess;
let host: McpHost;
let kernels: KernelsExtension;
let conn: TestConnection;

beforeAll(async () => {
  lab = copyLab();
  jupyter = await startLabJupyter(lab.root);
  kernels = createKernelsExtension({
    jupyter: { url: jupyter.url, token: jupyter.token, rootDir: lab.root },
    spaces: { roots: [lab.root] },
    limits: { maxTextBytes: 4096 },
    logger: silentLogger,
  });
  host = await buildHost([createSpacesExtension({ roots: [lab.root] }), kernels], { strict: true, logger: silentLogger });
  conn = await connect(host, { selection: 'kernels' });
}, 90_000);

afterAll(async () => {
  await conn?.close();
  await host?.stop();
  await jupyter?.stop();
  lab?.remove();
});

type Run = { execution_id: string; status: string; execution_count: number | null; saved?: boolean; truncated_bytes: number; note?: string; outputs: number };

async function call(name: string, args: Record<string, unknown>, on: TestConnection = conn): Promise<CallToolResult> {
  const result = await on.callTool(name, args);
  expect(result.isError, JSON.stringify(result.content).slice(0, 500)).toBeFalsy();
  return result;
}
const texts = (result: CallToolResult) => result.content.filter((c) => c.type === 'text').map((c) => (c as { text: string }).text).join('\n');
const run = (result: CallToolResult) => result.structuredContent as Run;
const cell = (cell_id: string, extra: Record<string, unknown> = {}) => ({ space: 'lab', path: 'basics.ipynb', cell_id, ...extra });

describe('the kernels toolset on a real Jupyter Server', () => {
  it('offers its tools once ?kernels wakes it, after spaces', async () => {
    const names = await conn.toolNames();
    expect(names).toEqual(expect.arrayContaining([...KERNELS_TOOL_NAMES, 'read_notebook']));
    expect(host.report().extensions.map((e) => [e.name, e.state])).toEqual([['spaces', 'active'], ['kernels', 'active']]);
  });

  it('lists only the allowed kernelspecs', async () => {
    const result = await call('list_kernelspecs', {});
    expect(result.structuredContent).toEqual({ kernelspecs: [expect.objectContaining({ name: 'python3', language: 'python', default: true })] });
  });

  it('opens a notebook idempotently, listing its cells by id', async () => {
    const first = (await call('open_notebook', { space: 'lab', path: 'basics.ipynb' })).structuredContent as { kernel_id: string; opened: string; cells: Array<{ id: string; type: string }> };
    expect(first.opened).toBe('started');
    expect(first.cells.map((c) => c.id)).toEqual(['intro', 'hello', 'boom', 'slow', 'huge', 'picture', 'ask', 'remember', 'recall']);
    const again = (await call('open_notebook', { space: 'lab', path: 'basics.ipynb' })).structuredContent as { kernel_id: string; opened: string };
    expect(again).toMatchObject({ kernel_id: first.kernel_id, opened: 'already-open' });
  });

  it('runs print and 1+1: the stream, the result and the execution count', async () => {
    const result = await call('execute_cell', cell('hello'));
    expect(run(result)).toMatchObject({ status: 'ok', cell_id: 'hello', outputs: 2 });
    expect(run(result).execution_count).toBeGreaterThan(0);
    expect(texts(result)).toContain('hello from the kernel\n2');
  });

  it('returns an exception with the last frames of its traceback, ANSI stripped', async () => {
    const result = await call('execute_cell', cell('boom'));
    expect(run(result).status).toBe('error');
    const text = texts(result);
    expect(text).toContain('ZeroDivisionError: division by zero');
    expect(text).toMatch(/Traceback \(.*frames?\):/);
    expect(text).toContain('return a / b');
    expect(text).not.toContain('\u001b[');
  });

  it('interrupts a run past its time limit, returns the partial output with an execution_id, and the kernel stays usable', async () => {
    const result = await call('execute_cell', cell('slow', { timeout_s: 2 }));
    const stopped = run(result);
    expect(stopped.status).toBe('interrupted');
    expect(stopped.note).toContain('passed its 2 s limit');
    expect(texts(result)).toContain('started');
    // The traceback quotes the source line; no output line says "finished".
    expect(texts(result)).not.toMatch(/^finished$/m);
    expect(texts(result)).toContain('KeyboardInterrupt');
    const again = await call('get_execution', { execution_id: stopped.execution_id });
    expect(run(again)).toMatchObject({ execution_id: stopped.execution_id, status: 'interrupted' });
    expect(texts(await call('execute_code', { space: 'lab', path: 'basics.ipynb', code: 'print("still here")' }))).toContain('still here');
  });

  it('truncates a huge print, keeping head and tail and saying how much was left out', async () => {
    const result = await call('execute_cell', cell('huge'));
    const text = texts(result);
    expect(run(result).truncated_bytes).toBeGreaterThan(190_000);
    expect(text).toMatch(/\n… \[[\d,]+ characters omitted\] …\n/);
    expect(Buffer.byteLength(text, 'utf8')).toBeLessThan(4096 + 600);
  });

  it('returns a PNG from IPython.display.Image as image content', async () => {
    const result = await call('execute_cell', cell('picture'));
    const image = result.content.find((c) => c.type === 'image') as { data: string; mimeType: string } | undefined;
    expect(image?.mimeType).toBe('image/png');
    expect(Buffer.from(image?.data ?? '', 'base64').subarray(1, 4).toString('latin1')).toBe('PNG');
  });

  it('makes input() fail at once instead of waiting for a person', async () => {
    const result = await call('execute_cell', cell('ask', { timeout_s: 20 }));
    expect(run(result).status).toBe('error');
    expect(texts(result)).toMatch(/StdinNotImplementedError|not allowed|stdin/i);
  });

  it('loses the state on restart_kernel, and says so', async () => {
    await call('execute_cell', cell('remember'));
    expect(texts(await call('execute_cell', cell('recall')))).toContain('42');
    const restarted = await call('restart_kernel', { space: 'lab', path: 'basics.ipynb' });
    expect((restarted.structuredContent as { note: string }).note).toMatch(/gone/);
    const after = await call('execute_cell', cell('recall'));
    expect(run(after).status).toBe('error');
    expect(texts(after)).toContain("NameError: name 'answer' is not defined");
  });

  it('saves outputs into the notebook with save: true', async () => {
    const result = await call('execute_cell', { space: 'lab', path: 'edits.ipynb', cell_id: 'save-me', save: true });
    expect(run(result)).toMatchObject({ status: 'ok', saved: true });
    const saved = JSON.parse(readFileSync(join(lab.lab, 'edits.ipynb'), 'utf8')) as { cells: Array<{ id: string; outputs: Array<{ output_type: string; text?: string }>; execution_count: number }> };
    const written = saved.cells.find((c) => c.id === 'save-me')!;
    expect(written.execution_count).toBe(run(result).execution_count);
    expect(written.outputs.map((o) => o.output_type)).toEqual(['stream', 'execute_result']);
    // Jupyter keeps a checkpoint of every notebook it saves; none is left inside the spaces.
    const entries = readdirSync(lab.root, { recursive: true }).map(String);
    expect(entries.filter((entry) => entry.split(/[\\/]/).includes('.ipynb_checkpoints'))).toEqual([]);
  });

  it('refuses to save over a notebook that changed while the cell ran, and keeps the outputs readable', async () => {
    const before = readFileSync(join(lab.lab, 'edits.ipynb'), 'utf8');
    const result = await conn.callTool('execute_cell', { space: 'lab', path: 'edits.ipynb', cell_id: 'touch-self', save: true });
    expect(result.isError).toBe(true);
    const message = texts(result);
    expect(message).toContain('changed while the cell ran, so its outputs were NOT saved (nothing was overwritten)');
    const after = readFileSync(join(lab.lab, 'edits.ipynb'), 'utf8');
    // Only the cell's own edit (a trailing newline) is there: no outputs were written over it.
    expect(after).toBe(`${before}\n`);
    const id = /execution_id": "([^"]+)"/.exec(message)?.[1];
    expect(texts(await call('get_execution', { execution_id: id }))).toContain('changed the notebook file while running');
  });

  it('runs cells of two notebooks for two clients at once without crossing', async () => {
    const other = await connect(host, { selection: 'kernels' });
    try {
      const [a, b] = await Promise.all([
        call('execute_cell', { space: 'lab', path: 'alpha.ipynb', cell_id: 'mark' }),
        call('execute_cell', { space: 'lab', path: 'beta.ipynb', cell_id: 'mark' }, other),
      ]);
      expect(texts(a)).toContain('alpha');
      expect(texts(b)).toContain('beta');
      const [a2, b2] = await Promise.all([
        call('execute_cell', { space: 'lab', path: 'alpha.ipynb', cell_id: 'show' }, other),
        call('execute_cell', { space: 'lab', path: 'beta.ipynb', cell_id: 'show' }),
      ]);
      expect(texts(a2)).toContain('alpha');
      expect(texts(a2)).not.toContain('beta');
      expect(texts(b2)).toContain('beta');
      const listed = (await call('list_kernels', {})).structuredContent as { kernels: Array<{ id: string; notebook: { space: string; path: string } | null; started_by_us: boolean }> };
      const paths = listed.kernels.map((k) => k.notebook?.path).sort();
      expect(paths).toEqual(['alpha.ipynb', 'basics.ipynb', 'beta.ipynb', 'edits.ipynb']);
      expect(new Set(listed.kernels.map((k) => k.id)).size).toBe(4);
    } finally {
      await other.close();
    }
  });

  it('tells read_notebook whether the notebook has a live kernel, and each cell\'s id', async () => {
    const read = await call('read_notebook', { space: 'lab', path: 'alpha.ipynb' });
    const nb = read.structuredContent as { cells: Array<{ id?: string }>; live_kernel?: { live: boolean; state?: string; started_by_us?: boolean } };
    expect(nb.cells.map((c) => c.id)).toEqual(['mark', 'show']);
    expect(nb.live_kernel).toMatchObject({ live: true, started_by_us: true });
    await call('shutdown_kernel', { space: 'lab', path: 'alpha.ipynb' });
    const after = (await call('read_notebook', { space: 'lab', path: 'alpha.ipynb' })).structuredContent as { live_kernel?: { live: boolean } };
    expect(after.live_kernel?.live).toBe(false);
  });

  it('refuses paths outside the space and non-notebooks', async () => {
    const escaped = await conn.callTool('open_notebook', { space: 'lab', path: '../../etc/passwd' });
    expect(escaped.isError).toBe(true);
    expect(texts(escaped)).toContain('escapes the space');
    const readme = await conn.callTool('execute_code', { space: 'lab', path: 'README.md', code: '1' });
    expect(readme.isError).toBe(true);
    expect(texts(readme)).toContain('is not a notebook file');
  });

  // Last: it stops the server the others use.
  it('answers clear errors once the Jupyter Server is gone, while the rest of the host keeps serving', async () => {
    await jupyter.stop();
    const result = await conn.callTool('execute_cell', cell('hello'));
    expect(result.isError).toBe(true);
    expect(texts(result)).toMatch(/the Jupyter Server at http:\/\/127\.0\.0\.1:\d+\/: is not reachable \(fetch failed\)/);
    expect(texts(result)).not.toContain(jupyter.token);
    const listed = await conn.callTool('list_kernels', {});
    expect(listed.isError).toBe(true);
    expect(texts(listed)).toContain('is not reachable');
    const spaces = await call('list_files', { space: 'lab' });
    expect(texts(spaces)).toContain('basics.ipynb');
    const read = await call('read_notebook', { space: 'lab', path: 'basics.ipynb' });
    expect((read.structuredContent as { live_kernel?: { live: boolean; hint: string } }).live_kernel).toMatchObject({ live: false, hint: expect.stringContaining('not reachable') });
  });
});
