/**
 * The errors the spaces extension throws. They are `ReactorError`s, so the host
 * logs them with their code and a client reads one clear sentence: what, which
 * space or path, and what to do instead.
 */
import { ErrorCodes, ReactorError, type ErrorCode } from '@reactor/host';

/** The extension's name, stamped on every error it raises. */
export const EXTENSION_NAME = 'spaces';

/** The parts of an error message after its subject. */
export interface SpaceErrorDetails {
  readonly expected?: string;
  readonly received?: string;
  readonly hint?: string;
  readonly cause?: unknown;
}

/**
 * A failure of one request (unknown space, escaping path, binary file…).
 * `TOOL_FAILED` is the closest host code: the same helpers serve tools,
 * the resource and the prompt, and a failed call costs only that call.
 */
export function spaceError(subject: string, problem: string, details: SpaceErrorDetails = {}, code: ErrorCode = ErrorCodes.TOOL_FAILED): ReactorError {
  return new ReactorError(code, {
    subject,
    problem,
    // ReactorError treats a part left undefined as absent.
    ...details,
    extension: EXTENSION_NAME,
  });
}

/** The subject of an error about a path in a space. */
export function pathSubject(space: string, relative: string): string {
  return `path ${JSON.stringify(relative)} in space ${JSON.stringify(space)}`;
}
