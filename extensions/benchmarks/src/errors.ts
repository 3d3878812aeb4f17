/**
 * The errors this extension raises, all `ReactorError`s with the host's codes,
 * so a client or test matches on `code` and a model reads a hint.
 */
import { ErrorCodes, ReactorError } from '@reactor/host';

export { ErrorCodes, ReactorError };

/** The message of anything thrown, without a stack. */
export function errorMessageOf(error: unknown): string {
  if (error instanceof Error) return error.message;
  return typeof error === 'string' ? error : 'an unknown error';
}

/** A benchmark, run or task that is not in the database (`REACTOR_TOOL_FAILED`). */
export function notFound(kind: 'benchmark' | 'run' | 'task', id: string, known: readonly string[], hint: string): ReactorError {
  const shown = known.slice(0, 10).map((k) => JSON.stringify(k));
  return new ReactorError(ErrorCodes.TOOL_FAILED, {
    subject: `${kind} ${JSON.stringify(id)}`,
    problem: 'is not in the benchmarks database',
    expected: known.length === 0 ? `a ${kind} id (there are none)` : `one of ${shown.join(', ')}${known.length > shown.length ? `, … (${known.length} in all)` : ''}`,
    hint,
    extension: 'benchmarks',
  });
}

/** A tool called before `onStart` opened the database, or after `onStop` closed it. */
export function notStarted(): ReactorError {
  return new ReactorError(ErrorCodes.START_FAILED, {
    subject: 'extension "benchmarks"',
    problem: 'its database is not open: the extension has not started (or has stopped)',
    expected: 'onStart to have run',
    hint: 'serve it through a host (buildHost starts it when a URL asks for "benchmarks"), or call onStart() first in a test',
    extension: 'benchmarks',
  });
}
