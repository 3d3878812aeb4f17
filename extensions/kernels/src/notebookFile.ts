/**
 * A notebook read through Jupyter's Contents API, so the server that runs its
 * kernel sees the same file, and changed — a run's outputs saved, a cell
 * inserted, rewritten or deleted — only if the file has not changed since the
 * version the caller read (its `last_modified`): a conflict is an error,
 * never an overwrite. The new file is written atomically (a temporary file in
 * the same folder, renamed over it), so Jupyter, JupyterLab or another reader
 * sees the old notebook or the new one, never half of one.
 */
import { randomBytes } from 'node:crypto';
import { open, rename, stat, unlink } from 'node:fs/promises';
import path from 'node:path';
import { isCode, type ICell, type ICodeCell, type INotebookContent, type IOutput } from '@jupyterlab/nbformat';
import type { ContentsManager } from '@jupyterlab/services';
import { kernelError, messageOf, notebookSubject } from './errors.js';
import type { NbOutput } from './outputs.js';

/** A notebook as read, with the version it was read at. */
export interface ReadNotebook {
  readonly content: INotebookContent;
  readonly lastModified: string;
}

/** Where a notebook is: for messages (space and path), for Jupyter (its server path) and on this machine. */
export interface NotebookRef {
  readonly space: string;
  readonly path: string;
  readonly jupyterPath: string;
  /** The file on this machine (inside its space, checked). */
  readonly absolute: string;
}

/** The id a cell is called by: its nbformat id, or `#<index>` for notebooks older than nbformat 4.5. */
export function cellIdOf(cell: ICell, index: number): string {
  return typeof cell['id'] === 'string' && cell['id'] !== '' ? cell['id'] : `#${index}`;
}

/** A cell's source as one string. */
export function sourceOf(cell: ICell): string {
  return Array.isArray(cell.source) ? cell.source.join('') : cell.source;
}

/** A short listing of the cells: id, type, first line. */
export function cellIndex(content: INotebookContent): Array<{ id: string; type: string; first_line: string }> {
  return content.cells.map((cell, i) => ({ id: cellIdOf(cell, i), type: cell.cell_type, first_line: (sourceOf(cell).split('\n')[0] ?? '').slice(0, 120) }));
}

/** Reads a notebook. */
export async function readNotebook(contents: ContentsManager, ref: NotebookRef): Promise<ReadNotebook> {
  const model = await contents.get(ref.jupyterPath, { type: 'notebook', content: true });
  const content = model.content as INotebookContent | null;
  if (content === null || typeof content !== 'object' || !Array.isArray(content.cells)) {
    throw kernelError(notebookSubject(ref.space, ref.path), 'is not a notebook Jupyter can read', { expected: 'nbformat 4 JSON with a "cells" array' });
  }
  return { content, lastModified: model.last_modified };
}

/** Finds a cell by id, or throws naming the ids there are. */
export function findCell(content: INotebookContent, ref: NotebookRef, cellId: string): { cell: ICell; index: number } {
  const index = content.cells.findIndex((cell, i) => cellIdOf(cell, i) === cellId);
  if (index < 0) {
    const ids = content.cells.map(cellIdOf);
    throw kernelError(notebookSubject(ref.space, ref.path), `has no cell ${JSON.stringify(cellId)}`, {
      expected: ids.length === 0 ? 'no cell id: the notebook is empty' : `one of ${ids.slice(0, 20).map((id) => JSON.stringify(id)).join(', ')}${ids.length > 20 ? `, … (${ids.length} cells)` : ''}`,
      hint: 'open_notebook (or read_notebook) lists each cell with its id',
    });
  }
  return { cell: content.cells[index] as ICell, index };
}

/** Finds a code cell by id, or throws naming the ids there are. */
export function findCodeCell(content: INotebookContent, ref: NotebookRef, cellId: string): { cell: ICodeCell; index: number } {
  const { cell, index } = findCell(content, ref, cellId);
  if (!isCode(cell)) {
    throw kernelError(`cell ${JSON.stringify(cellId)} of ${notebookSubject(ref.space, ref.path)}`, `is a ${cell.cell_type} cell, not a code cell`, { hint: 'only code cells run; pick a cell whose type is "code"' });
  }
  return { cell, index };
}

