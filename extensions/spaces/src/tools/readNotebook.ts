/** `read_notebook`: a notebook's cells with their outputs, summarised. */
import { capItems, defineTool, fitAnswer, largestFitting, truncateMiddle } from '@reactor/host';
import { z } from 'zod';
import { pathSubject, spaceError } from '../errors.js';
import { fileOfPath, readNotebookFile } from '../files.js';
import { type NotebookCell } from '../notebook.js';
import type { SpacesRuntime } from '../runtime.js';
import { resolveFile } from '../safePath.js';
import { READ_NOTEBOOK_VIEW } from '../views.js';
import { deprecatedName, pathArg, READ_ONLY_LOCAL, spaceArg } from './common.js';

// A cell whose source and each output keep at most `chars` characters (head and tail, the cut marked).
function cutCell(cell: NotebookCell, chars: number): NotebookCell {
  return {
    ...cell,
    source: truncateMiddle(cell.source, chars),
    ...(cell.outputs !== undefined ? { outputs: cell.outputs.map((o) => ({ ...o, text: truncateMiddle(o.text, chars) })) } : {}),
  };
}

const outputSchema = z.object({
  outputType: z.enum(['stream', 'execute_result', 'display_data', 'error', 'update_display_data']),
  name: z.string().optional().describe('Streams: stdout or stderr.'),
  text: z.string().describe('The output summarised: text (long text keeps its head and tail), images as "[image/png 12 KB]", errors as "Name: message".'),
});

const cellSchema = z.object({
  index: z.number().int().describe('0-based position in the notebook.'),
  type: z.enum(['code', 'markdown', 'raw']),
  source: z.string(),
  executionCount: z.number().int().nullable().optional().describe('Code cells: the In [n] number; null if never run.'),
  outputs: z.array(outputSchema).optional(),
});

/** The result of `read_notebook`. */
export const readNotebookOutput = z.object({
  space: z.string(),
  path: z.string(),
  nbformat: z.string(),
  language: z.string().optional(),
  kernel: z.string().optional(),
  title: z.string().optional().describe('The first Markdown heading.'),
  cellCount: z.number().int().describe('Cells in the whole notebook.'),
  cells: z.array(cellSchema),
  nextCell: z.number().int().nullable().describe('When the page filled up before the requested range ended: pass as cells.start to continue. Null otherwise.'),
  truncated: z.boolean().describe('True when part of the requested range is not in this answer: cells left for the next page (nextCell), or a cell too large for one answer, shown cut (its source and outputs keep their head and tail).'),
});

type ReadNotebookResult = z.infer<typeof readNotebookOutput>;

/** Makes the `read_notebook` tool. */
export function createReadNotebookTool(runtime: SpacesRuntime) {
  return defineTool({
    name: 'read_notebook',
    title: 'Read notebook',
    description:
      'Read a Jupyter notebook (.ipynb) as cells: Markdown and code with their outputs, summarised (long output keeps its head and tail, images are named with their size, errors show the exception). Read a range with cells: { start, end }; a long notebook comes in pages: continue from nextCell.',
    inputSchema: z.object({
      space: spaceArg,
      path: pathArg.describe('The notebook\'s path, relative to the space (e.g. "analysis.ipynb").'),
      cells: z
        .object({
          start: z.number().int().min(0).default(0).describe('First cell, 0-based.'),
          end: z.number().int().min(0).optional().describe('Stop before this cell (exclusive); omit for the end of the notebook.'),
        })
        .optional()
        .describe('Which cells to read; omit for all.'),
      include_outputs: z.boolean().optional().describe('Include code cells\' outputs (default true).'),
      includeOutputs: deprecatedName(z.boolean(), 'include_outputs'),
    }),
    outputSchema: readNotebookOutput,
    annotations: READ_ONLY_LOCAL,
    view: READ_NOTEBOOK_VIEW,
    handler: async (args): Promise<ReadNotebookResult> => {
      const space = await runtime.space(args.space);
      const file = fileOfPath(await resolveFile(space, args.path));
      const notebook = await readNotebookFile(file, runtime.limits.maxFileBytes, runtime.limits.maxOutputChars);
      const total = notebook.cells.length;
      const start = args.cells?.start ?? 0;
      const end = Math.min(args.cells?.end ?? total, total);
      if (start > 0 && start >= total) {
        throw spaceError(pathSubject(space.name, file.relative), `has no cell ${start}`, { expected: `cells.start from 0 to ${Math.max(0, total - 1)}`, received: String(start), hint: `the notebook has ${total} cells` });
      }
      const includeOutputs = args.include_outputs ?? args.includeOutputs ?? true;
      const cells: NotebookCell[] = [];
      let bytes = 0;
      let nextCell: number | null = null;
      for (let i = start; i < end; i++) {
        const cell = notebook.cells[i] as NotebookCell;
        const shown: NotebookCell = includeOutputs || cell.type !== 'code' ? cell : { index: cell.index, type: cell.type, source: cell.source, executionCount: cell.executionCount ?? null };
        const size = Buffer.byteLength(JSON.stringify(shown), 'utf8');
        // A page always holds at least one cell, so paging always advances.
        if (cells.length > 0 && bytes + size > runtime.limits.maxReadBytes) {
          nextCell = i;
          break;
        }
        cells.push(shown);
        bytes += size;
      }
      const answer = (kept: readonly NotebookCell[], cut = false): ReadNotebookResult => {
        const next = kept.length < cells.length ? (kept.at(-1)?.index ?? start - 1) + 1 : nextCell;
        return {
          space: space.name,
          path: file.relative,
          nbformat: notebook.nbformat,
          ...(notebook.language !== undefined ? { language: notebook.language } : {}),
          ...(notebook.kernel !== undefined ? { kernel: notebook.kernel } : {}),
          ...(notebook.title !== undefined ? { title: notebook.title } : {}),
          cellCount: total,
          cells: [...kept],
          nextCell: next,
          truncated: next !== null || cut,
        };
      };
      // Fewer cells while they do not fit in one answer (at least one, so paging advances)…
      const fitted = capItems(cells, runtime.budget, (kept) => answer(kept), Math.min(1, cells.length)).result;
      if (fitted.cells.length !== 1 || runtime.budget.fits(fitted)) return fitted;
      // …and a single cell larger than an answer is shown cut, its head and tail kept.
      const only = fitted.cells[0] as NotebookCell;
      const shorter = (chars: number) => answer([cutCell(only, chars)], true);
      return fitAnswer(runtime.budget, (maxChars) => shorter(Math.max(0, largestFitting(0, maxChars, (chars) => JSON.stringify(shorter(chars)).length <= maxChars))));
    },
  });
}
