/**
 * What the kernels tools share: argument schemas, annotations, and the
 * step every notebook tool starts with (check the notebook, find or start
 * its kernel).
 */
import type { ToolAnnotations, ToolContext } from '@reactor/host';
import { z } from 'zod';
import type { NotebookRef } from '../notebookFile.js';
import type { LiveNotebook, OpenedHow } from '../notebookKernels.js';
import { ownerOf } from '../owner.js';
import type { KernelsRuntime } from '../runtime.js';

/** The toolset every tool of this extension is in. */
export const KERNELS_TOOLSET = 'kernels';

/** The `space` argument. */
export const spaceArg = z.string().min(1).describe('The space\'s name, as list_spaces gives it (e.g. "climate-lab").');
/** The `path` argument. */
export const notebookArg = z.string().min(1).describe('The notebook\'s path relative to the space (e.g. "analysis.ipynb").');
/** The `timeout_s` argument. */
export function timeoutArg(runtime: KernelsRuntime) {
  return z
    .number()
    .positive()
    .max(runtime.limits.maxTimeoutS)
    .optional()
    .describe(`How long to wait for the run, in seconds (default ${runtime.limits.defaultTimeoutS}, at most ${runtime.limits.maxTimeoutS}). Past it the kernel is interrupted and the partial output returned with an execution_id.`);
}

/** Reads the kernel: changes nothing, looks at the live server (open world: state changes on its own). */
export const READS_KERNEL: ToolAnnotations = Object.freeze({ readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: true });
/** Runs code: anything may happen, in the kernel and wherever the code reaches. */
export const RUNS_CODE: ToolAnnotations = Object.freeze({ readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: true });

/** The notebook and its kernel, found or started. */
export interface OpenedNotebook {
  readonly ref: NotebookRef;
  readonly live: LiveNotebook;
  readonly how: OpenedHow;
  /** A sentence for the model when the kernel it had is gone. */
  readonly note?: string;
}

/** Checks the notebook and finds or starts its kernel — the caller's own (owner.ts). */
export async function openNotebook(runtime: KernelsRuntime, space: string, path: string, ctx: ToolContext, preferredSpec?: string): Promise<OpenedNotebook> {
  const ref = await runtime.notebook(space, path);
  const { live, how, replaced } = await runtime.kernels.open(ref, ownerOf(ctx), ctx.sessionId, preferredSpec);
  return {
    ref,
    live,
    how,
    ...(replaced ? { note: 'The kernel this notebook had is gone (culled, shut down elsewhere, or died): a new one was started, so its variables and imports are lost — run the setup cells again.' } : {}),
  };
}

/** The kernel's state as the client library knows it. */
export function kernelState(live: LiveNotebook): string {
  return live.kernel.status;
}
