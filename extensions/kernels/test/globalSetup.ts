/**
 * Once per run of this package's tests: the Python the real-Jupyter tests
 * start their servers with — `REACTOR_JUPYTER_PYTHON` when set, else what the
 * extension itself would find (`findPython`: the active virtual env, conda,
 * PATH, then /usr/bin/python3 — the first with jupyter_server and ipykernel).
 *
 * Without one it says once, here, what is missing and how to install it, and
 * the tests that need Jupyter fail with that same sentence (`jupyterPython()`
 * in helpers/lab.ts) — they never skip: CI must run them — while the tests
 * that need no Jupyter (the fake server's, the units) run as usual.
 */
import type { TestProject } from 'vitest/node';
import { checkPython, findPython } from '../src/config.js';

declare module 'vitest' {
  export interface ProvidedContext {
    jupyterPython: { readonly python: string } | { readonly missing: string };
  }
}

export default function setup(project: TestProject): void {
  const configured = process.env['REACTOR_JUPYTER_PYTHON']?.trim();
  const found = configured ? checkPython(configured) : findPython(process.env);
  if (found.ok) {
    project.provide('jupyterPython', { python: found.python });
    return;
  }
  const missing = `These @reactor/ext-kernels tests need a real Jupyter Server, and none can be started: ${found.reason}. To run them, ${found.hint}.`;
  process.stderr.write(`\n${missing}\n\n`);
  project.provide('jupyterPython', { missing });
}
