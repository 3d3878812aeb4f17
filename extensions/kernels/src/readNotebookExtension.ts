/**
 * An extension of spaces' `read_notebook`: where the kernels toolset is served (`when: 'active'`), the result
 * says whether the notebook has a live kernel and its state (`live_kernel`;
 * spaces' own `kernel` field names the notebook's kernelspec), and
 * gives each cell its id (what execute_cell takes), so a model reading a
 * notebook knows how to run it.
 *
 * It only adds: another result shape passes through unchanged, and a failure
 * while annotating (Jupyter unreachable, say) is logged and the original
 * result returned — a missing annotation widens nothing. Applying it fails
 * closed: `wrap` throws if not given a handler, and the host then leaves
 * `read_notebook` out rather than serve it half-extended.
 */
import { readFile } from 'node:fs/promises';
import { resolveInSpace } from '@reactor/ext-spaces';
import { capItems, type AnyToolHandler, type SchemaLike, type ToolExtension } from '@reactor/host';
import { z } from 'zod';
import { messageOf } from './errors.js';
import { jupyterFailure } from './jupyterClient.js';
import type { INotebookContent } from '@jupyterlab/nbformat';
import { cellIdOf } from './notebookFile.js';
import { ownerOf, type KernelOwner } from './owner.js';
import type { KernelsRuntime } from './runtime.js';

/** The tool it extends (offered by `@reactor/ext-spaces`). */
export const READ_NOTEBOOK_TOOL = 'read_notebook';

/** Its place among extensions of `read_notebook`. */
export const READ_NOTEBOOK_EXTENSION_ORDER = 20;

/** How long the annotation may wait for Jupyter: reading a notebook must stay quick. */
const LOOKUP_MS = 2000;

/** The `live_kernel` field. */
export const kernelAnnotation = z.object({
  live: z.boolean().describe('True when the notebook has a kernel on the Jupyter Server.'),
  kernel_id: z.string().optional(),
  kernelspec: z.string().optional(),
  state: z.string().optional().describe('idle, busy, starting, dead…'),
  started_by_us: z.boolean().optional(),
  hint: z.string(),
});
type KernelAnnotation = z.infer<typeof kernelAnnotation>;

/** What kernels adds to a cell of `read_notebook`'s result. */
const cellId = z.string().optional().describe('The cell id execute_cell takes.');

/**
 * `read_notebook`'s output schema once extended, derived from the tool's own
 * (spaces' `readNotebookOutput`): every field as spaces declares it, each cell
 * with an optional `id`, plus the optional `live_kernel`. A schema that is not
 * a zod object with an array of cell objects cannot be extended and is kept.
 */
export function readNotebookWithKernelOutput(original: SchemaLike | undefined): SchemaLike | undefined {
  if (!isZodObject(original)) return original;
  const cells = original.shape.cells as { element?: unknown } | undefined;
  const cell = cells?.element;
  return original.extend({
    ...(isZodObject(cell) ? { cells: z.array(cell.extend({ id: cellId })) } : {}),
    live_kernel: kernelAnnotation.optional(),
  });
}

// Duck-typed: the schema may come from another copy of zod.
function isZodObject(value: unknown): value is z.ZodObject {
  return typeof value === 'object' && value !== null && '~standard' in value && typeof (value as { extend?: unknown }).extend === 'function' && typeof (value as { shape?: unknown }).shape === 'object';
}

/** What kernels adds to `read_notebook`'s own description once awake. */
export const READ_NOTEBOOK_NOTE = 'Each cell carries its id, and "live_kernel" says whether the notebook has a live kernel and its state: run cells with execute_cell, change them with insert_cell, overwrite_cell_source and delete_cell (toolset "kernels").';

/** `read_notebook`'s description once kernels is awake: the tool's own, then {@link READ_NOTEBOOK_NOTE}. */
export function readNotebookDescription(original: string): string {
  return `${original.trimEnd()} ${READ_NOTEBOOK_NOTE}`;
}

/** The caller's kernel of the notebook (owner.ts): another principal's is never reported. */
async function kernelOf(runtime: KernelsRuntime, space: string, path: string, owner: KernelOwner): Promise<KernelAnnotation> {
  const ref = await runtime.notebook(space, path);
  const held = runtime.kernels.held(owner, ref.jupyterPath);
  // Trust the held connection only while it is connected; otherwise ask the server (which may be gone).
  if (held && !held.session.isDisposed && held.kernel.connectionStatus === 'connected') {
    return { live: true, kernel_id: held.kernel.id, kernelspec: held.kernel.name, state: held.kernel.status, started_by_us: held.startedByUs, hint: 'execute_cell runs a cell on it.' };
  }
  let timer: NodeJS.Timeout | undefined;
  const client = runtime.client();
  const sessions = await Promise.race([
    client.sessionsApi.listRunning().catch((error: unknown) => {
      throw jupyterFailure(client.endpoint, 'list its sessions', error);
    }),
    new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`the Jupyter Server did not answer within ${LOOKUP_MS} ms`)), LOOKUP_MS))),
  ]).finally(() => clearTimeout(timer));
  const found = sessions.find((s) => s.path === owner.sessionPath(ref.jupyterPath) && s.kernel);
  if (found?.kernel) {
    const hint = owner.shared ? 'Someone has it open; execute_cell runs on the same kernel.' : 'Your kernel (from before this server restarted); execute_cell runs on it.';
    return { live: true, kernel_id: found.kernel.id, kernelspec: found.kernel.name, state: found.kernel.execution_state ?? 'unknown', started_by_us: false, hint };
  }
  return { live: false, hint: 'No kernel: open_notebook or execute_cell starts one.' };
}

