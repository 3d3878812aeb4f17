/**
 * Jupyter notebooks (nbformat 4) read for a model: each cell's source joined
 * into one string, and each output summarised — stream text and results
 * truncated (head and tail kept), `text/plain` preferred over HTML, images
 * named with their size (`[image/png 12 KB]`) instead of dumped as base64,
 * errors as `ename: evalue` without the colour-coded traceback.
 */
import { stripVTControlCharacters } from 'node:util';
import { truncateMiddle } from '@reactor/host';
import { spaceError } from './errors.js';
import { formatBytes } from './fileTypes.js';

/** One output of a code cell, summarised. */
export interface NotebookOutput {
  /** nbformat's `output_type`. */
  readonly outputType: 'stream' | 'execute_result' | 'display_data' | 'error' | 'update_display_data';
  /** For streams: `stdout` or `stderr`. */
  readonly name?: string;
  /** The readable summary. */
  readonly text: string;
}

/** One cell. */
export interface NotebookCell {
  /** 0-based position in the notebook. */
  readonly index: number;
  readonly type: 'code' | 'markdown' | 'raw';
  readonly source: string;
  /** Code cells: the `In [n]` number, null when never run. */
  readonly executionCount?: number | null;
  /** Code cells: their outputs, summarised. */
  readonly outputs?: NotebookOutput[];
}

/** A parsed notebook. */
export interface Notebook {
  /** `4.5` and the like. */
  readonly nbformat: string;
  /** The kernel's language (`python`), when the metadata says. */
  readonly language?: string;
  /** The kernel's display name, when the metadata says. */
  readonly kernel?: string;
  /** The first Markdown heading, if any: what the notebook calls itself. */
  readonly title?: string;
  readonly cells: NotebookCell[];
}

/** Options of {@link parseNotebook}. */
export interface ParseNotebookOptions {
  /** The most characters one output's summary keeps. Default 2 000. */
  readonly maxOutputChars?: number;
  /** Used in error messages. */
  readonly name?: string;
  /**
   * Keep each output's whole text instead of a summary: streams and results
   * untruncated, errors with their traceback (colours removed). For searching,
   * where a line in the middle of a long log must be found. Default false.
   */
  readonly fullOutputs?: boolean;
}

/** The default bound of one output's summary. */
export const DEFAULT_MAX_OUTPUT_CHARS = 2000;

// Rich text forms, in order of preference, when an output has no text/plain.
const TEXT_FORMS = ['text/plain', 'text/markdown', 'text/latex', 'application/json'];

/** Parses notebook JSON text. Throws a clear error for invalid JSON or a format other than 4. */
export function parseNotebook(text: string, options: ParseNotebookOptions = {}): Notebook {
  const subject = `notebook ${JSON.stringify(options.name ?? '(unnamed)')}`;
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    const start = text.trimStart().slice(0, 20);
    throw spaceError(subject, 'is not valid JSON', { expected: 'nbformat 4 JSON', received: `text starting ${JSON.stringify(start)}`, hint: 'read it with read_file to see the raw text' });
  }
  if (!isRecord(json) || !Array.isArray(json.cells)) {
    const v3 = isRecord(json) && Array.isArray(json.worksheets);
    throw spaceError(subject, v3 ? 'uses nbformat 3, which is not supported' : 'is not a Jupyter notebook', {
      expected: 'nbformat 4 JSON with a "cells" array',
      received: v3 ? `nbformat ${String((json as Record<string, unknown>).nbformat)}` : 'JSON without "cells"',
      hint: v3 ? 'convert it with `jupyter nbconvert --to notebook --nbformat 4`' : 'read it with read_file',
    });
  }
  const maxOutputChars = options.fullOutputs === true ? Number.POSITIVE_INFINITY : (options.maxOutputChars ?? DEFAULT_MAX_OUTPUT_CHARS);
  const fullOutputs = options.fullOutputs === true;
  const metadata = isRecord(json.metadata) ? json.metadata : {};
  const kernelspec = isRecord(metadata.kernelspec) ? metadata.kernelspec : {};
  const languageInfo = isRecord(metadata.language_info) ? metadata.language_info : {};
  const language = stringOr(languageInfo.name) ?? stringOr(kernelspec.language);
  const kernel = stringOr(kernelspec.display_name) ?? stringOr(kernelspec.name);
  const cells = json.cells.map((cell, index) => parseCell(cell, index, maxOutputChars, fullOutputs));
  const title = findTitle(cells);
  return {
    nbformat: `${typeof json.nbformat === 'number' ? json.nbformat : 4}.${typeof json.nbformat_minor === 'number' ? json.nbformat_minor : 0}`,
    ...(language !== undefined ? { language } : {}),
    ...(kernel !== undefined ? { kernel } : {}),
    ...(title !== undefined ? { title } : {}),
    cells,
  };
}

function parseCell(cell: unknown, index: number, maxOutputChars: number, fullOutputs: boolean): NotebookCell {
  const record = isRecord(cell) ? cell : {};
  const type = record.cell_type === 'markdown' || record.cell_type === 'raw' ? record.cell_type : 'code';
  const source = joinText(record.source);
  if (type !== 'code') return { index, type, source };
  const outputs = Array.isArray(record.outputs) ? record.outputs.map((o) => summarizeOutput(o, maxOutputChars, fullOutputs)) : [];
  const executionCount = typeof record.execution_count === 'number' ? record.execution_count : null;
  return { index, type, source, executionCount, outputs };
}

