/**
 * The `reactor-mcp-server` command: serves the installed extensions with no
 * code. `runCommand` wires option parsing (`commandOptions.ts`), discovery,
 * the host and a transport (`commandHttp.ts`, or stdio), logs the start-up
 * summary (`startupSummary.ts`), and shuts down cleanly on SIGINT/SIGTERM.
 */
import { errorMessage } from '../kernel/errors.js';
import { loadExtensions as defaultLoadExtensions } from '../discovery/discovery.js';
import { buildHost as defaultBuildHost, type McpHost } from '../host/host.js';
import { INFO_LINE, type Logger } from '../kernel/logger.js';
import { infoLineWriter, type LineDestination } from './infoLineWriter.js';
import type { LoggerOptions } from 'pino';
import { loadCatalog as defaultLoadCatalog } from './catalogLoader.js';
import { serveHttp } from './commandHttp.js';
import { printServerJson } from './commandServerJson.js';
import { COMMAND_HELP, invalid, parseCommandOptions, type CommandOptions } from './commandOptions.js';
import { logSummary, warnUnknownToolsets } from './startupSummary.js';
import { loadRedis } from './commandRedis.js';
import { setUpObservability } from './commandObservability.js';
import { HOST_VERSION } from '../kernel/version.js';

export { COMMAND_HELP, parseCommandOptions } from './commandOptions.js';
export type { CommandOptions } from './commandOptions.js';
import type { CommandDependencies, RunningCommand } from './commandTypes.js';
export type { CommandDependencies, RunningCommand } from './commandTypes.js';

const SIGNALS = ['SIGINT', 'SIGTERM'] as const;
/**
 * The default (json) log is written in batches of at least this many bytes (about 200 access
 * lines)… Each batch is one `fs.write` handed to libuv's threads, and that hand-over (a queue,
 * a thread woken, its completion called back on the event loop) costs the event loop more than
 * the bytes do: a batch of 4 KiB paid it every dozen requests.
 */
const LOG_BATCH_BYTES = 64 * 1024;
/** At most this many bytes go out in one write (sonic-boom's `maxWrite`; it must exceed the batch). */
const LOG_WRITE_MAX_BYTES = 4 * LOG_BATCH_BYTES;
/** …or after this long, when fewer lines come. */
const LOG_FLUSH_MS = 250;
/**
 * The most the log holds unwritten (sonic-boom's `maxLength`): a stderr nobody reads (a stalled
 * pipe) would otherwise grow the process by every request's line. Past it lines are dropped, and
 * counted in a warning the destination gets once it takes lines again.
 */
const LOG_BUFFER_MAX_BYTES = 32 * 1024 * 1024;
/** How long after the first dropped line the count is logged. */
const LOG_DROP_REPORT_MS = 1_000;
/** How long an exit waits for the log to be written out (a stalled stderr pipe must not hold the exit forever). */
const LOG_FLUSH_TIMEOUT_MS = 5_000;

/**
 * pino's `streamWrite` hook for a destination in sonic-boom's `contentMode: 'buffer'`: the serialized
 * line as bytes (pino types the hook's result as text; the destination takes it as it comes).
 */
function lineBytes(line: string): string {
  return Buffer.from(line) as unknown as string;
}

/**
 * The command's default (json) logger, writing to the file descriptor `dest` (stderr: 2).
 *
 * Asynchronous (sonic-boom): a request never waits on a write(2) of its access line. Lines are
 * written in batches of LOG_BATCH_BYTES, or after LOG_FLUSH_MS when fewer come; `flush` before
 * every exit and pino's own exit hook write out the rest, so a shutdown or a fatal error loses none.
 * Each line is handed over as bytes (sonic-boom's `contentMode: 'buffer'`): a batch is a list of
 * buffers joined once when written, where a batch of text is a string grown line by line whose
 * UTF-8 length sonic-boom measures again at every line — a cost that grows with the batch, so
 * with the load (the lines waiting while a write is under way).
 */
