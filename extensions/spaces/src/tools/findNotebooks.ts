/** `find_notebooks`: notebooks by name or content, in one space or all. */
import { defineTool } from '@reactor/host';
import { z } from 'zod';
import type { SpacesRuntime } from '../runtime.js';
import { capItems } from '@reactor/host';
import { findNotebooks } from '../search.js';
import { deprecatedName, READ_ONLY_LOCAL } from './common.js';

/** Notebooks returned when `max_results` is not given. */
export const DEFAULT_MAX_NOTEBOOKS = 20;
const maxResults = z.number().int().min(1).max(200);

const hitSchema = z.object({
  space: z.string(),
  path: z.string().describe('Pass to read_notebook.'),
  title: z.string().optional().describe('The notebook\'s first Markdown heading.'),
  cellCount: z.number().int(),
  matchedIn: z.array(z.enum(['name', 'source', 'output'])).describe('Where the query\'s words were found: the file name, cell sources, cell outputs.'),
  snippets: z.array(z.object({ cell: z.number().int(), where: z.enum(['source', 'output']), text: z.string() })).describe('Up to three matching cells, with a matching line.'),
});

/** The result of `find_notebooks`. */
export const findNotebooksOutput = z.object({
  query: z.string(),
  notebooks: z.array(hitSchema),
  skipped: z.array(z.object({ space: z.string(), path: z.string(), reason: z.string() })).describe('Notebooks that could not be read or parsed.'),
  truncated: z.boolean().describe('True when something was left out: more notebooks matched than max_results or than fit in one answer, a space held more files than one search visits, or skipped notebooks beyond what fits.'),
});

/** Makes the `find_notebooks` tool. */
export function createFindNotebooksTool(runtime: SpacesRuntime) {
  return defineTool({
    name: 'find_notebooks',
    title: 'Find notebooks',
    description:
      'Find Jupyter notebooks whose file name or cells (code, Markdown and outputs) contain every word of the query, ignoring case — e.g. a dataset\'s file name, a library, a result. Searches every space unless one is given; an empty query lists all notebooks. Name matches come first.',
    inputSchema: z.object({
      space: z.string().min(1).optional().describe('Search only this space; omit to search all.'),
      query: z.string().default('').describe('Words to look for, e.g. "global_temperatures.csv" or "logistic regression".'),
      max_results: maxResults.optional().describe(`The most notebooks to return (default ${DEFAULT_MAX_NOTEBOOKS}).`),
      maxResults: deprecatedName(maxResults, 'max_results'),
    }),
    outputSchema: findNotebooksOutput,
    annotations: READ_ONLY_LOCAL,
    handler: async (args, ctx): Promise<z.infer<typeof findNotebooksOutput>> => {
      const spaces = args.space === undefined ? await runtime.spaces() : [await runtime.space(args.space)];
      const found = await findNotebooks(spaces, args.query, { maxResults: args.max_results ?? args.maxResults ?? DEFAULT_MAX_NOTEBOOKS, signal: ctx.signal, limits: runtime.limits });
      const max = runtime.budget;
      // Notebooks beyond what one answer carries go first, then the list of skipped ones.
      const byHits = capItems(found.notebooks, max, (notebooks) => ({ query: args.query, ...found, notebooks: [...notebooks], skipped: [] }));
      const bySkipped = capItems(found.skipped, max, (skipped) => ({ ...byHits.result, skipped: [...skipped] }));
      const cut = byHits.omitted > 0 || bySkipped.omitted > 0;
      return cut ? { ...bySkipped.result, truncated: true } : bySkipped.result;
    },
  });
}
