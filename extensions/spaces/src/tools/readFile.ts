/** `read_file`: one page of a text file — by characters, or by lines from the head or the tail — or an image. */
import { defineTool, fitAnswer, largestFitting, type CallToolResult } from '@reactor/host';
import { z } from 'zod';
import { binaryRefusal, fileOfPath, pageText, spaceFileUri, type FileRef } from '../files.js';
import { pathSubject, spaceError } from '../errors.js';
import { formatBytes, isBinaryByName, looksBinary, mimeTypeOf, SNIFF_BYTES } from '../fileTypes.js';
import type { SpacesRuntime } from '../runtime.js';
import { resolveFile } from '../safePath.js';
import { createTextIndexCache, readFrom, readTail, withFile } from '../textPages.js';
import { pathArg, READ_ONLY_LOCAL, spaceArg } from './common.js';

/** Characters in a page when `limit` is not given. */
export const DEFAULT_PAGE_CHARS = 20_000;

/** Images `read_file` returns as image content (what MCP clients show a model); other binary files are refused. */
export const IMAGE_TYPES: ReadonlySet<string> = new Set(['image/png', 'image/jpeg', 'image/gif', 'image/webp']);

/** The result of `read_file`. */
export const readFileOutput = z.object({
  space: z.string(),
  path: z.string(),
  mimeType: z.string(),
  size: z.number().int().describe('The file\'s size in bytes.'),
  totalChars: z.number().int().describe('The length of the whole text, in characters (0 for an image).'),
  offset: z.number().int().describe('Where this page starts, in characters.'),
  nextOffset: z.number().int().nullable().describe('Pass as offset to read the next page; null when this page reaches the end.'),
  text: z.string(),
  truncated: z.boolean().describe('True when this page holds less than asked for (fewer characters than limit, fewer lines than head or tail) although the file goes on (a page is bounded in bytes and in answer size); continue from nextOffset.'),
  image: z.boolean().optional().describe('True for an image: it comes as image content beside this object, and text is empty.'),
});

type ReadFileResult = z.infer<typeof readFileOutput>;

/** Makes the `read_file` tool. */
export function createReadFileTool(runtime: SpacesRuntime) {
  // Each file version is indexed once (its length in characters, and checkpoints), so a page reads only its own bytes.
  const indexes = createTextIndexCache();
  return defineTool({
    name: 'read_file',
    title: 'Read file',
    description:
      'Read a text file of a space (Markdown, CSV, JSON, code, a notebook\'s raw JSON…) one page at a time, whatever its size. offset and limit count characters; keep calling with offset = nextOffset until nextOffset is null. head: N returns the first N lines from offset, tail: N the last N lines of the file. Images (PNG, JPEG, GIF, WebP) come back as image content; other binary files are refused. For notebooks, read_notebook gives a readable view.',
    inputSchema: z.object({
      space: spaceArg,
      path: pathArg,
      offset: z.number().int().min(0).default(0).describe('The character to start at (0 = the beginning); use the nextOffset of the previous page.'),
      limit: z.number().int().min(1).default(DEFAULT_PAGE_CHARS).describe(`The most characters to return (default ${DEFAULT_PAGE_CHARS}); a page is also bounded in bytes.`),
      head: z.number().int().min(1).optional().describe('Return at most this many lines, starting at offset (e.g. head: 20 for the first 20 lines).'),
      tail: z.number().int().min(1).optional().describe('Return the last this many lines of the file (not with head or offset).'),
    }),
    outputSchema: readFileOutput,
    annotations: READ_ONLY_LOCAL,
    handler: async (args, ctx): Promise<ReadFileResult | CallToolResult> => {
      const space = await runtime.space(args.space);
      const file = fileOfPath(await resolveFile(space, args.path));
      const subject = pathSubject(space.name, file.relative);
      if (args.tail !== undefined && (args.head !== undefined || args.offset > 0)) {
        throw spaceError(subject, 'tail cannot be combined with head or offset', { hint: 'ask for tail alone (the last lines), or head with offset (lines from a point on)' });
      }
      const binaryType = mimeTypeOf(file.relative, true);
      if (isBinaryByName(file.relative)) {
        if (IMAGE_TYPES.has(binaryType)) return await imageAnswer(file, binaryType, runtime.limits.maxImageBytes);
        throw binaryRefusal(file, { mimeType: binaryType });
      }
      return await withFile(file.absolute, async (handle) => {
        const sniff = Buffer.alloc(SNIFF_BYTES);
        const { bytesRead } = await handle.read(sniff, 0, SNIFF_BYTES, 0);
        if (looksBinary(sniff.subarray(0, bytesRead))) throw binaryRefusal(file, { mimeType: binaryType });
        const { index, size } = await indexes.get(handle, file.absolute, ctx.signal);
        const totalChars = index.totalChars;
        const base = { space: space.name, path: file.relative, mimeType: mimeTypeOf(file.relative), size, totalChars };
        const maxBytes = runtime.limits.maxReadBytes;

        if (args.tail !== undefined) {
          const stretch = await readTail(handle, size, index, maxBytes);
          const { start, short } = lastLines(stretch.text, args.tail, stretch.startChar === 0);
          const answer = (text: string, cut: boolean): ReadFileResult => ({ ...base, offset: totalChars - text.length, nextOffset: null, text, truncated: cut });
          const whole = answer(stretch.text.slice(start), short);
          return fitAnswer(runtime.budget, (maxChars) => {
            if (jsonChars(whole) <= maxChars) return whole;
            // Too long for one answer: keep the end, drop lines from the front (never starting inside a surrogate pair).
            const kept = largestFitting(1, whole.text.length - 1, (k) => jsonChars(answer(whole.text.slice(whole.text.length - k), true)) <= maxChars);
            const from = whole.text.length - Math.max(1, kept);
            return answer(whole.text.slice(isLowSurrogate(whole.text.charCodeAt(from)) ? from + 1 : from), true);
          });
        }

        if (args.offset > totalChars) {
          throw spaceError(subject, `offset ${args.offset} is past the end`, { expected: `an offset from 0 to ${totalChars}`, hint: 'start again from offset 0' });
        }
        const stretch = await readFrom(handle, size, index, args.offset, maxBytes);
        const answer = (limit: number): ReadFileResult => {
          const page = pageText(stretch.text, 0, limit, maxBytes, subject);
          const lines = args.head === undefined ? undefined : firstLines(page.text, args.head);
          const text = lines ?? page.text;
          const end = args.offset + text.length;
          const nextOffset = end < totalChars ? end : null;
          const asked = Math.min(args.limit, totalChars - args.offset);
          return { ...base, offset: args.offset, nextOffset, text, truncated: lines === undefined && text.length < asked };
        };
        const whole = answer(args.limit);
        // A page longer than the answer's budget is shortened until it fits (JSON escaping counts: quotes, newlines, control characters).
        return fitAnswer(runtime.budget, (maxChars) => {
          if (jsonChars(whole) <= maxChars) return whole;
          const fits = largestFitting(1, whole.text.length - 1, (limit) => jsonChars(answer(limit)) <= maxChars);
          return { ...answer(Math.max(1, fits)), truncated: true };
        });
      });
    },
  });
}

