/** `read_notebook`: a notebook's cells with their outputs, summarised. */
import { z } from 'zod';
import { pathSubject, spaceError } from '../errors.js';
import { fileOfPath, readNotebookFile } from '../files.js';
import type { NotebookCell } from '../notebook.js';
import type { SpacesRuntime } from '../runtime.js';
import { resolveFile } from '../safePath.js';
import { defineSpacesTool, pathArg, READ_ONLY_LOCAL, spaceArg } from './common.js';

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
});

/** Makes the `read_notebook` tool. */
export function createReadNotebookTool(runtime: SpacesRuntime) {
  return defineSpacesTool({
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
      includeOutputs: z.boolean().default(true).describe('Include code cells\' outputs.'),
    }),
    outputSchema: readNotebookOutput,
    annotations: READ_ONLY_LOCAL,
    handler: async (args): Promise<z.infer<typeof readNotebookOutput>> => {
      const space = await runtime.space(args.space);
      const file = fileOfPath(await resolveFile(space, args.path));
      const notebook = await readNotebookFile(file, runtime.limits.maxFileBytes, runtime.limits.maxOutputChars);
      const total = notebook.cells.length;
      const start = args.cells?.start ?? 0;
      const end = Math.min(args.cells?.end ?? total, total);
      if (start > 0 && start >= total) {
        throw spaceError(pathSubject(space.name, file.relative), `has no cell ${start}`, { expected: `cells.start from 0 to ${Math.max(0, total - 1)}`, received: String(start), hint: `the notebook has ${total} cells` });
      }
      const cells: NotebookCell[] = [];
      let bytes = 0;
      let nextCell: number | null = null;
      for (let i = start; i < end; i++) {
        const cell = notebook.cells[i] as NotebookCell;
        const shown: NotebookCell = args.includeOutputs || cell.type !== 'code' ? cell : { index: cell.index, type: cell.type, source: cell.source, executionCount: cell.executionCount ?? null };
        const size = Buffer.byteLength(JSON.stringify(shown), 'utf8');
        // A page always holds at least one cell, so paging always advances.
        if (cells.length > 0 && bytes + size > runtime.limits.maxReadBytes) {
          nextCell = i;
          break;
        }
        cells.push(shown);
        bytes += size;
      }
      return {
        space: space.name,
        path: file.relative,
        nbformat: notebook.nbformat,
        ...(notebook.language !== undefined ? { language: notebook.language } : {}),
        ...(notebook.kernel !== undefined ? { kernel: notebook.kernel } : {}),
        ...(notebook.title !== undefined ? { title: notebook.title } : {}),
        cellCount: total,
        cells,
        nextCell,
      };
    },
  });
}
