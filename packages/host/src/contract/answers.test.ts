import { z } from 'zod';
import { describe, expect, it } from 'vitest';
import { ErrorCodes, isReactorError, type ReactorError } from '../kernel/errors.js';
import { cursorMismatch, decodeCursor, encodeCursor, omittedMarker, readLimit, truncateMiddle } from './answers.js';

function thrown(run: () => unknown): ReactorError {
  try {
    run();
  } catch (error) {
    if (isReactorError(error)) return error;
    throw error;
  }
  throw new Error('expected a ReactorError, nothing was thrown');
}

describe('a cursor (encodeCursor / decodeCursor)', () => {
  const Page = z.object({ folder: z.string(), after: z.string() });

  it('gives back the state it carries, as an opaque base64url string', () => {
    const cursor = encodeCursor({ folder: 'src', after: 'src/é.ts' });
    expect(cursor).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(decodeCursor(cursor, Page, { tool: 'list_files' })).toEqual({ folder: 'src', after: 'src/é.ts' });
  });

  it('refuses a garbled cursor, naming the tool and saying to call again without it', () => {
    const error = thrown(() => decodeCursor('not a cursor!', Page, { tool: 'list_files', extension: 'spaces' }));
    expect(error.code).toBe(ErrorCodes.CURSOR_INVALID);
    expect(error.code).toBe('REACTOR_CURSOR_INVALID');
    expect(error.extension).toBe('spaces');
    expect(error.message).toContain('tool "list_files"');
    expect(error.hint).toBe('call list_files again without cursor to start from the beginning');
  });

  it('refuses a forged cursor (valid base64url JSON of another shape), or one of JSON that is not', () => {
    expect(thrown(() => decodeCursor(encodeCursor({ folder: 1 }), Page, { tool: 'list_runs' })).code).toBe(ErrorCodes.CURSOR_INVALID);
    expect(thrown(() => decodeCursor(Buffer.from('{oops').toString('base64url'), Page, { tool: 'list_runs' })).message).toContain('is not a cursor this tool made');
  });

  it('names another argument when the cursor is not called cursor', () => {
    const error = thrown(() => decodeCursor('%%', Page, { tool: 'get_run', argument: 'resultsCursor' }));
    expect(error.hint).toBe('call get_run again without resultsCursor to start from the beginning');
  });

  it('cursorMismatch says what the cursor belongs to', () => {
    const error = cursorMismatch(encodeCursor({ folder: 'a', after: '' }), { tool: 'list_files', expected: 'a cursor for folder "b"' });
    expect(error.code).toBe(ErrorCodes.CURSOR_INVALID);
    expect(error.message).toContain('belongs to another call; expected a cursor for folder "b"');
  });
});

describe('truncateMiddle', () => {
  it('leaves a short text alone', () => {
    expect(truncateMiddle('short', 10)).toBe('short');
  });

  it('keeps the head and the tail around one marker, and stays within the limit', () => {
    const text = `${'a'.repeat(700)}${'b'.repeat(300)}`;
    const cut = truncateMiddle(text, 200);
    expect(cut.length).toBeLessThanOrEqual(200);
    expect(cut.startsWith('aaa')).toBe(true);
    expect(cut.endsWith('bbb')).toBe(true);
    const omitted = Number(/\[([\d,]+) characters omitted\]/.exec(cut)![1]!.replace(/,/g, ''));
    expect(cut.length - omittedMarker(omitted).length + omitted).toBe(text.length);
  });

  it('never splits a surrogate pair', () => {
    const cut = truncateMiddle('😀'.repeat(200), 101);
    expect(cut).not.toMatch(/[\ud800-\udbff](?![\udc00-\udfff])/);
    expect(cut).not.toMatch(/(?<![\ud800-\udbff])[\udc00-\udfff]/);
  });
});

describe('readLimit', () => {
  const base = { extension: 'spaces', option: 'maxResponseTokens', variable: 'REACTOR_SPACES_MAX_RESPONSE_TOKENS', default: 10_000, min: 500 } as const;

  it('takes the option, else the environment variable, else the default', () => {
    expect(readLimit({ ...base, value: 2000, env: { REACTOR_SPACES_MAX_RESPONSE_TOKENS: '3000' } })).toBe(2000);
    expect(readLimit({ ...base, value: undefined, env: { REACTOR_SPACES_MAX_RESPONSE_TOKENS: ' 3000 ' } })).toBe(3000);
    expect(readLimit({ ...base, value: undefined, env: { REACTOR_SPACES_MAX_RESPONSE_TOKENS: '' } })).toBe(10_000);
    expect(readLimit({ ...base, value: undefined, env: {} })).toBe(10_000);
  });

  it('names the environment variable when its value is bad', () => {
    const error = thrown(() => readLimit({ ...base, value: undefined, env: { REACTOR_SPACES_MAX_RESPONSE_TOKENS: '10k' } }));
    expect(error.code).toBe(ErrorCodes.OPTION_INVALID);
    expect(error.message).toBe(
      'environment variable REACTOR_SPACES_MAX_RESPONSE_TOKENS of extension "spaces": is invalid; expected a whole number of at least 500, received "10k"; hint: unset REACTOR_SPACES_MAX_RESPONSE_TOKENS for the default (10000)',
    );
  });

  it('names the option when its value is bad, and checks the range', () => {
    expect(thrown(() => readLimit({ ...base, value: 12.5 })).message).toContain('option "maxResponseTokens" of extension "spaces"');
    expect(thrown(() => readLimit({ ...base, value: 100 })).expected).toBe('a whole number of at least 500');
    expect(thrown(() => readLimit({ ...base, value: '2000' })).received).toBe('"2000"');
    expect(thrown(() => readLimit({ ...base, value: 9e9, max: 1e6 })).expected).toBe('a whole number from 500 to 1000000');
  });
});
