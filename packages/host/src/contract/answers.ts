/**
 * Helpers for tool answers sized for a model: an opaque cursor to page with,
 * a head-and-tail cut of a long text (one marker format for every tool), and
 * a numeric limit read from an option or, when the option is not given, an
 * environment variable (a discovered extension gets no options).
 *
 * The first-party extensions use these; an extension author copies them by
 * importing them, never by pasting.
 */
import type { z } from 'zod';
import { ErrorCodes, ReactorError } from '../kernel/errors.js';

/**
 * A cursor for `state`: base64url of its JSON. Opaque to a model, which only
 * hands it back; it carries what the next page needs (say, the last path
 * returned), never a secret — check access again on every call, as the state
 * comes back from the client.
 */
export function encodeCursor(state: unknown): string {
  return Buffer.from(JSON.stringify(state), 'utf8').toString('base64url');
}

/** Where a cursor was given: the tool whose argument it is. */
export interface DecodeCursorOptions {
  /** The tool the cursor was passed to, named in the error. */
  readonly tool: string;
  /** The extension the tool belongs to, stamped on the error. */
  readonly extension?: string;
  /** The argument's name, when it is not `cursor`. */
  readonly argument?: string;
}

/**
 * The state a cursor of {@link encodeCursor} carries, checked with `schema`.
 * Anything else — not base64url, not JSON, not of the schema's shape (a cursor
 * of another tool, or a forged one) — throws `REACTOR_CURSOR_INVALID` naming
 * the tool and saying to call again without the cursor.
 */
export function decodeCursor<S extends z.ZodType>(cursor: string, schema: S, options: DecodeCursorOptions): z.output<S> {
  const argument = options.argument ?? 'cursor';
  let value: unknown;
  try {
    if (!/^[A-Za-z0-9_-]+$/.test(cursor)) throw new Error('not base64url');
    value = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    throw cursorError(cursor, options, argument, 'is not a cursor this tool made');
  }
  const parsed = schema.safeParse(value);
  if (!parsed.success) throw cursorError(cursor, options, argument, 'is not a cursor this tool made');
  return parsed.data;
}

/**
 * The error for a cursor that decodes but does not fit the call (another
 * folder, another query…): `REACTOR_CURSOR_INVALID`, naming the tool, what
 * the cursor belongs to, and saying to call again without it.
 */
export function cursorMismatch(cursor: string, options: DecodeCursorOptions & { readonly expected: string }): ReactorError {
  return cursorError(cursor, options, options.argument ?? 'cursor', 'belongs to another call', options.expected);
}

function cursorError(cursor: string, options: DecodeCursorOptions, argument: string, problem: string, expected?: string): ReactorError {
  const shown = cursor.length > 40 ? `${cursor.slice(0, 40)}…` : cursor;
  return new ReactorError(ErrorCodes.CURSOR_INVALID, {
    subject: `${argument} ${JSON.stringify(shown)} of tool "${options.tool}"`,
    problem,
    expected: expected ?? `the ${argument === 'cursor' ? 'nextCursor' : argument} of a previous ${options.tool} call, unchanged`,
    hint: `call ${options.tool} again without ${argument} to start from the beginning`,
    ...(options.extension === undefined ? {} : { extension: options.extension }),
  });
}

/** The marker {@link truncateMiddle} puts where it cut: one format for every tool. */
export function omittedMarker(characters: number): string {
  return `\n… [${characters.toLocaleString('en-US')} characters omitted] …\n`;
}

/**
 * `text` cut to at most `maxChars` characters (when longer): its head, a
 * marker saying how many characters were left out, its tail. The head gets
 * the larger share (`headShare`, default 0.7): where an output or a file
 * starts usually says most; its tail holds the last lines, or the error.
 * A surrogate pair is never split.
 */
export function truncateMiddle(text: string, maxChars: number, headShare = 0.7): string {
  if (text.length <= maxChars) return text;
  const room = Math.max(0, maxChars - omittedMarker(text.length).length);
  let head = Math.ceil(room * headShare);
  let tail = room - head;
  // Keep surrogate pairs whole: step back off a high surrogate at the head's end or a low one at the tail's start.
  if (head > 0 && isHighSurrogate(text.charCodeAt(head - 1))) head--;
  if (tail > 0 && isLowSurrogate(text.charCodeAt(text.length - tail))) tail--;
  return `${text.slice(0, head)}${omittedMarker(text.length - head - tail)}${tail > 0 ? text.slice(text.length - tail) : ''}`;
}

function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}

function isLowSurrogate(code: number): boolean {
  return code >= 0xdc00 && code <= 0xdfff;
}

/** Where a limit comes from, for {@link readLimit}. */
export interface LimitSource {
  /** The extension whose limit it is, named in the error. */
  readonly extension: string;
  /** The option's name, e.g. `maxResponseTokens`. */
  readonly option: string;
  /** The option's value as passed; `undefined` when not given. */
  readonly value: unknown;
  /** The environment variable read when the option is not given, e.g. `REACTOR_SPACES_MAX_RESPONSE_TOKENS`. */
  readonly variable?: string;
  /** Where the variable is read. Default `process.env`. */
  readonly env?: NodeJS.ProcessEnv;
  /** The value when neither is given. */
  readonly default: number;
  /** The smallest value accepted. Default 1. */
  readonly min?: number;
  /** The largest value accepted. Default none. */
  readonly max?: number;
}

/**
 * A whole-number limit: the option when given, else the environment variable
 * when set (digits only, spaces around ignored), else the default. A value that
 * is not a whole number in range throws `REACTOR_OPTION_INVALID` naming the
 * option or the variable, what was expected and received, and the default.
 */
export function readLimit(source: LimitSource): number {
  const min = source.min ?? 1;
  const fromOption = source.value !== undefined;
  const raw = fromOption ? source.value : source.variable === undefined ? undefined : (source.env ?? process.env)[source.variable]?.trim();
  if (raw === undefined || raw === '') return source.default;
  // The environment holds text: digits there are a number; an option must be a number already.
  const value = !fromOption && typeof raw === 'string' && /^\d+$/.test(raw) ? Number(raw) : raw;
  if (typeof value === 'number' && Number.isSafeInteger(value) && value >= min && (source.max === undefined || value <= source.max)) return value;
  throw new ReactorError(ErrorCodes.OPTION_INVALID, {
    subject: `${fromOption ? `option "${source.option}"` : `environment variable ${source.variable ?? ''}`} of extension "${source.extension}"`,
    problem: 'is invalid',
    expected: source.max === undefined ? `a whole number of at least ${min}` : `a whole number from ${min} to ${source.max}`,
    received: typeof value === 'number' ? String(value) : typeof value === 'string' ? JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value) : typeof value,
    hint: `${fromOption ? 'leave the option out' : `unset ${source.variable ?? 'it'}`} for the default (${source.default})`,
    extension: source.extension,
  });
}
