/**
 * A notebook read and saved through Jupyter's Contents API, so the server
 * that runs its kernel sees the same file. Saving writes a run's outputs
 * into one cell only if the file has not changed since it was read (its
 * `last_modified`): a conflict is an error, never an overwrite.
 */
import type { ContentsManager } from '@jupyterlab/services';
import { kernelError, notebookSubject } from './errors.js';
import type { NbOutput } from './outputs.js';

/** A notebook cell as nbformat 4 stores it (the fields this extension reads or writes). */
export interface NbCell {
  id?: string;
  cell_type: string;
  source: string | string[];
  outputs?: unknown[];
  execution_count?: number | null;
  metadata?: Record<string, unknown>;
}

/** A notebook's JSON (the fields this extension reads). */
export interface NbContent {
  cells: NbCell[];
  metadata?: { kernelspec?: { name?: string; display_name?: string } } & Record<string, unknown>;
  nbformat?: number;
  nbformat_minor?: number;
}

/** A notebook as read, with the version it was read at. */
export interface ReadNotebook {
  readonly content: NbContent;
  readonly lastModified: string;
}

/** Where a notebook is: for messages (space and path) and for Jupyter (its server path). */
export interface NotebookRef {
  readonly space: string;
  readonly path: string;
  readonly jupyterPath: string;
}

/** The id a cell is called by: its nbformat id, or `#<index>` for notebooks older than nbformat 4.5. */
export function cellIdOf(cell: NbCell, index: number): string {
  return typeof cell.id === 'string' && cell.id !== '' ? cell.id : `#${index}`;
}

/** A cell's source as one string. */
export function sourceOf(cell: NbCell): string {
  return Array.isArray(cell.source) ? cell.source.join('') : cell.source;
}

/** A short listing of the cells: id, type, first line. */
export function cellIndex(content: NbContent): Array<{ id: string; type: string; first_line: string }> {
  return content.cells.map((cell, i) => ({ id: cellIdOf(cell, i), type: cell.cell_type, first_line: (sourceOf(cell).split('\n')[0] ?? '').slice(0, 120) }));
}

/** Reads a notebook. */
export async function readNotebook(contents: ContentsManager, ref: NotebookRef): Promise<ReadNotebook> {
  const model = await contents.get(ref.jupyterPath, { type: 'notebook', content: true });
  const content = model.content as NbContent | null;
  if (content === null || typeof content !== 'object' || !Array.isArray(content.cells)) {
    throw kernelError(notebookSubject(ref.space, ref.path), 'is not a notebook Jupyter can read', { expected: 'nbformat 4 JSON with a "cells" array' });
  }
  return { content, lastModified: model.last_modified };
}

/** Finds a code cell by id, or throws naming the ids there are. */
export function findCodeCell(content: NbContent, ref: NotebookRef, cellId: string): { cell: NbCell; index: number } {
  const index = content.cells.findIndex((cell, i) => cellIdOf(cell, i) === cellId);
  if (index < 0) {
    const ids = content.cells.map(cellIdOf);
    throw kernelError(notebookSubject(ref.space, ref.path), `has no cell ${JSON.stringify(cellId)}`, {
      expected: `one of ${ids.slice(0, 20).map((id) => JSON.stringify(id)).join(', ')}${ids.length > 20 ? `, … (${ids.length} cells)` : ''}`,
      hint: 'open_notebook (or read_notebook) lists each cell with its id',
    });
  }
  const cell = content.cells[index] as NbCell;
  if (cell.cell_type !== 'code') {
    throw kernelError(`cell ${JSON.stringify(cellId)} of ${notebookSubject(ref.space, ref.path)}`, `is a ${cell.cell_type} cell, not a code cell`, { hint: 'only code cells run; pick a cell whose type is "code"' });
  }
  return { cell, index };
}

/** What saving did: saved (with the new version), or refused because the file changed since it was read. */
export type SaveOutcome = { readonly saved: true; readonly lastModified: string } | { readonly saved: false; readonly readAt: string; readonly changedAt: string };

/**
 * Writes `outputs` and `executionCount` into the cell, if the notebook is
 * still the version read (`lastModified`); otherwise writes nothing and says
 * so. (The check and the write are two requests: a change landing between
 * them, within milliseconds, is the one case it cannot see.)
 */
export async function saveCellOutputs(contents: ContentsManager, ref: NotebookRef, cellId: string, lastModified: string, outputs: readonly NbOutput[], executionCount: number | null): Promise<SaveOutcome> {
  const now = await readNotebook(contents, ref);
  if (now.lastModified !== lastModified) return { saved: false, readAt: lastModified, changedAt: now.lastModified };
  const { cell } = findCodeCell(now.content, ref, cellId);
  cell.outputs = outputs.map((o) => ({ ...o }));
  cell.execution_count = executionCount;
  const saved = await contents.save(ref.jupyterPath, { type: 'notebook', format: 'json', content: now.content as unknown as Record<string, unknown> });
  return { saved: true, lastModified: saved.last_modified };
}
