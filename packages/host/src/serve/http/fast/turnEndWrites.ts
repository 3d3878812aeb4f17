/**
 * Answers written together at the end of the event loop's turn.
 *
 * Why: writing to a loopback connection runs the reader's side of TCP in the
 * writer's system call, and when the reader sleeps in `epoll_wait` the writer
 * also pays for waking it. That is how a server is deployed behind a proxy on
 * the same host (haproxy, nginx, a sidecar), and how the bench's load
 * generator reads it. A busy server answering one request at a time wakes the
 * reader once per answer; answers written back to back wake it once for all
 * of them, as the first wakes it and the rest find it awake. Measured on the
 * command as deployed (2026-07-28 `tools/call`, 16 in flight, side by side
 * with the build before, five runs): a median of 0.78× the server CPU per call
 * and 1.28× the calls per second (docs/performance.md). The same idea as uWebSockets' corking of a whole
 * turn's writes.
 *
 * The fast path's answers are put here and written in the turn's check phase
 * (`setImmediate`), after every request the turn's poll phase delivered has
 * been handled. No answer waits long: once the first one kept has waited
 * {@link MAX_WAIT_MS}, the next answer writes them all at once, so an answer
 * waits at most that plus one request's handling. Under load the wait pays
 * for itself: with a fixed number of requests in flight, more answers a
 * second means less time per answer (Little's law).
 */
import type { ServerResponse } from 'node:http';

/** The longest the first answer kept waits for others, unless one request's handling takes longer. */
export const MAX_WAIT_MS = 1;

/**
 * The real `setImmediate`, taken when the module loads: a test's fake timers
 * (installed later, on the global) must not hold real connections' answers.
 */
const atCheckPhase = setImmediate;

/** A queue of answers' writes, written together at the end of the turn (or once the first has waited {@link MAX_WAIT_MS}). */
export class TurnEndWrites {
  /** Pairs: the response, then its write. */
  #pending: Array<ServerResponse | (() => void)> = [];
  #firstAt = 0;
  #scheduled = false;
  readonly #onCheckPhase = (): void => {
    this.#scheduled = false;
    this.flush();
  };

  /**
   * Puts off `write` (which writes `res`'s whole answer) to the end of the
   * turn. A `write` that throws destroys its response with the error
   * (the client sees the connection end, never a hang); the others are
   * written all the same.
   */
  add(res: ServerResponse, write: () => void): void {
    const now = performance.now();
    if (this.#pending.length === 0) this.#firstAt = now;
    else if (now - this.#firstAt >= MAX_WAIT_MS) {
      this.flush();
      this.#firstAt = now;
    }
    this.#pending.push(res, write);
    if (!this.#scheduled) {
      this.#scheduled = true;
      atCheckPhase(this.#onCheckPhase);
    }
  }

  /** How many answers wait. */
  get size(): number {
    return this.#pending.length / 2;
  }

  /** Writes every answer waiting, in the order they were added. */
  flush(): void {
    const pending = this.#pending;
    if (pending.length === 0) return;
    this.#pending = [];
    for (let i = 0; i < pending.length; i += 2) {
      const res = pending[i] as ServerResponse;
      try {
        (pending[i + 1] as () => void)();
      } catch (error) {
        res.destroy(error instanceof Error ? error : new Error(String(error)));
      }
    }
  }
}

/** The process's one queue: one turn, one batch, whatever server the answers are for. */
export const turnEndWrites = new TurnEndWrites();
