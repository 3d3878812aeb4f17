/** `read_file`: one page of a text file. */
import { z } from 'zod';
import { fileOfPath, pageText, readText } from '../files.js';
import { pathSubject } from '../errors.js';
import type { SpacesRuntime } from '../runtime.js';
import { resolveFile } from '../safePath.js';
import { defineSpacesTool, pathArg, READ_ONLY_LOCAL, spaceArg } from './common.js';

/** Characters in a page when `limit` is not given. */
export const DEFAULT_PAGE_CHARS = 20_000;

/** The result of `read_file`. */
export const readFileOutput = z.object({
  space: z.string(),
  path: z.string(),
  mimeType: z.string(),
  size: z.number().int().describe('The file\'s size in bytes.'),
  totalChars: z.number().int().describe('The length of the whole text, in characters.'),
  offset: z.number().int().describe('Where this page starts, in characters.'),
  nextOffset: z.number().int().nullable().describe('Pass as offset to read the next page; null when this page reaches the end.'),
  text: z.string(),
});

/** Makes the `read_file` tool. */
export function createReadFileTool(runtime: SpacesRuntime) {
  return defineSpacesTool({
    name: 'read_file',
    title: 'Read file',
    description:
      'Read a text file of a space (Markdown, CSV, JSON, code, a notebook\'s raw JSON…) one page at a time. offset and limit count characters; keep calling with offset = nextOffset until nextOffset is null. Binary files (images, archives…) are refused. For notebooks, read_notebook gives a readable view.',
    inputSchema: z.object({
      space: spaceArg,
      path: pathArg,
      offset: z.number().int().min(0).default(0).describe('The character to start at (0 = the beginning); use the nextOffset of the previous page.'),
      limit: z.number().int().min(1).default(DEFAULT_PAGE_CHARS).describe(`The most characters to return (default ${DEFAULT_PAGE_CHARS}); a page is also bounded in bytes.`),
    }),
    outputSchema: readFileOutput,
    annotations: READ_ONLY_LOCAL,
    handler: async (args): Promise<z.infer<typeof readFileOutput>> => {
      const space = await runtime.space(args.space);
      const file = fileOfPath(await resolveFile(space, args.path));
      const { text, mimeType } = await readText(file, runtime.limits.maxFileBytes);
      const page = pageText(text, args.offset, args.limit, runtime.limits.maxReadBytes, pathSubject(space.name, file.relative));
      return { space: space.name, path: file.relative, mimeType, size: file.size, totalChars: text.length, offset: page.offset, nextOffset: page.nextOffset, text: page.text };
    },
  });
}
