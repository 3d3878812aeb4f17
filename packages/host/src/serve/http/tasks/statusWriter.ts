/**
 * A task's `statusMessage` writes, coalesced: a handler may report its status
 * as often as it likes (a loop over 4 000 files), but the store sees the
 * latest message only, at most one write in flight and at most one per
 * interval. Before the task's next state (input requested, completed,
 * failed) is written, the writer is drained: the pending message is written
 * and every write has landed, so the terminal write is never overtaken — on
 * a shared store, a stream of status writes would otherwise contend with it
 * (each a compare-and-set on the record).
 */

/** The default spacing of one task's status writes, in ms. */
export const STATUS_WRITE_INTERVAL_MS = 200;

export class StatusWriter {
  private latest: string | undefined;
  private inFlight: Promise<void> | undefined;
  private timer: NodeJS.Timeout | undefined;
  private lastWriteAt = Number.NEGATIVE_INFINITY;
  private closed = false;

  /** `write` records one message (and never rejects: it reports its own failure). */
  constructor(
    private readonly write: (message: string) => Promise<void>,
    private readonly intervalMs = STATUS_WRITE_INTERVAL_MS,
  ) {}

  /** The task's status is now `message` (the latest wins); ignored once drained or stopped. */
  set(message: string): void {
    if (this.closed) return;
    this.latest = message;
    this.schedule();
  }

  /** Takes no more messages, writes the pending one, and resolves once no write is in flight. */
  async drain(): Promise<void> {
    this.closed = true;
    this.clearTimer();
    for (;;) {
      if (this.inFlight) await this.inFlight;
      else if (this.latest !== undefined) this.flush();
      else return;
    }
  }

  /** Takes no more messages and drops the pending one (the task is over: cancelled, or past its TTL). */
  stop(): void {
    this.closed = true;
    this.latest = undefined;
    this.clearTimer();
  }

  private schedule(): void {
    if (this.closed || this.inFlight !== undefined || this.timer !== undefined || this.latest === undefined) return;
    const wait = this.lastWriteAt + this.intervalMs - Date.now();
    if (wait <= 0) return this.flush();
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.flush();
    }, wait);
    this.timer.unref();
  }

  private flush(): void {
    const message = this.latest;
    if (message === undefined) return;
    this.latest = undefined;
    this.lastWriteAt = Date.now();
    this.inFlight = this.write(message).finally(() => {
      this.inFlight = undefined;
      this.schedule();
    });
  }

  private clearTimer(): void {
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = undefined;
  }
}
