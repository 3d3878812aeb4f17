/**
 * A copy of the test space `lab` (test/fixtures/lab) in a temp folder of
 * spaces, and a real Jupyter Server whose root is that folder — started with
 * Debian's /usr/bin/python3 (python3-jupyter-server + python3-ipykernel) on a
 * free loopback port. Starting fails loudly: these tests never skip.
 */
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { silentLogger } from '@reactor/host';
import { DEFAULT_PYTHON, startJupyterServer, type JupyterServerProcess } from '../../src/index.js';

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

/** Starts a real Jupyter Server on `root`, or throws saying what to install. */
export async function startLabJupyter(root: string): Promise<JupyterServerProcess> {
  try {
    return await startJupyterServer({ python: DEFAULT_PYTHON, rootDir: root, logger: silentLogger, startTimeoutMs: 60_000 });
  } catch (error) {
    throw new Error(
      `These tests need a real Jupyter Server and could not start one with ${DEFAULT_PYTHON} -m jupyter_server: ${error instanceof Error ? error.message : String(error)}. ` +
        'Install Debian\'s python3-jupyter-server and python3-ipykernel (apt-get install python3-jupyter-server python3-ipykernel).',
      { cause: error },
    );
  }
}
