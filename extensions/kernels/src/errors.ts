/**
 * The errors the kernels extension throws: `ReactorError`s stamped with the
 * extension, so a client reads one sentence saying which notebook or kernel,
 * what happened, and what to do.
 */
import { ErrorCodes, ReactorError, type ErrorCode } from '@reactor/host';

/** The extension's name (also its package.json `reactorMcp` key and its toolset). */
export const EXTENSION_NAME = 'kernels';

/** The parts of an error message after its subject. */
export interface KernelErrorDetails {
  readonly expected?: string;
  readonly received?: string;
  readonly hint?: string;
  readonly cause?: unknown;
}

/** A failure of one call (`TOOL_FAILED` unless another code fits better). */
export function kernelError(subject: string, problem: string, details: KernelErrorDetails = {}, code: ErrorCode = ErrorCodes.TOOL_FAILED): ReactorError {
  return new ReactorError(code, {
    subject,
    problem,
    // ReactorError treats a part left undefined as absent.
    ...details,
    extension: EXTENSION_NAME,
  });
}

/** The subject of an error about a notebook. */
export function notebookSubject(space: string, path: string): string {
  return `notebook ${JSON.stringify(path)} in space ${JSON.stringify(space)}`;
}

/** The message of anything thrown, without a stack. */
export function messageOf(error: unknown): string {
  if (error instanceof Error) return error.message;
  return typeof error === 'string' ? error : 'an unknown error';
}
