/**
 * The tools that write a notebook: `insert_cell`, `overwrite_cell_source`
 * and `delete_cell` (the names the Jupyter MCP Server's users know). Cells
 * are addressed by id, as execute_cell's are. Each change is made only if
 * the file is still the version the caller last read (open_notebook or
 * read_notebook; readVersions.ts) — the check execute_cell's save makes —
 * and the file is replaced atomically. They write files, not kernels: no
 * kernel is started, and the change is the caller's to run.
 */
import { randomBytes } from 'node:crypto';
import { isCode, type ICell, type INotebookContent } from '@jupyterlab/nbformat';
import { defineTool, type ToolAnnotations, type ToolContext } from '@reactor/host';
import { z } from 'zod';
import { kernelError, notebookSubject } from '../errors.js';
import { jupyterFailure } from '../jupyterClient.js';
import { cellIdOf, editNotebook, findCell, sourceOf, type NotebookRef } from '../notebookFile.js';
import type { KernelsRuntime } from '../runtime.js';
import { KERNELS_TOOLSET, notebookArg, spaceArg } from './common.js';

/** Adds to a notebook; nothing is lost. */
const ADDS: ToolAnnotations = Object.freeze({ readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false });
/** Replaces what was there (the old source and outputs are gone). */
const REPLACES: ToolAnnotations = Object.freeze({ readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false });
/** Removes a cell. */
const REMOVES: ToolAnnotations = Object.freeze({ readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false });

const cellIdArg = z.string().min(1).describe('The cell\'s id, from open_notebook or read_notebook ("#3" for the 4th cell of a notebook without cell ids).');

const changed = {
  space: z.string(),
  path: z.string(),
  cell_id: z.string(),
  cell_type: z.enum(['code', 'markdown', 'raw']),
  index: z.number().int().describe('The cell\'s position (0 = first).'),
  cells: z.number().int().describe('How many cells the notebook has now.'),
  note: z.string().optional(),
};

/** The note for a notebook without cell ids, whose "#n" ids are positions. */
const POSITIONAL = 'This notebook has no cell ids: cells are called by position ("#n"), so the cells after this one were renumbered — read the notebook again before the next change.';

function hasCellIds(content: INotebookContent): boolean {
  return content.nbformat > 4 || (content.nbformat === 4 && content.nbformat_minor >= 5) || content.cells.some((c) => typeof c['id'] === 'string' && c['id'] !== '');
}

/** A new cell id as nbformat makes them (8 hex digits), unique in the notebook. */
function newCellId(content: INotebookContent): string {
  const taken = new Set(content.cells.map((c) => c['id']));
  for (;;) {
    const id = randomBytes(4).toString('hex');
    if (!taken.has(id)) return id;
  }
}

/**
 * Changes the notebook if it is still the version the caller last read, then
 * remembers the new version as read (the caller knows what it wrote). Refuses,
 * writing nothing, when the caller never read it or it changed since.
 */
async function changeNotebook<R>(runtime: KernelsRuntime, ctx: ToolContext, space: string, userPath: string, what: string, edit: (content: INotebookContent, ref: NotebookRef) => R): Promise<{ ref: NotebookRef; result: R }> {
  const ref = await runtime.notebook(space, userPath);
  const client = runtime.client();
  const readAt = runtime.readVersions.lastRead(ctx, ref.jupyterPath);
  if (readAt === undefined) {
    throw kernelError(notebookSubject(ref.space, ref.path), `has not been read in this session, so it cannot be changed (${what}); nothing was written`, {
      hint: 'read it first with read_notebook (or open_notebook): they show the cell ids, and a change is made only on the version you read',
    });
  }
  let result: R | undefined;
  const outcome = await editNotebook(client.contents, ref, readAt, (content) => {
    result = edit(content, ref);
  }).catch((error: unknown) => {
    throw jupyterFailure(client.endpoint, `read ${ref.space}/${ref.path}`, error);
  });
  if (!outcome.saved) {
    throw kernelError(notebookSubject(ref.space, ref.path), `changed since you last read it, so ${what} was refused (nothing was written)`, {
      expected: `the version you read (last_modified ${outcome.readAt})`,
      received: `last_modified ${outcome.changedAt}`,
      hint: 'someone else changed it (a person saving it in JupyterLab, another client, or code a cell ran): read it again with read_notebook and redo the change on what it holds now',
    });
  }
  runtime.readVersions.seen(ctx, ref.jupyterPath, outcome.lastModified);
  return { ref, result: result as R };
}

