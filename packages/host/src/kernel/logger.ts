/**
 * The host logs through an injected, pino-compatible logger: a child per
 * extension, and everything to stderr, because over stdio stdout is the protocol.
 */

/** A pino-style log method: `(obj, msg?)` or `(msg)`. */
export interface LogFn {
  (obj: object, msg?: string): void;
  (msg: string): void;
}

/** The subset of pino's interface the host uses. `pino()` satisfies it. */
export interface Logger {
  trace: LogFn;
  debug: LogFn;
  info: LogFn;
  warn: LogFn;
  error: LogFn;
  child(bindings: Record<string, unknown>): Logger;
  /**
   * Whether a line at `level` would be written (pino's method of that name).
   * Optional: a logger without it is taken to write every level. The host
   * asks before it builds a line nobody reads (the HTTP access log's, one
   * per request).
   */
  isLevelEnabled?(level: LogLevel): boolean;
  /**
   * Writes out what an asynchronous destination still holds, then calls
   * `callback` (pino's method of that name). Optional: a logger without it
   * writes synchronously. The command calls it before it exits.
   */
  flush?(callback?: (error?: Error) => void): void;
}

/** The fields of a fixed-shape `info` line: trusted keys (no escaping needed), string or number values; undefined ones are left out. */
export type InfoLineFields = Readonly<Record<string, string | number | undefined>>;

/**
 * @internal Where a logger may keep a faster way to write one `info` line of
 * fixed shape (the HTTP access log's, one per request): the same line its
 * `info` would write, without the general path. The command's pino logger has
 * one (`command/infoLineWriter.ts`); child loggers inherit it (pino makes a child
 * from its parent's prototype). Code that writes such lines asks for it and
 * falls back to `info`.
 */
export const INFO_LINE: unique symbol = Symbol.for('reactor.logger.infoLine');

/** @internal A logger's {@link INFO_LINE} writer, called with the logger as `this`. */
export type InfoLineWriter = (this: Logger, fields: InfoLineFields, msg: string) => void;

/** @internal The logger's {@link INFO_LINE} writer, if it has one. */
export function infoLineWriterOf(logger: Logger): InfoLineWriter | undefined {
  const writer = (logger as Logger & { [INFO_LINE]?: unknown })[INFO_LINE];
  return typeof writer === 'function' ? (writer as InfoLineWriter) : undefined;
}

/** Levels in increasing severity, as pino names them. */
export const LOG_LEVELS = ['trace', 'debug', 'info', 'warn', 'error', 'silent'] as const;
/** A log level name. */
export type LogLevel = (typeof LOG_LEVELS)[number];

/** A logger that drops everything. */
export const silentLogger: Logger = {
  trace: () => {},
  debug: () => {},
  info: () => {},
  warn: () => {},
  error: () => {},
  child: () => silentLogger,
  isLevelEnabled: () => false,
};

/**
 * A dependency-free JSON-lines logger to stderr: the library's default, so that
 * a failure is never silent even when no logger is injected. The command uses pino.
 */
export function createStderrLogger(
  level: LogLevel = 'warn',
  bindings: Record<string, unknown> = {},
  write: (line: string) => void = (line) => process.stderr.write(line),
): Logger {
  const threshold = LOG_LEVELS.indexOf(level);
  const at = (name: Exclude<LogLevel, 'silent'>): LogFn => {
    if (LOG_LEVELS.indexOf(name) < threshold) return () => {};
    return ((objOrMsg: object | string, msg?: string) => {
      const fields = typeof objOrMsg === 'string' ? { msg: objOrMsg } : { ...serializeFields(objOrMsg), msg };
      // The logger's own fields come last so a binding named "level" cannot mislabel an entry.
      write(`${JSON.stringify({ ...bindings, ...fields, level: name, time: Date.now() })}\n`);
    });
  };
  return {
    trace: at('trace'),
    debug: at('debug'),
    info: at('info'),
    warn: at('warn'),
    error: at('error'),
    child: (more) => createStderrLogger(level, { ...bindings, ...more }, write),
    isLevelEnabled: (asked) => asked !== 'silent' && LOG_LEVELS.indexOf(asked) >= threshold,
  };
}

function serializeFields(obj: object): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(obj)) {
    out[key] = value instanceof Error ? { type: value.name, message: value.message, code: (value as { code?: unknown }).code } : value;
  }
  return out;
}
