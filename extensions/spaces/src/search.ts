/**
 * Searching spaces: lines of text that contain a phrase (`search_text`), and
 * notebooks whose name or cells mention every word of a query
 * (`find_notebooks`). Notebooks are searched cell by cell — sources and
 * output summaries — never as raw JSON, so a hit names its cell.
 */
import { fileOfEntry, loadText, readNotebookFile } from './files.js';
import { isNotebookPath } from './fileTypes.js';
import { compileFileFilter } from './fileFilter.js';
import { cellOutputText, parseNotebook, type Notebook } from './notebook.js';
import type { SpacesLimits } from './runtime.js';
import { spaceRealDir } from './safePath.js';
import type { Space } from './spaceRoots.js';
import { walk } from './walk.js';

/** One line that matched. */
export interface TextMatch {
  /** The file, relative to its space. */
  readonly path: string;
  /** 1-based line: in the file, or in the cell's source (or in the output's whole text) for a notebook. */
  readonly line: number;
  /** 1-based column of the match. */
  readonly column: number;
  /** The line (shortened around the match when long). */
  readonly text: string;
  /** For notebooks: the 0-based cell. */
  readonly cell?: number;
  /** For notebooks: true when the match is in the cell's outputs. */
  readonly inOutput?: boolean;
  /** For notebooks, a match in an output: which output of the cell (0-based). */
  readonly output?: number;
}

/** What `searchText` found. */
export interface TextSearchResult {
  readonly matches: TextMatch[];
  /** Text files searched. */
  readonly filesSearched: number;
  /** Files left out because they were over the size limit or unreadable. */
  readonly filesSkipped: number;
  /** True when `maxResults` (or the walk bound) stopped the search early. */
  readonly truncated: boolean;
}

/** Options of {@link searchText}. */
export interface TextSearchOptions {
  readonly glob?: string;
  readonly maxResults: number;
  readonly caseSensitive?: boolean;
  readonly signal?: AbortSignal;
  readonly limits: SpacesLimits;
  /** Called every {@link SEARCH_PROGRESS_EVERY} files visited, with how many of how many (a task's status reads it). */
  readonly onProgress?: (visited: number, total: number) => void;
}

/** How many files `searchText` visits between two `onProgress` reports. */
export const SEARCH_PROGRESS_EVERY = 500;

/** Finds lines containing `query` (a literal phrase) in the space's text files and notebooks. */
export async function searchText(space: Space, query: string, options: TextSearchOptions): Promise<TextSearchResult> {
  const pattern = new RegExp(escapeRegExp(query), options.caseSensitive === true ? 'u' : 'iu');
  const filter = compileFileFilter(options.glob);
  const root = { relative: '', absolute: await spaceRealDir(space) };
  const walked = await walk(space, root, { includeDirectories: false, maxEntries: options.limits.maxWalkEntries, ...(options.signal ? { signal: options.signal } : {}) });
  const matches: TextMatch[] = [];
  let filesSearched = 0;
  let filesSkipped = 0;
  let visited = 0;
  for (const entry of walked.entries) {
    if (++visited % SEARCH_PROGRESS_EVERY === 0) options.onProgress?.(visited, walked.entries.length);
    if (!filter(entry.path)) continue;
    options.signal?.throwIfAborted();
    const file = fileOfEntry(space, entry);
    if (file.size > options.limits.maxFileBytes) {
      filesSkipped++;
      continue;
    }
    let found: TextMatch[];
    try {
      const loaded = await loadText(file, options.limits.maxFileBytes);
      if (loaded.binary) continue;
      found = searchFile(file.relative, loaded.text, pattern);
    } catch {
      filesSkipped++;
      continue;
    }
    filesSearched++;
    for (const match of found) {
      if (matches.length >= options.maxResults) return { matches, filesSearched, filesSkipped, truncated: true };
      matches.push(match);
    }
  }
  return { matches, filesSearched, filesSkipped, truncated: walked.truncated };
}

function searchFile(relative: string, text: string, pattern: RegExp): TextMatch[] {
  if (isNotebookPath(relative)) {
    try {
      return searchNotebook(relative, parseNotebook(text, { fullOutputs: true }), pattern);
    } catch {
      // Not a parsable notebook: search its raw text like any other file.
    }
  }
  return searchLines(text, pattern, (line, column, snippet) => ({ path: relative, line, column, text: snippet }));
}

function searchNotebook(relative: string, notebook: Notebook, pattern: RegExp): TextMatch[] {
  const matches: TextMatch[] = [];
  for (const cell of notebook.cells) {
    matches.push(...searchLines(cell.source, pattern, (line, column, text) => ({ path: relative, cell: cell.index, line, column, text })));
    // Each output on its own, so a line number counts lines of that output's text.
    (cell.outputs ?? []).forEach((output, index) => {
      matches.push(...searchLines(output.text, pattern, (line, column, text) => ({ path: relative, cell: cell.index, inOutput: true, output: index, line, column, text })));
    });
  }
  return matches;
}

function searchLines(text: string, pattern: RegExp, make: (line: number, column: number, snippet: string) => TextMatch): TextMatch[] {
  const matches: TextMatch[] = [];
  const lines = text.split(/\r?\n/);
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] as string;
    const found = pattern.exec(line);
    if (found) matches.push(make(i + 1, found.index + 1, snippetAround(line, found.index, found[0].length)));
  }
  return matches;
}