export async function jsonLogger(level: string, name: string, dest: number, traced: Pick<LoggerOptions, 'mixin' | 'mixinMergeStrategy'> = {}, bufferLimit = LOG_BUFFER_MAX_BYTES): Promise<Logger> {
  const { pino } = await import('pino');
  const destination = pino.destination({ dest, sync: false, contentMode: 'buffer', minLength: LOG_BATCH_BYTES, maxWrite: LOG_WRITE_MAX_BYTES, maxLength: bufferLimit, periodicFlush: LOG_FLUSH_MS });
  const logger: Logger = pino({ level, name, ...traced, hooks: { streamWrite: lineBytes } }, destination);
  // The access log's lines skip pino's general path (the same line, for about a third less CPU: `infoLineWriter.ts`).
  // sonic-boom's types say text; in `contentMode: 'buffer'` it takes bytes, as `lineBytes` hands them.
  Object.defineProperty(logger, INFO_LINE, { value: infoLineWriter(pino.symbols, destination as unknown as LineDestination, traced.mixin) });
  // Dropped lines are counted, and the count is logged a second after the first drop — again while
  // the warning itself is dropped, keeping the count — so a stall is told once the destination takes lines.
  let dropped = 0;
  let report: NodeJS.Timeout | undefined;
  const tell = () => {
    report = undefined;
    const lines = dropped;
    dropped = 0;
    logger.warn({ droppedLines: lines }, `${lines} log lines were dropped: the log's destination took no writes while ${bufferLimit} bytes of lines waited (a stderr nobody reads?); give the process a destination that keeps up`);
    // The warning was dropped too (a drop already scheduled the next telling): keep the count.
    if (dropped > 0) dropped = lines;
  };
  destination.on('drop', () => {
    dropped++;
    if (report === undefined) (report = setTimeout(tell, LOG_DROP_REPORT_MS)).unref();
  });
  return logger;
}

/**
 * Resolves once `logger` has written out what it holds down to less than a batch (sonic-boom's flush answers at its
 * 'drain'; pino's exit hook writes that rest synchronously as the process exits), at once for a logger that writes
 * synchronously, or after a bounded wait.
 */
function flushLog(logger: Logger): Promise<void> {
  const { flush } = logger;
  if (flush === undefined) return Promise.resolve();
  return new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, LOG_FLUSH_TIMEOUT_MS);
    timer.unref();
    try {
      flush.call(logger, () => (clearTimeout(timer), resolve()));
    } catch {
      // A destination already closed has nothing left to write.
      clearTimeout(timer);
      resolve();
    }
  });
}

/**
 * Runs the command: parses options, discovers the extensions, builds the host,
 * serves it over HTTP or stdio, logs a start-up summary, and on SIGINT/SIGTERM
 * shuts down and exits 0. Returns undefined after `--help`/`--version`, and after
 * `check [dir]` (which exits non-zero through `exit` when the package fails).
 */
