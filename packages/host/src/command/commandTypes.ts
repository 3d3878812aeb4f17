/**
 * The command's two shared types: what `runCommand` depends on (tests replace
 * parts of it) and what a running command is. Apart from `command.ts` so that
 * the modules it calls (`commandHttp.ts`, `commandServerJson.ts`, the start-up
 * summary, watch mode) use them without importing the command back.
 */
import type http from 'node:http';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { loadExtensions } from '../discovery/discovery.js';
import type { buildHost, McpHost } from '../host/host.js';
import type { McpApp } from '../serve/http/app.js';
import type { McpAppOptions } from '../serve/http/options.js';
import type { Logger, LogLevel } from '../kernel/logger.js';
import type { ServeStdioOptions, StdioServing } from '../serve/stdio.js';
import type { CatalogAppOptions } from './catalogLoader.js';
import type { CommandOptions } from './commandOptions.js';
import type { CommandRedis, CommandRedisOptions } from './commandRedis.js';
import type { AuthSummary } from './auth/summary.js';

/** What `runCommand` uses; tests replace parts of it. */
export interface CommandDependencies {
  loadExtensions: typeof loadExtensions;
  buildHost: typeof buildHost;
  /** Default: `createMcpApp`, imported only in http mode. */
  createMcpApp: (host: McpHost, options: McpAppOptions) => Promise<Pick<McpApp, 'close'> & ((req: IncomingMessage, res: ServerResponse) => void)>;
  /** Default: `serveStdio`, imported only in stdio mode. */
  serveStdio: (host: McpHost, options: ServeStdioOptions) => Promise<StdioServing>;
  /** Makes the logger; default pino to stderr (fd 2), asynchronously (sonic-boom), imported only when the command runs; `pretty` through pino-pretty. */
  createLogger: (level: LogLevel, name: string, format: 'json' | 'pretty') => Logger | Promise<Logger>;
  /** Where `--help` and `--version` print. */
  stdout: (text: string) => void;
  /** Where the plain "connect to" line goes when {@link CommandDependencies.interactive}. Default: stderr. */
  stderr: (text: string) => void;
  /** Whether a person is watching (stderr is a terminal): then the URL is also printed plainly. */
  interactive: boolean;
  /**
   * Where SIGINT/SIGTERM (and, with a tokens file, SIGHUP) are listened for, and
   * `uncaughtException` (a fatal error: logged, the log written out, then `exit(1)`).
   */
  signals: Pick<NodeJS.Process, 'once' | 'removeListener'>;
  /** Called with 0 once a signal's shutdown is done (1 after a fatal error), once the log is written out. */
  exit: (code: number) => void;
  /** How long open requests may take to finish on shutdown, ms. Default 10 000. */
  shutdownGraceMs: number;
  /** Connects to Redis for `--redis-url`; default: `@reactor/redis`'s `connectRedis`, imported only then. */
  connectRedis: (options: CommandRedisOptions) => Promise<CommandRedis>;
  /** The application directory, when `--root` does not say; default: the nearest above the working directory. */
  root: string | undefined;
  /** Imports `@reactor/catalog` from the application when installed; default: located from `root`. */
  loadCatalog: (root: string | undefined) => Promise<CatalogAppOptions | undefined>;
}

/** A running command. */
export interface RunningCommand {
  readonly options: CommandOptions;
  readonly host: McpHost;
  /** The URL to connect to (http), e.g. `http://127.0.0.1:4040/mcp`. */
  readonly url: string | undefined;
  /** The HTTP server (http). */
  readonly server: http.Server | undefined;
  /** Which authentication is on (http). */
  readonly auth: AuthSummary | undefined;
  /** Where Prometheus metrics are served (`--metrics-port`), e.g. `http://127.0.0.1:9464/metrics`. */
  readonly metricsUrl?: string | undefined;
  /** Stops: closes the listener, lets open requests finish (bounded), runs `onStop` hooks. Idempotent. */
  close(): Promise<void>;
}
