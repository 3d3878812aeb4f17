/**
 * Unknown toolset names in URLs are served around (spec §3) and logged — but
 * a client retrying with a typo, or a scanner enumerating names, must not
 * flood the log. Each name is logged at most once per window, and the memory
 * this takes is bounded whatever names arrive.
 */
import type { Logger } from '../../kernel/logger.js';

/** Options of {@link UnknownNameLog}. */
export interface UnknownNameLogOptions {
  /** How long a logged name stays quiet, ms. Default 60 000. */
  readonly windowMs?: number;
  /** How many names are remembered at once; past it, new names are counted, not logged. Default 1024. */
  readonly maxNames?: number;
  /** The clock (tests inject one). */
  readonly now?: () => number;
}

/** Logs unknown selection names, rate-limited per name. */
export class UnknownNameLog {
  private readonly lastLogged = new Map<string, number>();
  private readonly windowMs: number;
  private readonly maxNames: number;
  private readonly now: () => number;
  private suppressed = 0;

  constructor(
    private readonly logger: Logger,
    options: UnknownNameLogOptions = {},
  ) {
    this.windowMs = options.windowMs ?? 60_000;
    this.maxNames = options.maxNames ?? 1024;
    this.now = options.now ?? Date.now;
  }

  /** Logs each name not logged within the window; answers the names it logged. */
  report(names: Iterable<string>, context: { readonly where: string; readonly tenant?: string | undefined }): string[] {
    const now = this.now();
    const fresh: string[] = [];
    for (const name of names) {
      const last = this.lastLogged.get(name);
      if (last !== undefined && now - last < this.windowMs) continue;
      if (last === undefined && this.lastLogged.size >= this.maxNames) {
        this.forgetExpired(now);
        if (this.lastLogged.size >= this.maxNames) {
          this.suppressed++;
          continue;
        }
      }
      this.lastLogged.set(name, now);
      fresh.push(name);
    }
    if (fresh.length > 0) {
      const suppressed = this.suppressed;
      this.suppressed = 0;
      this.logger.warn(
        { unknownToolsets: fresh, where: context.where, ...(context.tenant !== undefined ? { tenant: context.tenant } : {}), ...(suppressed > 0 ? { suppressed } : {}) },
        `a request named toolset(s) nobody declares (${fresh.map((n) => JSON.stringify(n)).join(', ')}); they are ignored and the rest is served; hint: check the spelling (names are case-sensitive) or GET /toolsets for the declared names`,
      );
    }
    return fresh;
  }

  private forgetExpired(now: number): void {
    for (const [name, at] of this.lastLogged) if (now - at >= this.windowMs) this.lastLogged.delete(name);
  }
}