/** The text up to and including its `count`-th line break; undefined when it holds fewer lines. */
function firstLines(text: string, count: number): string | undefined {
  let at = -1;
  for (let line = 0; line < count; line++) {
    at = text.indexOf('\n', at + 1);
    if (at === -1) return undefined;
  }
  return text.slice(0, at + 1);
}

/**
 * Where the last `count` lines of a file's tail start (a final line break ends
 * the last line, it does not start another). `short` when the tail holds fewer
 * lines than asked although the file starts earlier: then whole lines only, or
 * the tail's text when one line is longer than the tail.
 */
function lastLines(text: string, count: number, wholeFile: boolean): { start: number; short: boolean } {
  const body = text.endsWith('\n') ? text.length - 1 : text.length;
  let at = body;
  for (let line = 0; line < count; line++) {
    const previous = at > 0 ? text.lastIndexOf('\n', at - 1) : -1;
    if (previous === -1) {
      if (wholeFile) return { start: 0, short: false };
      return { start: at === body ? 0 : at + 1, short: true };
    }
    at = previous;
  }
  return { start: at + 1, short: false };
}

/** A value's length as compact JSON, what the budget's character cap counts. */
function jsonChars(value: unknown): number {
  return JSON.stringify(value).length;
}

function isLowSurrogate(code: number): boolean {
  return code >= 0xdc00 && code <= 0xdfff;
}

/** An image as MCP image content, with the usual structured answer beside it; larger than `maxBytes` is refused. */
async function imageAnswer(file: FileRef, mimeType: string, maxBytes: number): Promise<CallToolResult> {
  const uri = spaceFileUri(file.space.name, file.relative);
  if (file.size > maxBytes) {
    throw spaceError(pathSubject(file.space.name, file.relative), `is an image too large to return (${formatBytes(file.size)} ${mimeType})`, {
      expected: `at most ${formatBytes(maxBytes)}`,
      hint: `read the resource ${uri} to get it as a blob`,
    });
  }
  const data = await withFile(file.absolute, async (handle) => {
    const buf = Buffer.alloc(file.size);
    const { bytesRead } = await handle.read(buf, 0, file.size, 0);
    return buf.subarray(0, bytesRead).toString('base64');
  });
  const structured: ReadFileResult = { space: file.space.name, path: file.relative, mimeType, size: file.size, totalChars: 0, offset: 0, nextOffset: null, text: '', truncated: false, image: true };
  return { content: [{ type: 'image', data, mimeType }, { type: 'text', text: JSON.stringify(structured) }], structuredContent: structured };
}
