/**
 * Problems: every failure the host contains (an extension left out, a tool
 * left out, a hook that threw) is logged and kept here, so `host.report()`,
 * `describe()` and `/healthz` can say what is missing and why.
 *
 * `report`/`reportError` are the one place a failure is both recorded and
 * logged, so every log entry carries the same fields: `code`, `extension`,
 * `phase`, what the caller adds (`tool`, `resource`…), and for a fault that
 * is not a `ReactorError` its stack frames — the message itself said once.
 */
import { errorMessage, isReactorError, type ErrorCode } from './errors.js';
import type { Logger } from './logger.js';
import { LruCache } from './lruCache.js';

/** One contained failure. */
export interface Problem {
  /** Stable error code (`REACTOR_…`). */
  readonly code: ErrorCode;
  /** The extension at fault, when one is. */
  readonly extension?: string;
  /** The tool, resource or prompt concerned, when one is. */
  readonly subject?: string;
  /** The full message: what happened, expected/received, hint. */
  readonly message: string;
  /** When in the host's life it happened. */
  readonly phase: 'startup' | 'activation' | 'build' | 'server' | 'call' | 'shutdown';
  /** ISO time of the (latest) occurrence. */
  readonly at: string;
}

/** Keeps the latest problems, bounded so a repeating fault cannot grow memory. */
export class ProblemLog {
  private readonly items: LruCache<string, Problem>;

  constructor(limit = 200) {
    this.items = new LruCache(limit);
  }

  /** Records a problem; a repeat of the same (code, extension, subject, message) replaces the old one. */
  add(problem: Omit<Problem, 'at'>): Problem {
    const full: Problem = { ...problem, at: new Date().toISOString() };
    const key = `${problem.code}\u0000${problem.extension ?? ''}\u0000${problem.subject ?? ''}\u0000${problem.message}`;
    // A repeat moves to the back, so the oldest problem goes first when the log is full.
    this.items.set(key, full);
    return full;
  }

  /** Records a thrown error, taking its code when it is a ReactorError. */
  addError(error: unknown, fallbackCode: ErrorCode, phase: Problem['phase'], extension?: string, subject?: string): Problem {
    return this.add({
      code: isReactorError(error) ? error.code : fallbackCode,
      message: errorMessage(error),
      phase,
      ...(extension === undefined ? {} : { extension }),
      ...(subject === undefined ? {} : { subject }),
    });
  }

  /** Records a problem and logs it (at `error` unless told otherwise). */
  report(logger: Logger, problem: Omit<Problem, 'at'>, options: ReportOptions = {}): Problem {
    const recorded = this.add(problem);
    const fields = {
      code: problem.code,
      ...(problem.extension === undefined ? {} : { extension: problem.extension }),
      phase: problem.phase,
      ...options.fields,
      ...framesOf(options.cause),
    };
    logger[options.level ?? 'error'](fields, problem.message);
    return recorded;
  }

  /** Records and logs a thrown error, taking its code when it is a ReactorError. */
  reportError(logger: Logger, error: unknown, fallbackCode: ErrorCode, phase: Problem['phase'], where: { extension?: string; subject?: string } = {}, options: ReportOptions = {}): Problem {
    return this.report(
      logger,
      {
        code: isReactorError(error) ? error.code : fallbackCode,
        message: errorMessage(error),
        phase,
        ...(where.extension === undefined ? {} : { extension: where.extension }),
        ...(where.subject === undefined ? {} : { subject: where.subject }),
      },
      { ...options, cause: options.cause ?? error },
    );
  }

  /** Every kept problem, oldest first. */
  list(filter?: (p: Problem) => boolean): Problem[] {
    const all = [...this.items.values()];
    return filter ? all.filter(filter) : all;
  }

}

/** How a problem is logged. */
export interface ReportOptions {
  /** Default `error`; `warn` for what the host serves around by design (a collision, a time-out). */
  readonly level?: 'warn' | 'error';
  /** More structured fields (`tool`, `resource`, `timeoutMs`…). */
  readonly fields?: Record<string, unknown>;
  /** What was thrown: its stack frames are logged when it is a fault (not a `ReactorError`). */
  readonly cause?: unknown;
}

/**
 * The stack frames of a fault, without its first line (the message, which the
 * log line already says). A `ReactorError` is a described condition, not a
 * bug: its own frames add nothing, but the fault it wraps (`cause`) keeps its.
 */
function framesOf(error: unknown): { stack?: string } {
  const fault = isReactorError(error) ? error.cause : error;
  if (!(fault instanceof Error) || isReactorError(fault) || fault.stack === undefined) return {};
  const frames = fault.stack.split('\n').filter((line) => /^\s+at /.test(line));
  return frames.length === 0 ? {} : { stack: `${fault.name}: ${frames.map((l) => l.trim()).join(' | ')}` };
}
