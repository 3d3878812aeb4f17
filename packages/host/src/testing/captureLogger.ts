/**
 * A logger that records every entry, for asserting what the host logged
 * (extension name, error code) in tests — the host's and extension authors'.
 */
import type { LogFn, Logger } from '../kernel/logger.js';

/** One recorded log entry: level, bindings and fields merged, and the message. */
export interface CapturedLog {
  level: 'trace' | 'debug' | 'info' | 'warn' | 'error';
  msg: string | undefined;
  fields: Record<string, unknown>;
}

/** A {@link Logger} that keeps what it is given in `entries`. */
export function captureLogger(bindings: Record<string, unknown> = {}, entries: CapturedLog[] = []): Logger & { entries: CapturedLog[] } {
  const at = (level: CapturedLog['level']): LogFn =>
    ((objOrMsg: object | string, msg?: string) => {
      if (typeof objOrMsg === 'string') entries.push({ level, msg: objOrMsg, fields: { ...bindings } });
      else entries.push({ level, msg, fields: { ...bindings, ...(objOrMsg as Record<string, unknown>) } });
    });
  return {
    entries,
    trace: at('trace'),
    debug: at('debug'),
    info: at('info'),
    warn: at('warn'),
    error: at('error'),
    child: (more) => captureLogger({ ...bindings, ...more }, entries),
  };
}
