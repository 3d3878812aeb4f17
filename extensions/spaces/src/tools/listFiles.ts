/** `list_files`: what a folder of a space holds. */
import { z } from 'zod';
import { mimeTypeOf } from '../fileTypes.js';
import type { SpacesRuntime } from '../runtime.js';
import { resolveFolder } from '../safePath.js';
import { walk } from '../walk.js';
import { defineSpacesTool, pathArg, READ_ONLY_LOCAL, spaceArg } from './common.js';

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
  truncated: z.boolean().describe('True when the listing hit its bound; list a subfolder instead.'),
});

/** Makes the `list_files` tool. */
export function createListFilesTool(runtime: SpacesRuntime) {
  return defineSpacesTool({
    name: 'list_files',
    title: 'List files',
    description:
      'List the files and folders in a space, or in one of its folders. Set recursive to list everything below it. Hidden files (names starting with ".") are never listed.',
    inputSchema: z.object({
      space: spaceArg,
      path: pathArg.default('').describe('The folder to list, relative to the space; omit for the space\'s root.'),
      recursive: z.boolean().default(false).describe('List subfolders\' contents too.'),
    }),
    outputSchema: listFilesOutput,
    annotations: READ_ONLY_LOCAL,
    handler: async (args, ctx): Promise<z.infer<typeof listFilesOutput>> => {
      const space = await runtime.space(args.space);
      const folder = await resolveFolder(space, args.path);
      const walked = await walk(space, folder, { recursive: args.recursive, maxEntries: runtime.limits.maxWalkEntries, signal: ctx.signal });
      return {
        space: space.name,
        path: folder.relative,
        entries: walked.entries.map((e) => ({
          path: e.path,
          name: e.name,
          type: e.type,
          size: e.size,
          ...(e.type === 'file' ? { mimeType: mimeTypeOf(e.path) } : {}),
          modified: e.modified,
        })),
        truncated: walked.truncated,
      };
    },
  });
}
