/**
 * The cursor of `list_files`: opaque to a model, it names the listing it
 * continues (space, folder, recursive) and the last path already returned.
 * Continuing *after a path* rather than at a position keeps pages right when
 * files are added or removed between calls: nothing is repeated, and nothing
 * that existed on both calls is skipped.
 */
import { spaceError } from './errors.js';

/** What a cursor carries. */
export interface ListCursor {
  readonly space: string;
  readonly path: string;
  readonly recursive: boolean;
  /** The last path of the previous page (tree order). */
  readonly after: string;
}

const VERSION = 1;

/** Encodes a cursor (base64url of a small JSON object). */
export function encodeListCursor(cursor: ListCursor): string {
  return Buffer.from(JSON.stringify({ v: VERSION, s: cursor.space, p: cursor.path, r: cursor.recursive, a: cursor.after }), 'utf8').toString('base64url');
}

/**
 * Decodes a cursor and checks it belongs to this listing. Anything else — not
 * base64url JSON, another version, another space, folder or `recursive` —
 * throws naming what was expected and how to start over.
 */
export function decodeListCursor(text: string, listing: Omit<ListCursor, 'after'>): ListCursor {
  const refuse = (problem: string): never => {
    throw spaceError(`cursor ${JSON.stringify(text.length > 40 ? `${text.slice(0, 40)}…` : text)} of list_files`, problem, {
      expected: `the nextCursor of a previous list_files call for space ${JSON.stringify(listing.space)}, path ${JSON.stringify(listing.path)}, recursive ${String(listing.recursive)}`,
      hint: 'omit cursor to list from the beginning',
    });
  };
  let value: unknown;
  try {
    if (!/^[A-Za-z0-9_-]+$/.test(text)) throw new Error('not base64url');
    value = JSON.parse(Buffer.from(text, 'base64url').toString('utf8'));
  } catch {
    return refuse('is not a cursor list_files made');
  }
  const record = (typeof value === 'object' && value !== null ? value : {}) as Record<string, unknown>;
  if (record.v !== VERSION || typeof record.s !== 'string' || typeof record.p !== 'string' || typeof record.r !== 'boolean' || typeof record.a !== 'string') {
    return refuse('is not a cursor list_files made');
  }
  if (record.s !== listing.space || record.p !== listing.path || record.r !== listing.recursive) {
    return refuse('belongs to another listing');
  }
  return { space: record.s, path: record.p, recursive: record.r, after: record.a };
}
