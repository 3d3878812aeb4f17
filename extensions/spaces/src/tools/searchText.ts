/** `search_text`: lines containing a phrase, across a space. */
import { defineTool } from '@reactor/host';
import { z } from 'zod';
import type { SpacesRuntime } from '../runtime.js';
import { capItems } from '@reactor/host';
import { searchText } from '../search.js';
import { deprecatedName, READ_ONLY_LOCAL, spaceArg } from './common.js';

/** Matching lines returned when `max_results` is not given. */
export const DEFAULT_MAX_MATCHES = 50;
const maxResults = z.number().int().min(1).max(500);

const matchSchema = z.object({
  path: z.string(),
  line: z.number().int().describe('1-based; for a notebook, the line within the cell\'s source, or within the whole text of the output named by output.'),
  column: z.number().int().describe('1-based.'),
  text: z.string().describe('The matching line, shortened around the match when long.'),
  cell: z.number().int().optional().describe('Notebooks: the 0-based cell; pass it to read_notebook as cells.start.'),
  inOutput: z.boolean().optional().describe('Notebooks: true when the match is in the cell\'s outputs.'),
  output: z.number().int().optional().describe('Notebooks, matches in an output: which output of the cell (0-based).'),
});

/** The result of `search_text`. */
export const searchTextOutput = z.object({
  space: z.string(),
  query: z.string(),
  matches: z.array(matchSchema),
  filesSearched: z.number().int(),
  filesSkipped: z.number().int().describe('Files too large or unreadable.'),
  truncated: z.boolean().describe('True when matches were left out: more than max_results, more than fit in one answer, or more files than one search visits.'),
});

/** Makes the `search_text` tool. */
export function createSearchTextTool(runtime: SpacesRuntime) {
  return defineTool({
    name: 'search_text',
    title: 'Search text',
    description:
      'Search the text files and notebooks of a space for a phrase (literal, not a regular expression; case ignored unless case_sensitive). Returns matching lines with their file and line; notebook matches name their cell (and output: the whole output is searched, not only what read_notebook shows). Narrow with glob, e.g. "*.csv", "notebooks/**/*.ipynb" or just "md".',
    inputSchema: z.object({
      space: spaceArg,
      query: z.string().min(1).describe('The phrase to find.'),
      glob: z.string().optional().describe('Only files matching this glob ("*.md", "data/**/*.csv", "*.{md,txt}"), extension ("csv") or file name ("Makefile").'),
      max_results: maxResults.optional().describe(`The most matching lines to return (default ${DEFAULT_MAX_MATCHES}).`),
      case_sensitive: z.boolean().optional().describe('Match case exactly (default false).'),
      maxResults: deprecatedName(maxResults, 'max_results'),
      caseSensitive: deprecatedName(z.boolean(), 'case_sensitive'),
    }),
    outputSchema: searchTextOutput,
    annotations: READ_ONLY_LOCAL,
    // A whole big space takes a while: a client that opts in gets a task, with how far the search got as its status.
    task: 'optional',
    handler: async (args, ctx): Promise<z.infer<typeof searchTextOutput>> => {
      const space = await runtime.space(args.space);
      const found = await searchText(space, args.query, {
        ...(args.glob !== undefined ? { glob: args.glob } : {}),
        maxResults: args.max_results ?? args.maxResults ?? DEFAULT_MAX_MATCHES,
        caseSensitive: args.case_sensitive ?? args.caseSensitive ?? false,
        signal: ctx.signal,
        limits: runtime.limits,
        ...(ctx.task !== undefined ? { onProgress: (visited: number, total: number) => ctx.task?.status(`searched ${visited} of ${total} files of ${space.name}`) } : {}),
      });
      // Matches beyond what one answer carries are left out, and the answer says so.
      const { result, omitted } = capItems(found.matches, runtime.budget, (matches) => ({ space: space.name, query: args.query, ...found, matches: [...matches] }));
      return omitted > 0 ? { ...result, truncated: true } : result;
    },
  });
}
