/** `list_files`: what a folder of a space holds, a page at a time. */
import { defineTool } from '@reactor/host';
import { z } from 'zod';
import { mimeTypeOf } from '../fileTypes.js';
import { capItems, cursorMismatch, decodeCursor, encodeCursor } from '@reactor/host';
import { EXTENSION_NAME } from '../errors.js';
import type { SpacesRuntime } from '../runtime.js';
import { resolveFolder } from '../safePath.js';
import { compareTreePaths, walk } from '../walk.js';
import { pathArg, READ_ONLY_LOCAL, spaceArg } from './common.js';

/** The most entries a page may ask for; a page without `limit` holds as many as fit the answer's token budget, up to this. */
export const MAX_LIST_LIMIT = 5000;

const entrySchema = z.object({
  path: z.string().describe('Relative to the space; pass it to read_file or read_notebook.'),
  name: z.string(),
  type: z.enum(['file', 'directory']),
  size: z.number().int().describe('Bytes (0 for folders).'),
  mimeType: z.string().optional().describe('Files: the MIME type their extension suggests.'),
  modified: z.string().describe('Last modification, ISO 8601.'),
});

/** The result of `list_files`. */
export const listFilesOutput = z.object({
  space: z.string(),
  path: z.string().describe('The folder listed, relative to the space ("" for its root).'),
  entries: z.array(entrySchema),
  nextCursor: z.string().nullable().describe('Pass as cursor (with the same space, path and recursive) to get the next page; null on the last page.'),
  truncated: z
    .boolean()
    .describe('True when entries were left out of this answer: more pages follow (nextCursor), or the folder holds more entries than one listing visits (list a subfolder).'),
});

type ListFilesResult = z.infer<typeof listFilesOutput>;

/** Makes the `list_files` tool. */
export function createListFilesTool(runtime: SpacesRuntime) {
  return defineTool({
    name: 'list_files',
    title: 'List files',
    description:
      'List the files and folders in a space, or in one of its folders. Set recursive to list everything below it. Long listings come in pages: call again with cursor = nextCursor until it is null. Hidden files (names starting with ".") are never listed.',
    inputSchema: z.object({
      space: spaceArg,
      path: pathArg.default('').describe('The folder to list, relative to the space; omit for the space\'s root.'),
      recursive: z.boolean().default(false).describe('List subfolders\' contents too.'),
      limit: z.number().int().min(1).max(MAX_LIST_LIMIT).optional().describe('The most entries in this page; omit for as many as fit one answer (a page is always bounded in size).'),
      cursor: z.string().optional().describe('The nextCursor of the previous page; omit for the first page.'),
    }),
    outputSchema: listFilesOutput,
    annotations: READ_ONLY_LOCAL,
    handler: async (args, ctx): Promise<ListFilesResult> => {
      const space = await runtime.space(args.space);
      const folder = await resolveFolder(space, args.path);
      const listing = { space: space.name, path: folder.relative, recursive: args.recursive };
      const after = args.cursor === undefined ? undefined : afterOf(args.cursor, listing);
      const walked = await walk(space, folder, { recursive: args.recursive, maxEntries: runtime.limits.maxWalkEntries, signal: ctx.signal });
      const remaining = after === undefined ? walked.entries : walked.entries.filter((e) => compareTreePaths(e.path, after) > 0);
      const entries = remaining.map((e) => ({
        path: e.path,
        name: e.name,
        type: e.type,
        size: e.size,
        ...(e.type === 'file' ? { mimeType: mimeTypeOf(e.path) } : {}),
        modified: e.modified,
      }));
      const page = (kept: readonly ListFilesResult['entries'][number][]): ListFilesResult => {
        const more = kept.length < entries.length;
        const last = kept.at(-1);
        return {
          space: listing.space,
          path: listing.path,
          entries: [...kept],
          nextCursor: more && last !== undefined ? encodeCursor({ v: CURSOR_VERSION, s: listing.space, p: listing.path, r: listing.recursive, a: last.path }) : null,
          truncated: more || walked.truncated,
        };
      };
      // The asked-for limit first, then as many of those as fit in one answer (at least one, so paging advances).
      return capItems(entries.slice(0, args.limit ?? MAX_LIST_LIMIT), runtime.budget, (kept) => page(kept), Math.min(1, entries.length)).result;
    },
  });
}

/*
 * The cursor names the listing it continues (space, folder, recursive) and the
 * last path already returned. Continuing *after a path* rather than at a
 * position keeps pages right when files are added or removed between calls:
 * nothing is repeated, and nothing that existed on both calls is skipped.
 */
const CURSOR_VERSION = 1;
const listCursor = z.object({ v: z.literal(CURSOR_VERSION), s: z.string(), p: z.string(), r: z.boolean(), a: z.string() });

function afterOf(cursor: string, listing: { readonly space: string; readonly path: string; readonly recursive: boolean }): string {
  const state = decodeCursor(cursor, listCursor, { tool: 'list_files', extension: EXTENSION_NAME });
  if (state.s !== listing.space || state.p !== listing.path || state.r !== listing.recursive) {
    throw cursorMismatch(cursor, {
      tool: 'list_files',
      extension: EXTENSION_NAME,
      expected: `the nextCursor of a previous list_files call for space ${JSON.stringify(listing.space)}, path ${JSON.stringify(listing.path)}, recursive ${String(listing.recursive)}`,
    });
  }
  return state.a;
}
