/** `read_file`: one page of a text file. */
import { fitAnswer, largestFitting } from '@reactor/host';
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
  truncated: z.boolean().describe('True when this page holds fewer characters than limit asked for although the file goes on (a page is bounded in bytes and in answer size); continue from nextOffset.'),
});

type ReadFileResult = z.infer<typeof readFileOutput>;

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
    handler: async (args): Promise<ReadFileResult> => {
      const space = await runtime.space(args.space);
      const file = fileOfPath(await resolveFile(space, args.path));
      const { text, mimeType } = await readText(file, runtime.limits.maxFileBytes);
      const subject = pathSubject(space.name, file.relative);
      const answer = (limit: number): ReadFileResult => {
        const page = pageText(text, args.offset, limit, runtime.limits.maxReadBytes, subject);
        const asked = Math.min(args.limit, text.length - args.offset);
        return { space: space.name, path: file.relative, mimeType, size: file.size, totalChars: text.length, offset: page.offset, nextOffset: page.nextOffset, text: page.text, truncated: page.text.length < asked };
      };
      // A page longer than the answer's budget is shortened until it fits (JSON escaping counts: quotes, newlines, control characters).
      return fitAnswer(runtime.budget, (maxChars) => {
        const whole = answer(args.limit);
        if (JSON.stringify(whole).length <= maxChars) return whole;
        return answer(Math.max(1, largestFitting(1, whole.text.length - 1, (limit) => JSON.stringify(answer(limit)).length <= maxChars)));
      });
    },
  });
}
