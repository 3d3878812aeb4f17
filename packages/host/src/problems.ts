/**
 * Problems: every failure the host contains (an extension left out, a tool
 * left out, a hook that threw) is logged and kept here, so `host.report()`,
 * `describe()` and `/healthz` can say what is missing and why.
 */
import { errorMessage, isReactorError, type ErrorCode } from './errors.js';
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

  /** Every kept problem, oldest first. */
  list(filter?: (p: Problem) => boolean): Problem[] {
    const all = [...this.items.values()];
    return filter ? all.filter(filter) : all;
  }

}
