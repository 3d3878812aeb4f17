/**
 * Reading a page of a text file without decoding the whole file. `read_file`
 * counts offsets in characters (UTF-16 code units, as JavaScript counts them),
 * which a byte position does not give; so each file gets, once per version
 * (size and modification time), an index: its length in characters and, every
 * 64 KiB, a byte position on a character boundary with the characters before
 * it. A page then reads and decodes one checkpoint's stretch plus the page
 * (at most ~64 KiB + `maxBytes`), whatever the file's size.
 *
 * Every decode starts on a checkpoint and ends on a character boundary (never
 * inside a UTF-8 sequence), so the pieces add up to exactly what decoding the
 * whole file gives — invalid bytes included, each replaced by U+FFFD.
 */
import { promises as fs } from 'node:fs';
import type { FileHandle } from 'node:fs/promises';

/** Bytes between two checkpoints of the index. */
export const CHECKPOINT_BYTES = 64 * 1024;

/** How many file versions the index cache of one `read_file` tool keeps. */
export const MAX_INDEXED_FILES = 64;

/** A file's length in characters and where its characters start, every {@link CHECKPOINT_BYTES}. */
export interface TextIndex {
  readonly totalChars: number;
  /** Byte positions on character boundaries, from 0 to the file's size. */
  readonly bytes: readonly number[];
  /** The characters before each of `bytes`. */
  readonly chars: readonly number[];
}

/** One stretch of decoded text: the characters from `startChar`, ending on a character boundary. */
interface Stretch {
  readonly text: string;
  readonly startChar: number;
}

// At the start of the file a byte-order mark is dropped (as the 1.0 whole-file decode did); elsewhere U+FEFF is text.
function decode(bytes: Uint8Array, atStart: boolean): string {
  return new TextDecoder('utf-8', { ignoreBOM: !atStart }).decode(bytes);
}

// The largest position <= `end` that does not fall inside a UTF-8 sequence (backs off over at most 3 continuation bytes).
function charBoundary(buf: Uint8Array, end: number): number {
  for (let p = end; p > 0 && p >= end - 3; p--) if (((buf[p] ?? 0) & 0xc0) !== 0x80) return p;
  return end;
}

/** Reads `[start, end)` of an open file, ended on a character boundary unless `end` is the file's end. */
async function readStretch(handle: FileHandle, start: number, end: number, size: number): Promise<Uint8Array> {
  // One byte past `end` is read, to know whether `end` itself starts a character.
  const want = Math.max(0, end - start + (end < size ? 1 : 0));
  const buf = Buffer.allocUnsafe(want);
  const { bytesRead } = want === 0 ? { bytesRead: 0 } : await handle.read(buf, 0, want, start);
  if (bytesRead <= end - start) return buf.subarray(0, bytesRead); // the end of the file (or it shrank)
  return buf.subarray(0, charBoundary(buf, end - start));
}

/** Reads a file once, in checkpoint-sized stretches, to index it. */
export async function buildTextIndex(handle: FileHandle, size: number, signal?: AbortSignal): Promise<TextIndex> {
  const bytes = [0];
  const chars = [0];
  let position = 0;
  let total = 0;
  while (position < size) {
    signal?.throwIfAborted();
    const stretch = await readStretch(handle, position, Math.min(size, position + CHECKPOINT_BYTES), size);
    if (stretch.length === 0) break; // the file shrank while being read
    total += decode(stretch, position === 0).length;
    position += stretch.length;
    bytes.push(position);
    chars.push(total);
  }
  return { totalChars: total, bytes, chars };
}

// The last checkpoint at or before a character offset.
function checkpointAt(index: TextIndex, charOffset: number): number {
  let low = 0;
  let high = index.chars.length - 1;
  while (low < high) {
    const middle = Math.ceil((low + high) / 2);
    if ((index.chars[middle] ?? 0) <= charOffset) low = middle;
    else high = middle - 1;
  }
  return low;
}

/**
 * The text from character `offset` on, at least `maxBytes` of UTF-8 of it
 * (or to the end): decoded from the checkpoint before `offset`.
 */
export async function readFrom(handle: FileHandle, size: number, index: TextIndex, offset: number, maxBytes: number): Promise<Stretch> {
  const at = checkpointAt(index, offset);
  const start = index.bytes[at] ?? 0;
  const end = Math.min(size, start + CHECKPOINT_BYTES + maxBytes + 4);
  const text = decode(await readStretch(handle, start, end, size), start === 0);
  return { text: text.slice(offset - (index.chars[at] ?? 0)), startChar: offset };
}

/** The characters before byte `position` (a character boundary). */
export async function charsBefore(handle: FileHandle, size: number, index: TextIndex, position: number): Promise<number> {
  let at = index.bytes.length - 1;
  while (at > 0 && (index.bytes[at] ?? 0) > position) at--;
  const start = index.bytes[at] ?? 0;
  if (start === position) return index.chars[at] ?? 0;
  return (index.chars[at] ?? 0) + decode(await readStretch(handle, start, position, size), start === 0).length;
}

/**
 * The file's tail: the text of its last `maxBytes` bytes (fewer when that
 * would split a character), starting on a character boundary.
 */
export async function readTail(handle: FileHandle, size: number, index: TextIndex, maxBytes: number): Promise<Stretch> {
  let start = Math.max(0, size - maxBytes);
  if (start > 0) {
    const head = Buffer.alloc(4);
    const { bytesRead } = await handle.read(head, 0, 4, start);
    let skip = 0;
    while (skip < bytesRead && ((head[skip] ?? 0) & 0xc0) === 0x80) skip++;
    start += skip;
  }
  const text = decode(await readStretch(handle, start, size, size), start === 0);
  return { text, startChar: index.totalChars - text.length };
}

/**
 * A bounded cache of indexes by file version (path, size, modification
 * time): the oldest is dropped past {@link MAX_INDEXED_FILES}. A changed
 * file has a new version, so it is indexed anew.
 */
export function createTextIndexCache(max = MAX_INDEXED_FILES) {
  const cache = new Map<string, TextIndex>();
  return {
    /** The index of an open file, built on first use. */
    async get(handle: FileHandle, absolute: string, signal?: AbortSignal): Promise<{ index: TextIndex; size: number }> {
      const stats = await handle.stat();
      const key = `${stats.size}:${stats.mtimeMs}:${absolute}`;
      let index = cache.get(key);
      if (index === undefined) {
        index = await buildTextIndex(handle, stats.size, signal);
        if (cache.size >= max) cache.delete(cache.keys().next().value as string);
        cache.set(key, index);
      } else {
        cache.delete(key);
        cache.set(key, index);
      }
      return { index, size: stats.size };
    },
    get size(): number {
      return cache.size;
    },
  };
}

/** Opens a file for reading, runs `use`, and closes it. */
export async function withFile<T>(absolute: string, use: (handle: FileHandle) => Promise<T>): Promise<T> {
  const handle = await fs.open(absolute, 'r');
  try {
    return await use(handle);
  } finally {
    await handle.close();
  }
}
