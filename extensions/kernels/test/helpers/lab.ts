/**
 * A copy of the test space `lab` (test/fixtures/lab) in a temp folder of
 * spaces, and a real Jupyter Server whose root is that folder — started with
 * the Python test/globalSetup.ts found (one with jupyter_server and ipykernel)
 * on a free loopback port. Without one, or if it cannot start, it fails
 * loudly, saying what to install: these tests never skip.
 */
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { silentLogger } from '@reactor/host';
import { inject } from 'vitest';
import { startJupyterServer, type JupyterServerProcess } from '../../src/index.js';

const FIXTURE = fileURLToPath(new URL('../fixtures/lab', import.meta.url));

/** The folder of spaces holding a fresh copy of `lab`. */
export interface LabCopy {
  /** The folder of spaces (and the Jupyter Server's root). */
  readonly root: string;
  /** `<root>/lab`. */
  readonly lab: string;
  remove(): void;
}

/** Copies the lab into a new temp folder of spaces. */
export function copyLab(): LabCopy {
  const root = mkdtempSync(join(tmpdir(), 'reactor-kernels-'));
  const lab = join(root, 'lab');
  cpSync(FIXTURE, lab, { recursive: true });
  return { root, lab, remove: () => rmSync(root, { recursive: true, force: true }) };
}

/** The Python with Jupyter that globalSetup found, or throws its one sentence saying what is missing and how to install it. */
export function jupyterPython(): string {
  const found = inject('jupyterPython');
  if ('missing' in found) throw new Error(found.missing);
  return found.python;
}

/** The variables the extension looks for a Python in (for tests of REACTOR_JUPYTER=auto without a configured Python). */
export function pythonSearchEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const name of ['PATH', 'VIRTUAL_ENV', 'CONDA_PREFIX', 'REACTOR_JUPYTER_PYTHON']) if (process.env[name] !== undefined) env[name] = process.env[name];
  return env;
}

/** Starts a real Jupyter Server on `root`, or throws saying what to install. */
export async function startLabJupyter(root: string): Promise<JupyterServerProcess> {
  const python = jupyterPython();
  try {
    return await startJupyterServer({ python, rootDir: root, logger: silentLogger, startTimeoutMs: 60_000 });
  } catch (error) {
    throw new Error(`These tests need a real Jupyter Server and could not start one with ${python} -m jupyter_server: ${error instanceof Error ? error.message : String(error)}.`, { cause: error });
  }
}