/** What an edit did: written (with the new version), or refused because the file changed since the version read. */
export type SaveOutcome = { readonly saved: true; readonly lastModified: string } | { readonly saved: false; readonly readAt: string; readonly changedAt: string };

/**
 * Applies `edit` to the notebook and writes it, if the notebook is still the
 * version read (`lastModified`); otherwise writes nothing and says so. The
 * one check every change goes through (saving a run's outputs, the writing
 * tools). The check and the write are two steps: a change landing between
 * them, within milliseconds, is the one case it cannot see.
 */
export async function editNotebook(contents: ContentsManager, ref: NotebookRef, lastModified: string, edit: (content: INotebookContent) => void): Promise<SaveOutcome> {
  const now = await readNotebook(contents, ref);
  if (now.lastModified !== lastModified) return { saved: false, readAt: lastModified, changedAt: now.lastModified };
  edit(now.content);
  await writeFileAtomically(ref.absolute, notebookJson(now.content)).catch((error: unknown) => {
    throw kernelError(notebookSubject(ref.space, ref.path), `could not be written (${(error as NodeJS.ErrnoException).code ?? messageOf(error)}); it is unchanged`, {
      hint: 'the folder must be writable by this server (a temporary file is written next to the notebook, then renamed over it)',
      cause: error,
    });
  });
  const written = await contents.get(ref.jupyterPath, { type: 'notebook', content: false });
  return { saved: true, lastModified: written.last_modified };
}

/** Writes `outputs` and `executionCount` into the code cell, if the notebook is still the version read (see {@link editNotebook}). */
export async function saveCellOutputs(contents: ContentsManager, ref: NotebookRef, cellId: string, lastModified: string, outputs: readonly NbOutput[], executionCount: number | null): Promise<SaveOutcome> {
  return await editNotebook(contents, ref, lastModified, (content) => {
    const { cell } = findCodeCell(content, ref, cellId);
    // The outputs collected from the kernel are nbformat's (a subset of IOutput).
    cell.outputs = outputs.map((o) => ({ ...o }) as IOutput);
    cell.execution_count = executionCount;
  });
}

/** Fields whose text nbformat stores as a list of lines. */
const MULTILINE = new Set(['source', 'text']);

/**
 * A notebook as nbformat writes it (`json.dumps(nb, indent=1, sort_keys=True, ensure_ascii=False)`,
 * multi-line text as lists of lines), so a notebook the model changed diffs like one Jupyter saved.
 */
export function notebookJson(content: INotebookContent): string {
  const canonical = (value: unknown, key: string | undefined, inData: boolean): unknown => {
    if (typeof value === 'string') {
      return (MULTILINE.has(key ?? '') || (inData && key !== undefined && key.startsWith('text/'))) && value.includes('\n') ? splitLines(value) : value;
    }
    if (Array.isArray(value)) return value.map((v) => canonical(v, undefined, false));
    if (value === null || typeof value !== 'object') return value;
    const sorted: Record<string, unknown> = {};
    for (const k of Object.keys(value).sort()) sorted[k] = canonical((value as Record<string, unknown>)[k], k, key === 'data');
    return sorted;
  };
  return `${JSON.stringify(canonical(content, undefined, false), null, 1)}\n`;
}

function splitLines(text: string): string[] {
  return text.split(/(?<=\n)/);
}

/**
 * Replaces a file atomically: writes a temporary file next to it (same folder,
 * so the rename stays on one file system), flushes it to disk, keeps the old
 * file's permissions, and renames it over the file. On failure the temporary
 * file is removed and the file is as it was.
 */
export async function writeFileAtomically(file: string, text: string): Promise<void> {
  const temp = path.join(path.dirname(file), `.${path.basename(file)}.${randomBytes(6).toString('hex')}.tmp`);
  const mode = await stat(file).then((s) => s.mode & 0o777, () => 0o644);
  const handle = await open(temp, 'wx', mode);
  try {
    try {
      await handle.writeFile(text, 'utf8');
      await handle.sync();
    } finally {
      await handle.close();
    }
    await rename(temp, file);
  } catch (error) {
    await unlink(temp).catch(() => {});
    throw error;
  }
}