/** `insert_cell`. */
export function createInsertCellTool(runtime: KernelsRuntime) {
  return defineTool({
    toolset: KERNELS_TOOLSET,
    name: 'insert_cell',
    title: 'Insert cell',
    description:
      'Insert a new cell into a notebook file: after the cell after_cell_id, before the cell before_cell_id, or (neither given) at the end. Returns the new cell\'s id (run a code cell with execute_cell). ' +
      'Only on the version of the notebook you last read with read_notebook or open_notebook: if someone changed the file since, nothing is written and the error says to read it again.',
    inputSchema: z.object({
      space: spaceArg,
      path: notebookArg,
      source: z.string().describe('The cell\'s text: code, or Markdown for a markdown cell.'),
      cell_type: z.enum(['code', 'markdown', 'raw']).default('code'),
      after_cell_id: cellIdArg.optional().describe('Insert after this cell (its id from read_notebook).'),
      before_cell_id: cellIdArg.optional().describe('Insert before this cell (its id from read_notebook); e.g. the first cell\'s id to insert at the top.'),
    }),
    outputSchema: z.object(changed),
    annotations: ADDS,
    handler: async (args, ctx) => {
      if (args.after_cell_id !== undefined && args.before_cell_id !== undefined) {
        throw kernelError('insert_cell', 'got both after_cell_id and before_cell_id', { hint: 'give one of them (or neither, to append at the end)' });
      }
      const { ref, result } = await changeNotebook(runtime, ctx, args.space, args.path, 'inserting a cell', (content, ref) => {
        const index =
          args.after_cell_id !== undefined ? findCell(content, ref, args.after_cell_id).index + 1
          : args.before_cell_id !== undefined ? findCell(content, ref, args.before_cell_id).index
          : content.cells.length;
        const withIds = hasCellIds(content);
        const base = { ...(withIds ? { id: newCellId(content) } : {}), metadata: {}, source: args.source };
        const cell: ICell = args.cell_type === 'code' ? { ...base, cell_type: 'code', execution_count: null, outputs: [] } : { ...base, cell_type: args.cell_type };
        content.cells.splice(index, 0, cell);
        return { id: cellIdOf(cell, index), index, cells: content.cells.length, withIds };
      });
      return {
        space: ref.space,
        path: ref.path,
        cell_id: result.id,
        cell_type: args.cell_type,
        index: result.index,
        cells: result.cells,
        ...(!result.withIds && result.index < result.cells - 1 ? { note: POSITIONAL } : {}),
      };
    },
  });
}

/** `overwrite_cell_source`. */
export function createOverwriteCellSourceTool(runtime: KernelsRuntime) {
  return defineTool({
    toolset: KERNELS_TOOLSET,
    name: 'overwrite_cell_source',
    title: 'Overwrite cell source',
    description:
      'Replace the whole source of one cell of a notebook file (by its id). A code cell\'s outputs and execution_count are cleared: they belonged to the old source (execute_cell with save: true writes new ones). ' +
      'Only on the version of the notebook you last read with read_notebook or open_notebook: if someone changed the file since, nothing is written and the error says to read it again.',
    inputSchema: z.object({ space: spaceArg, path: notebookArg, cell_id: cellIdArg, source: z.string().describe('The cell\'s new text, in full.') }),
    outputSchema: z.object({ ...changed, outputs_cleared: z.number().int().describe('How many outputs the code cell had (now cleared).') }),
    annotations: REPLACES,
    handler: async (args, ctx) => {
      const { ref, result } = await changeNotebook(runtime, ctx, args.space, args.path, 'overwriting a cell', (content, ref) => {
        const { cell, index } = findCell(content, ref, args.cell_id);
        cell.source = args.source;
        let cleared = 0;
        if (isCode(cell)) {
          cleared = cell.outputs.length;
          cell.outputs = [];
          cell.execution_count = null;
        }
        return { type: cell.cell_type, index, cells: content.cells.length, cleared };
      });
      return { space: ref.space, path: ref.path, cell_id: args.cell_id, cell_type: result.type as 'code' | 'markdown' | 'raw', index: result.index, cells: result.cells, outputs_cleared: result.cleared };
    },
  });
}

/** `delete_cell`. */
export function createDeleteCellTool(runtime: KernelsRuntime) {
  return defineTool({
    toolset: KERNELS_TOOLSET,
    name: 'delete_cell',
    title: 'Delete cell',
    description:
      'Delete one cell of a notebook file (by its id), with its outputs. The answer repeats the deleted source (its first 2000 characters), so insert_cell can put it back. ' +
      'Only on the version of the notebook you last read with read_notebook or open_notebook: if someone changed the file since, nothing is written and the error says to read it again.',
    inputSchema: z.object({ space: spaceArg, path: notebookArg, cell_id: cellIdArg }),
    outputSchema: z.object({ ...changed, deleted_source: z.string(), deleted_source_truncated: z.boolean() }),
    annotations: REMOVES,
    handler: async (args, ctx) => {
      const { ref, result } = await changeNotebook(runtime, ctx, args.space, args.path, 'deleting a cell', (content, ref) => {
        const { cell, index } = findCell(content, ref, args.cell_id);
        content.cells.splice(index, 1);
        return { type: cell.cell_type, index, cells: content.cells.length, source: sourceOf(cell), withIds: hasCellIds(content) };
      });
      return {
        space: ref.space,
        path: ref.path,
        cell_id: args.cell_id,
        cell_type: result.type as 'code' | 'markdown' | 'raw',
        index: result.index,
        cells: result.cells,
        deleted_source: result.source.slice(0, 2000),
        deleted_source_truncated: result.source.length > 2000,
        ...(!result.withIds && result.index < result.cells ? { note: POSITIONAL } : {}),
      };
    },
  });
}