/**
 * Summarises one nbformat output (exported for tests and for other readers of
 * notebooks). With `withTraceback`, an error's text goes on with its
 * traceback lines, colours removed.
 */
export function summarizeOutput(output: unknown, maxChars: number = DEFAULT_MAX_OUTPUT_CHARS, withTraceback = false): NotebookOutput {
  const record = isRecord(output) ? output : {};
  switch (record.output_type) {
    case 'stream': {
      const name = stringOr(record.name) ?? 'stdout';
      return { outputType: 'stream', name, text: truncateMiddle(joinText(record.text), maxChars) };
    }
    case 'error': {
      const ename = stringOr(record.ename) ?? 'Error';
      const evalue = stringOr(record.evalue) ?? '';
      const traceback = withTraceback && Array.isArray(record.traceback) ? record.traceback.filter((line): line is string => typeof line === 'string') : [];
      return { outputType: 'error', text: truncateMiddle(stripVTControlCharacters([`${ename}: ${evalue}`, ...traceback].join('\n')), maxChars) };
    }
    case 'execute_result':
    case 'display_data':
    case 'update_display_data':
      return { outputType: record.output_type, text: truncateMiddle(summarizeData(isRecord(record.data) ? record.data : {}), maxChars) };
    default:
      return { outputType: 'display_data', text: `[unknown output type ${JSON.stringify(record.output_type ?? null)}]` };
  }
}

// A mime bundle as text: images named with their size, then the best text form;
// a bundle with no text form names each of its types instead.
function summarizeData(data: Record<string, unknown>): string {
  const parts: string[] = [];
  for (const [mime, value] of Object.entries(data)) {
    if (mime.startsWith('image/')) parts.push(`[${mime} ${formatBytes(mimeValueBytes(mime, value))}]`);
  }
  const textForm = TEXT_FORMS.find((mime) => data[mime] !== undefined);
  if (textForm !== undefined) {
    const value = data[textForm];
    parts.push(textForm === 'application/json' && typeof value !== 'string' && !Array.isArray(value) ? JSON.stringify(value) : joinText(value));
  } else if (parts.length === 0) {
    for (const [mime, value] of Object.entries(data)) parts.push(`[${mime} ${formatBytes(mimeValueBytes(mime, value))}]`);
  }
  return parts.join('\n');
}

// Bytes an output value stands for: base64 images decoded, text as UTF-8.
function mimeValueBytes(mime: string, value: unknown): number {
  const text = typeof value === 'string' || Array.isArray(value) ? joinText(value) : JSON.stringify(value) ?? '';
  if (mime.startsWith('image/') && mime !== 'image/svg+xml') {
    const compact = text.replace(/\s/g, '');
    const padding = compact.endsWith('==') ? 2 : compact.endsWith('=') ? 1 : 0;
    return Math.max(0, Math.floor((compact.length * 3) / 4) - padding);
  }
  return Buffer.byteLength(text, 'utf8');
}

// nbformat stores multi-line text as a string or as an array of lines.
function joinText(value: unknown): string {
  if (typeof value === 'string') return value;
  if (Array.isArray(value)) return value.filter((v): v is string => typeof v === 'string').join('');
  return '';
}

function findTitle(cells: readonly NotebookCell[]): string | undefined {
  for (const cell of cells) {
    if (cell.type !== 'markdown') continue;
    const heading = /^#{1,6}\s+(.+?)\s*#*\s*$/m.exec(cell.source);
    if (heading?.[1] !== undefined) return heading[1];
  }
  return undefined;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function stringOr(value: unknown): string | undefined {
  return typeof value === 'string' && value !== '' ? value : undefined;
}

/** A cell's output summaries as one text (empty for a cell without outputs). */
export function cellOutputText(cell: NotebookCell): string {
  return (cell.outputs ?? []).map((o) => o.text).join('\n');
}

/**
 * A notebook as a Markdown transcript for a model to read: each cell under a
 * heading, code fenced in the notebook's language, outputs fenced after it.
 * Cut after `maxChars`, saying how many cells were left out.
 */
export function notebookTranscript(notebook: Notebook, maxChars = 100_000): string {
  const fence = (text: string, lang = '') => {
    const ticks = /```/.test(text) ? '````' : '```';
    return `${ticks}${lang}\n${text.replace(/\n$/, '')}\n${ticks}`;
  };
  const parts: string[] = [];
  let length = 0;
  for (const cell of notebook.cells) {
    const lines: string[] = [];
    if (cell.type === 'markdown') lines.push(`### Cell ${cell.index} (markdown)`, '', cell.source);
    else if (cell.type === 'raw') lines.push(`### Cell ${cell.index} (raw)`, '', fence(cell.source));
    else {
      const run = cell.executionCount === null || cell.executionCount === undefined ? 'not run' : `In [${cell.executionCount}]`;
      lines.push(`### Cell ${cell.index} (code, ${run})`, '', fence(cell.source, notebook.language ?? ''));
      for (const output of cell.outputs ?? []) {
        const label = output.outputType === 'stream' ? (output.name ?? 'stdout') : output.outputType === 'error' ? 'error' : 'result';
        lines.push('', `Output (${label}):`, fence(output.text));
      }
    }
    const text = lines.join('\n');
    if (length + text.length > maxChars && parts.length > 0) {
      parts.push(`[${notebook.cells.length - cell.index} more cells not shown]`);
      break;
    }
    parts.push(text);
    length += text.length;
  }
  return parts.join('\n\n');
}
