/**
 * Reading a checked file: is it text or binary, its text (bounded by the
 * largest file the extension loads), and one page of that text.
 */
import { promises as fs } from 'node:fs';
import { pathSubject, spaceError } from './errors.js';
import { formatBytes, isBinaryByName, looksBinary, mimeTypeOf } from './fileTypes.js';
import { parseNotebook, type Notebook } from './notebook.js';
import type { ResolvedPath } from './safePath.js';
import type { Space } from './spaceRoots.js';
import type { WalkEntry } from './walk.js';

/** A file found inside a space (checked by `resolveFile` or found by `walk`). */
export interface FileRef {
  readonly space: Space;
  /** `/`-separated, relative to the space. */
  readonly relative: string;
  /** The real path on disk. */
  readonly absolute: string;
  /** Bytes. */
  readonly size: number;
}

/** The file of a resolved path. */
export function fileOfPath(resolved: ResolvedPath): FileRef {
  return { space: resolved.space, relative: resolved.relative, absolute: resolved.absolute, size: resolved.stats.size };
}

/** The file of a walk entry. */
export function fileOfEntry(space: Space, entry: WalkEntry): FileRef {
  return { space, relative: entry.path, absolute: entry.absolute, size: entry.size };
}

/** Throws when a file is larger than the extension loads at once. */
export function assertLoadable(file: FileRef, maxFileBytes: number): void {
  if (file.size > maxFileBytes) {
    throw spaceError(pathSubject(file.space.name, file.relative), `is too large to load (${formatBytes(file.size)})`, {
      expected: `at most ${formatBytes(maxFileBytes)}`,
      // Not search_text: it skips exactly these files. read_file pages a file of any size.
      hint: 'read it in pages with read_file (offset and limit, or head or tail line counts)',
    });
  }
}

/** The refusal a binary file gets from the text tools. */
export function binaryRefusal(file: FileRef, kind: { readonly mimeType: string }): Error {
  const uri = spaceFileUri(file.space.name, file.relative);
  return spaceError(pathSubject(file.space.name, file.relative), `binary file: ${formatBytes(file.size)} ${kind.mimeType}, not text`, {
    hint: `read the resource ${uri} to get it as a blob, or list_files to find text files`,
  });
}

/** A file's content as the text tools see it: its text, or the news that it is binary. */
export type LoadedText = { readonly binary: false; readonly text: string; readonly mimeType: string } | { readonly binary: true; readonly mimeType: string };

/**
 * Loads a file as text, reading it once: binary by extension (not read at
 * all), too large (throws), binary by a NUL among its first bytes, or text
 * decoded as UTF-8 (a byte-order mark dropped, invalid bytes replaced).
 */
export async function loadText(file: FileRef, maxFileBytes: number): Promise<LoadedText> {
  if (isBinaryByName(file.relative)) return { binary: true, mimeType: mimeTypeOf(file.relative, true) };
  assertLoadable(file, maxFileBytes);
  const bytes = await fs.readFile(file.absolute);
  if (looksBinary(bytes)) return { binary: true, mimeType: mimeTypeOf(file.relative, true) };
  return { binary: false, text: new TextDecoder('utf-8').decode(bytes), mimeType: mimeTypeOf(file.relative) };
}

/** A text file's whole text; binary files and files over `maxFileBytes` are refused with a clear message. */
export async function readText(file: FileRef, maxFileBytes: number): Promise<{ text: string; mimeType: string }> {
  const loaded = await loadText(file, maxFileBytes);
  if (loaded.binary) throw binaryRefusal(file, loaded);
  return loaded;
}

/** One page of a text. */
export interface TextPage {
  readonly text: string;
  readonly offset: number;
  /** Where the next page starts, or null at the end. */
  readonly nextOffset: number | null;
}

/**
 * Cuts one page out of a text: from `offset`, at most `limit` characters
 * (UTF-16 code units, as JavaScript counts them) and at most `maxBytes` of
 * UTF-8, never splitting a surrogate pair. An offset past the end throws.
 */
export function pageText(text: string, offset: number, limit: number, maxBytes: number, subject = 'text'): TextPage {
  if (offset > text.length) {
    throw spaceError(subject, `offset ${offset} is past the end`, { expected: `an offset from 0 to ${text.length}`, hint: 'start again from offset 0' });
  }
  let end = Math.min(text.length, offset + Math.max(1, limit));
  if (Buffer.byteLength(text.slice(offset, end), 'utf8') > maxBytes) {
    // The longest page within the byte budget (bytes grow with the end): binary search.
    let fits = offset + 1;
    let tooLong = end;
    while (tooLong - fits > 1) {
      const middle = Math.floor((fits + tooLong) / 2);
      if (Buffer.byteLength(text.slice(offset, middle), 'utf8') <= maxBytes) fits = middle;
      else tooLong = middle;
    }
    end = fits;
  }
  if (end < text.length && end > offset && isHighSurrogate(text.charCodeAt(end - 1))) end += end - 1 > offset ? -1 : 1;
  return { text: text.slice(offset, end), offset, nextOffset: end < text.length ? end : null };
}

function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}

/** The `spaces://` URI of a file: the space and each path segment percent-encoded. */
export function spaceFileUri(space: string, relative: string): string {
  const encodedPath = relative === '' ? '' : relative.split('/').map(encodeURIComponent).join('/');
  return `spaces://${encodeURIComponent(space)}/${encodedPath}`;
}

/**
 * Reads and parses a notebook file (refusing binary and oversized files like
 * {@link readText}); `fullOutputs` keeps outputs whole, for searching.
 */
export async function readNotebookFile(file: FileRef, maxFileBytes: number, maxOutputChars: number, fullOutputs = false): Promise<Notebook> {
  const { text } = await readText(file, maxFileBytes);
  return parseNotebook(text, { name: `${file.space.name}/${file.relative}`, maxOutputChars, fullOutputs });
}