export async function runCommand(argv: readonly string[], env: NodeJS.ProcessEnv, overrides: Partial<CommandDependencies> = {}): Promise<RunningCommand | undefined> {
  const deps: CommandDependencies = {
    loadExtensions: defaultLoadExtensions,
    buildHost: defaultBuildHost,
    // Each transport is imported only when used, so stdio mode never loads the HTTP stack.
    createMcpApp: async (host, appOptions) => (await import('../serve/http/app.js')).createMcpApp(host, appOptions),
    serveStdio: async (host, stdioOptions) => (await import('../serve/stdio.js')).serveStdio(host, stdioOptions),
    createLogger: async (level, name, format): Promise<Logger> => {
      const { pino } = await import('pino');
      // Lines logged inside a traced request carry its trace_id/span_id (nothing without an OpenTelemetry SDK).
      const { traceFields, mergeTraceFields } = await import('../telemetry/logTraceFields.js');
      const traced = { mixin: traceFields, mixinMergeStrategy: mergeTraceFields };
      if (format === 'pretty') {
        // pino's own pretty printer, as a synchronous stream to stderr: stdout may be the protocol (stdio).
        const { default: pretty } = await import('pino-pretty');
        const readable: Logger = pino({ level, name, ...traced }, pretty({ destination: 2, sync: true, colorize: process.stderr.isTTY === true }));
        return readable;
      }
      return jsonLogger(level, name, 2, traced);
    },
    connectRedis: (redisOptions) => loadRedis(redisOptions, overrides.root),
    stdout: (text) => process.stdout.write(text),
    stderr: (text) => process.stderr.write(text),
    interactive: process.stderr.isTTY === true,
    signals: process,
    exit: (code) => process.exit(code),
    shutdownGraceMs: 10_000,
    root: undefined,
    loadCatalog: defaultLoadCatalog,
    ...overrides,
  };
  if (argv[0] === 'check') {
    // `reactor-mcp-server check [dir]`: lint an extension package. The checker (and its tokenizer) loads only here.
    const { runCheckCommand } = await import('../check/command.js');
    const code = await runCheckCommand(argv.slice(1), { stdout: deps.stdout, cwd: deps.root ?? process.cwd() });
    if (code !== 0) deps.exit(code);
    return undefined;
  }
  const options = parseCommandOptions(argv, env);
  if (options.help || options.version) {
    deps.stdout(options.help ? COMMAND_HELP : `${HOST_VERSION}\n`);
    return undefined;
  }
  if (options.watch && options.transport !== 'http') {
    throw invalid('flag "--watch"', 'works over http only', '--transport http', `--transport ${options.transport}`, 'leave out --watch for stdio; the dev loop serves http for the MCP Inspector');
  }
  if (options.watch && !['127.0.0.1', 'localhost', '::1'].includes(options.host)) {
    // The dev loop reloads code and serves without auth: never on an address others can reach.
    throw invalid('flag "--watch"', 'serves on loopback only', '--host 127.0.0.1 (or localhost, ::1)', `--host ${options.host}`, 'watch mode is a development loop; run without --watch to serve other hosts');
  }
  const logger = await deps.createLogger(options.logLevel, options.name, options.logFormat);
  try {
    return await runLogging(options, env, deps, logger);
  } catch (error) {
    // Written out before the caller reports the error (the bin, on stderr), so the lines stay in order.
    await flushLog(logger);
    throw error;
  }
}

/** The rest of {@link runCommand}, once the logger is made. */
async function runLogging(options: CommandOptions, env: NodeJS.ProcessEnv, deps: CommandDependencies, logger: Logger): Promise<RunningCommand | undefined> {
  if (options.command === 'server-json') {
    await printServerJson(options, deps, logger);
    return undefined;
  }
  if (options.watch && options.metricsPort !== undefined) {
    throw invalid('flag "--metrics-port"', 'is not served in watch mode', 'no --watch', '--watch', 'watch mode is a development loop; run without --watch to serve metrics');
  }
  if (options.watch) {
    const running = await (await import('./watch/watchMode.js')).serveWatching(options, deps, logger);
    return closeOnSignals(running, undefined, deps, logger);
  }
  const root = options.root ?? deps.root;
  const entries = await deps.loadExtensions({ logger, ...(options.extensions ? { names: options.extensions } : {}), ...(root ? { root } : {}) });
  // Before the host: the SDK registers the global providers, Prometheus the histogram the host records into.
  const observability = await setUpObservability(options, env, logger);
  let host: McpHost;
  try {
    host = await deps.buildHost(entries, {
      name: options.name,
      toolsetsTool: options.toolsetsTool,
      logger,
      ...(options.requestStateKey === undefined ? {} : { requestStateKey: options.requestStateKey }),
      ...(observability.telemetry === undefined ? {} : { telemetry: observability.telemetry }),
    });
  } catch (error) {
    await observability.close();
    throw error;
  }
  let served: { running: RunningCommand; ended: Promise<void> | undefined };
  const sessions: { count?: () => number } = {};
  try {
    served = options.transport === 'http' ? { running: await serveHttp(host, options, deps, logger, sessions), ended: undefined } : await serveOverStdio(host, options, deps);
  } catch (error) {
    // The host started (onStart ran): it must stop (onStop) even when serving could not begin.
    await host.stop();
    await observability.close();
    throw error;
  }
  const close = () => served.running.close().finally(() => observability.close());
  const { ended } = served;
  let metricsUrl: string | undefined;
  try {
    metricsUrl = await observability.serveMetrics({ host: () => served.running.host, sessionsOpen: () => sessions.count?.() });
  } catch (error) {
    await close();
    throw error;
  }
  const running: RunningCommand = { ...served.running, metricsUrl, close };
  // Signals first: a SIGTERM sent as soon as the summary starts to appear (a slow stderr pipe can
  // hold a long pretty summary mid-write) must still shut down gracefully.
  const stoppable = closeOnSignals(running, ended, deps, logger);
  logSummary(host, options, running, logger);
  warnUnknownToolsets(host, options, logger);
  if (deps.interactive && running.url !== undefined) deps.stderr(`\n  ${options.name} is serving MCP at ${running.url}\n  (Streamable HTTP; Ctrl+C stops it)\n\n`);
  return stoppable;
}

