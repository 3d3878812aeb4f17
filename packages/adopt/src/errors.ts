/**
 * Errors of adoption, in the host's message shape: *subject*: *what happened*;
 * expected *x*, received *y*; hint: *what to do*. Codes are stable strings so
 * callers and tests match on `code`, never on prose.
 */

/** The stable codes `@reactor/adopt` raises. */
export const AdoptErrorCodes = {
  /** The server cannot be adopted faithfully (own tools/call handler, connect(), tasks under `strict`…). */
  REFUSED: 'REACTOR_ADOPT_REFUSED',
  /** An option of `adoptServer`/`adoptProcess`/`adoptRemote` or an `adopt` entry is invalid. */
  OPTION_INVALID: 'REACTOR_ADOPT_OPTION_INVALID',
  /** The adopted process or remote server is down (exited, restarting, unreachable). */
  UPSTREAM_DOWN: 'REACTOR_ADOPT_UPSTREAM_DOWN',
  /** A call reached for the live server outside any call (a timer, a module-level send). */
  OUTSIDE_CALL: 'REACTOR_ADOPT_OUTSIDE_CALL',
} as const;

/** One of {@link AdoptErrorCodes}' values. */
export type AdoptErrorCode = (typeof AdoptErrorCodes)[keyof typeof AdoptErrorCodes];

/** What an {@link AdoptError} says. */
export interface AdoptErrorDetails {
  readonly subject: string;
  readonly problem: string;
  readonly expected?: string;
  readonly received?: string;
  readonly hint?: string;
  readonly cause?: unknown;
}

/** The one error class of `@reactor/adopt`. */
export class AdoptError extends Error {
  readonly code: AdoptErrorCode;
  readonly details: AdoptErrorDetails;

  constructor(code: AdoptErrorCode, details: AdoptErrorDetails) {
    const parts = [`${details.subject}: ${details.problem}`];
    if (details.expected !== undefined || details.received !== undefined) {
      parts.push(`expected ${details.expected ?? '(unspecified)'}, received ${details.received ?? '(unspecified)'}`);
    }
    if (details.hint !== undefined) parts.push(`hint: ${details.hint}`);
    super(parts.join('; '), details.cause === undefined ? undefined : { cause: details.cause });
    this.name = 'AdoptError';
    this.code = code;
    this.details = details;
  }
}

/** The message of anything thrown. */
export function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