/**
 * The notebook's version (Jupyter's `last_modified`) before spaces reads it, for the writing
 * tools (readVersions.ts); undefined when it cannot be had quickly — then no read is recorded.
 */
async function versionOf(rt: KernelsRuntime | undefined, args: unknown): Promise<{ jupyterPath: string; lastModified: string } | undefined> {
  const { space, path } = (typeof args === 'object' && args !== null ? args : {}) as { space?: unknown; path?: unknown };
  if (rt === undefined || typeof space !== 'string' || typeof path !== 'string') return undefined;
  let timer: NodeJS.Timeout | undefined;
  try {
    const ref = await rt.notebook(space, path);
    const model = await Promise.race([
      rt.client().contents.get(ref.jupyterPath, { type: 'notebook', content: false }),
      new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error('timed out')), LOOKUP_MS))),
    ]);
    return { jupyterPath: ref.jupyterPath, lastModified: model.last_modified };
  } catch {
    return undefined;
  } finally {
    clearTimeout(timer);
  }
}

async function cellIds(runtime: KernelsRuntime, space: string, path: string): Promise<string[]> {
  const resolved = await resolveInSpace(await runtime.spaces.space(space), path);
  if (resolved.stats.size > runtime.spaces.limits.maxFileBytes) return [];
  const content = JSON.parse(await readFile(resolved.absolute, 'utf8')) as INotebookContent;
  return Array.isArray(content.cells) ? content.cells.map(cellIdOf) : [];
}

type NotebookResult = { space: string; path: string; cells: Array<{ index: number } & Record<string, unknown>> } & Record<string, unknown>;

function isNotebookResult(value: unknown): value is NotebookResult {
  if (typeof value !== 'object' || value === null) return false;
  const v = value as Partial<NotebookResult>;
  return typeof v.space === 'string' && typeof v.path === 'string' && Array.isArray(v.cells);
}

/** The tool extension. `runtime()` answers the runtime once started, else undefined (results pass through). */
export function createReadNotebookExtension(runtime: () => KernelsRuntime | undefined): ToolExtension {
  return {
    order: READ_NOTEBOOK_EXTENSION_ORDER,
    // Only where the kernels toolset is served: a client without execute_cell is never told about it.
    when: 'active',
    // Derived from read_notebook's own, never retyped: whatever spaces says and declares stays.
    description: readNotebookDescription,
    outputSchema: readNotebookWithKernelOutput,
    meta: { 'reactor/kernels': { annotates: 'live kernel state and cell ids' } },
    wrap(original: AnyToolHandler): AnyToolHandler {
      if (typeof original !== 'function') {
        throw new TypeError(`kernels cannot extend "${READ_NOTEBOOK_TOOL}": expected its handler to be a function`);
      }
      return async (args, ctx) => {
        // The version first: a change landing while spaces reads makes the recorded version older, never newer.
        const version = await versionOf(runtime(), args);
        const result: unknown = await original(args, ctx);
        const rt = runtime();
        if (rt !== undefined && version !== undefined && isNotebookResult(result)) rt.readVersions.seen(ctx, version.jupyterPath, version.lastModified);
        if (rt === undefined || !isNotebookResult(result)) return result;
        try {
          const ids = await cellIds(rt, result.space, result.path);
          const kernel = await kernelOf(rt, result.space, result.path, ownerOf(ctx)).catch((error: unknown): KernelAnnotation => ({ live: false, hint: `Unknown: could not ask the Jupyter Server (${messageOf(error)})` }));
          const cells = result.cells.map((c) => (ids[c.index] !== undefined ? { ...c, id: ids[c.index] } : c));
          // The ids and live_kernel make spaces' answer longer: cap the combined answer, fewer cells continuing from nextCell.
          return capItems(cells, rt.budget, (kept) => ({
            ...result,
            cells: [...kept],
            live_kernel: kernel,
            ...(kept.length < cells.length ? { nextCell: cells[kept.length]!.index, truncated: true } : {}),
          }), Math.min(1, cells.length)).result;
        } catch (error) {
          rt.logger.warn({ tool: READ_NOTEBOOK_TOOL }, `could not annotate a read_notebook result: ${messageOf(error)}; returned it unannotated`);
          return result;
        }
      };
    },
  };
}