/** SIGINT/SIGTERM (or the stdio client closing) shut the command down and exit. */
function closeOnSignals(running: RunningCommand, ended: Promise<void> | undefined, deps: CommandDependencies, logger: Logger): RunningCommand {
  let stopping = false;
  const stop = (why: string, fields: Record<string, unknown>) => {
    if (stopping) return;
    stopping = true;
    logger.info(fields, `${why}; shutting down`);
    void running.close().then(
      () => flushLog(logger).then(() => deps.exit(0)),
      (error: unknown) => {
        logger.error({ err: error }, `shutdown failed: ${errorMessage(error)}`);
        return flushLog(logger).then(() => deps.exit(1));
      },
    );
  };
  // `once`: a second signal gets Node's default action, so a stuck shutdown can still be interrupted.
  const onSignal = (signal: NodeJS.Signals) => stop(`received ${signal} (send it again to stop at once)`, { signal });
  for (const signal of SIGNALS) deps.signals.once(signal, onSignal);
  // A fatal error (an exception nothing caught, or a rejection nothing handled): logged, the log
  // written out (the access lines of the requests answered before it included), then exit 1.
  // No graceful close: after such an error the process's state is unknown.
  const onFatal = (error: unknown) => {
    stopping = true;
    logger.error({ err: error, fatal: true }, `fatal error: ${errorMessage(error)}; exiting`);
    void flushLog(logger).then(() => deps.exit(1));
  };
  deps.signals.once('uncaughtException', onFatal);
  void ended?.then(() => stop('the client closed the stdio connection', {}));
  return Object.defineProperties({ ...running }, {
    // Watch mode swaps hosts on reload: keep reading the running one.
    host: { get: () => running.host, enumerable: true },
    close: {
      value: () => {
        stopping = true;
        for (const signal of SIGNALS) deps.signals.removeListener(signal, onSignal);
        deps.signals.removeListener('uncaughtException', onFatal);
        return running.close();
      },
      enumerable: true,
    },
  });
}

/** Serves stdio; `ended` resolves when the client closes the connection. */
async function serveOverStdio(host: McpHost, options: CommandOptions, deps: CommandDependencies): Promise<{ running: RunningCommand; ended: Promise<void> }> {
  const served = await deps.serveStdio(host, {
    ...(options.toolsets === undefined ? {} : { selection: options.toolsets }),
    ...(options.readOnly ? { readOnly: true } : {}),
  });
  let closing: Promise<void> | undefined;
  const close = () =>
    (closing ??= (async () => {
      await served.close();
      await host.stop();
    })());
  return { running: { options, host, url: undefined, server: undefined, auth: undefined, close }, ended: served.closed };
}