/** A line shortened to about `width` characters around a match, with `…` where cut. */
export function snippetAround(line: string, index: number, length: number, width = 200): string {
  const trimmed = line.trimEnd();
  if (trimmed.length <= width) return trimmed;
  const start = Math.max(0, Math.min(index - Math.floor((width - length) / 2), trimmed.length - width));
  const end = Math.min(trimmed.length, start + width);
  return `${start > 0 ? '…' : ''}${trimmed.slice(start, end)}${end < trimmed.length ? '…' : ''}`;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** A notebook that matched a query. */
export interface NotebookHit {
  readonly space: string;
  readonly path: string;
  /** The notebook's first Markdown heading, if any. */
  readonly title?: string;
  readonly cellCount: number;
  /** Where the query's words were found. */
  readonly matchedIn: Array<'name' | 'source' | 'output'>;
  /** Up to three cells that mention a word of the query. */
  readonly snippets: Array<{ cell: number; where: 'source' | 'output'; text: string }>;
}

/** What `findNotebooks` found. */
export interface NotebookSearchResult {
  readonly notebooks: NotebookHit[];
  /** Notebooks that could not be read or parsed, with the reason. */
  readonly skipped: Array<{ space: string; path: string; reason: string }>;
  readonly truncated: boolean;
}

/**
 * Notebooks in `spaces` whose path or cells contain every word of `query`
 * (ignoring case); all notebooks for a blank query. Name matches rank first,
 * then notebooks with more matching cells.
 */
export async function findNotebooks(spaces: readonly Space[], query: string, options: { maxResults: number; signal?: AbortSignal; limits: SpacesLimits }): Promise<NotebookSearchResult> {
  const terms = query.toLowerCase().split(/\s+/).filter((t) => t !== '');
  const scored: Array<{ hit: NotebookHit; score: number }> = [];
  const skipped: NotebookSearchResult['skipped'] = [];
  let truncated = false;
  for (const space of spaces) {
    const root = { relative: '', absolute: await spaceRealDir(space) };
    const walked = await walk(space, root, { includeDirectories: false, maxEntries: options.limits.maxWalkEntries, ...(options.signal ? { signal: options.signal } : {}) });
    truncated ||= walked.truncated;
    for (const entry of walked.entries) {
      if (!isNotebookPath(entry.path)) continue;
      options.signal?.throwIfAborted();
      let notebook: Notebook;
      try {
        // Whole outputs: a word in the middle of a long log counts as much as one in its head.
        notebook = await readNotebookFile(fileOfEntry(space, entry), options.limits.maxFileBytes, options.limits.maxOutputChars, true);
      } catch (error) {
        skipped.push({ space: space.name, path: entry.path, reason: (error as Error).message });
        continue;
      }
      const scoredHit = matchNotebook(space.name, entry.path, notebook, terms);
      if (scoredHit) scored.push(scoredHit);
    }
  }
  scored.sort((a, b) => b.score - a.score || (a.hit.space < b.hit.space ? -1 : a.hit.space > b.hit.space ? 1 : a.hit.path < b.hit.path ? -1 : 1));
  if (scored.length > options.maxResults) truncated = true;
  return { notebooks: scored.slice(0, options.maxResults).map((s) => s.hit), skipped, truncated };
}

function matchNotebook(space: string, relative: string, notebook: Notebook, terms: readonly string[]): { hit: NotebookHit; score: number } | undefined {
  const name = relative.toLowerCase();
  const cells = notebook.cells.map((cell) => ({ index: cell.index, source: cell.source, output: cellOutputText(cell) }));
  const matchedIn = new Set<'name' | 'source' | 'output'>();
  for (const term of terms) {
    let found = false;
    if (name.includes(term)) {
      matchedIn.add('name');
      found = true;
    }
    for (const cell of cells) {
      for (const where of ['source', 'output'] as const) {
        if (!cell[where].toLowerCase().includes(term)) continue;
        found = true;
        matchedIn.add(where);
      }
    }
    if (!found) return undefined;
  }
  const snippets: NotebookHit['snippets'] = [];
  let cellsHit = 0;
  for (const cell of cells) {
    const where = (['source', 'output'] as const).find((w) => terms.some((t) => cell[w].toLowerCase().includes(t)));
    if (where === undefined) continue;
    cellsHit++;
    if (snippets.length < 3) snippets.push({ cell: cell.index, where, text: firstLineWith(cell[where], terms) });
  }
  const hit: NotebookHit = {
    space,
    path: relative,
    ...(notebook.title !== undefined ? { title: notebook.title } : {}),
    cellCount: notebook.cells.length,
    matchedIn: (['name', 'source', 'output'] as const).filter((w) => matchedIn.has(w)),
    snippets,
  };
  return { hit, score: (matchedIn.has('name') ? 1000 : 0) + cellsHit };
}

function firstLineWith(text: string, terms: readonly string[]): string {
  for (const line of text.split(/\r?\n/)) {
    const lower = line.toLowerCase();
    const term = terms.find((t) => lower.includes(t));
    if (term !== undefined) return snippetAround(line, lower.indexOf(term), term.length);
  }
  return '';
}
