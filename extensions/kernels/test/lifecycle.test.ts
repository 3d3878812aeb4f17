/**
 * Where kernels come from, seen from a host: with nothing configured the
 * toolset is listed, offers no tool, and describe()/healthz say why and how
 * to enable it; with REACTOR_JUPYTER=auto the extension starts a real Jupyter
 * Server when ?kernels wakes it and stops it in onStop; if that server dies,
 * its tools answer a clear error while spaces keeps serving.
 */
import { createSpacesExtension } from '@reactor/ext-spaces';
import { buildHost, parseSelection, silentLogger, type McpHost } from '@reactor/host';
import { connect } from '@reactor/host/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { createKernelsExtension, KERNELS_TOOL_NAMES } from '../src/index.js';
import { copyLab, jupyterPython, pythonSearchEnv, type LabCopy } from './helpers/lab.js';

let host: McpHost | undefined;
let lab: LabCopy | undefined;
afterEach(async () => {
  await host?.stop();
  host = undefined;
  lab?.remove();
  lab = undefined;
});

describe('with nothing configured', () => {
  it('lists the toolset, offers none of its tools, and says why in describe() and the report', async () => {
    lab = copyLab();
    const kernels = createKernelsExtension({ env: {}, spaces: { roots: [lab.root] }, logger: silentLogger });
    host = await buildHost([createSpacesExtension({ roots: [lab.root] }), kernels], { strict: true, logger: silentLogger });
    const described = await host.describe(parseSelection('kernels'));
    expect(described.toolsets.find((t) => t.name === 'kernels')).toMatchObject({
      active: true,
      unavailable: { extension: 'kernels', reason: 'no Jupyter Server is configured', hint: expect.stringContaining('REACTOR_JUPYTER=auto') },
    });
    expect(described.tools.filter((t) => (KERNELS_TOOL_NAMES as readonly string[]).includes(t))).toEqual([]);
    const report = host.report();
    expect(report.ok).toBe(true);
    expect(report.extensions.find((e) => e.name === 'kernels')).toMatchObject({ state: 'active', started: true, unavailable: { reason: 'no Jupyter Server is configured' } });
    // read_notebook is served as spaces made it: kernels extends it only when it can run kernels.
    const conn = await connect(host, { selection: 'kernels' });
    const read = await conn.callTool('read_notebook', { space: 'lab', path: 'basics.ipynb' });
    expect(read.structuredContent).not.toHaveProperty('live_kernel');
    await conn.close();
  });

  it('says what is missing when REACTOR_JUPYTER=auto but the Python lacks Jupyter', () => {
    const kernels = createKernelsExtension({ env: { REACTOR_JUPYTER: 'auto' }, python: process.execPath, logger: silentLogger });
    const availability = kernels.availability?.();
    expect(availability).toMatchObject({ available: false, reason: expect.stringContaining('cannot import jupyter_server and ipykernel'), hint: expect.stringContaining('python3-jupyter-server') });
    // The configured Python wins over any other, and the hint installs into it with pip.
    expect(availability?.hint).toContain(`${process.execPath} -m pip install jupyter_server ipykernel`);
  });
});

describe('with REACTOR_JUPYTER=auto (a real Jupyter Server)', () => {
  it('starts the server when ?kernels wakes it, runs code, stops it with the host, and answers clearly once it died', async () => {
    lab = copyLab();
    jupyterPython(); // fails here, saying what to install, where no Python has Jupyter
    // No Python configured: the extension finds one as it would for an operator (virtual env, conda, PATH, /usr/bin/python3).
    const kernels = createKernelsExtension({ env: { ...pythonSearchEnv(), REACTOR_JUPYTER: 'auto' }, spaces: { roots: [lab.root] }, logger: silentLogger });
    host = await buildHost([createSpacesExtension({ roots: [lab.root] }), kernels], { strict: true, logger: silentLogger });
    expect(host.report().extensions.find((e) => e.name === 'kernels')?.state).toBe('held');
    const conn = await connect(host, { selection: 'kernels' });
    const ran = await conn.callTool('execute_code', { space: 'lab', path: 'basics.ipynb', code: 'import os\nprint(os.getcwd())' });
    expect(ran.isError, JSON.stringify(ran.content)).toBeFalsy();
    // The kernel runs in the notebook's folder, inside the server's root.
    expect(JSON.stringify(ran.content)).toContain(lab.lab.replace(/\\/g, '\\\\'));
    const pid = kernels.runtime().embeddedPid();
    expect(pid).toBeTypeOf('number');
    process.kill(pid!, 'SIGKILL');
    await kernels.runtime().embeddedExited();
    const after = await conn.callTool('execute_code', { space: 'lab', path: 'basics.ipynb', code: '1' });
    expect(after.isError).toBe(true);
    expect(JSON.stringify(after.content)).toContain('the embedded Jupyter Server: has exited, so no kernel can run');
    const files = await conn.callTool('list_files', { space: 'lab' });
    expect(files.isError).toBeFalsy();
    await conn.close();
    await host.stop();
    host = undefined;
    expect(kernels.runtime().embeddedPid()).toBeUndefined();
  });

  it('stops the server it started when the host stops', async () => {
    lab = copyLab();
    jupyterPython(); // fails here, saying what to install, where no Python has Jupyter
    // No Python configured: the extension finds one as it would for an operator (virtual env, conda, PATH, /usr/bin/python3).
    const kernels = createKernelsExtension({ env: { ...pythonSearchEnv(), REACTOR_JUPYTER: 'auto' }, spaces: { roots: [lab.root] }, logger: silentLogger });
    host = await buildHost([createSpacesExtension({ roots: [lab.root] }), kernels], { strict: true, logger: silentLogger });
    await host.build(parseSelection('kernels'));
    const pid = kernels.runtime().embeddedPid()!;
    const exited = kernels.runtime().embeddedExited();
    await host.stop();
    host = undefined;
    expect(await exited).toMatch(/exit code|signal/);
    expect(() => process.kill(pid, 0)).toThrow();
  });
});
