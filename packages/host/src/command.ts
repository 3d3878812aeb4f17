/**
 * The `reactor-mcp-server` command: serves the installed extensions with no
 * code. Option parsing is a pure function of argv and the environment (flags
 * win over environment variables, which win over defaults); `runCommand` wires
 * discovery, the host and a transport, and shuts down cleanly on SIGINT/SIGTERM.
 */
import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { parseArgs } from 'node:util';
import { describeValue, ErrorCodes, errorMessage, ReactorError } from './errors.js';
import { EXTENSION_NAME_PATTERN } from './extension.js';
import { loadExtensions as defaultLoadExtensions } from './discovery.js';
import { buildHost as defaultBuildHost, type McpHost } from './host.js';
import type { McpApp } from './http/app.js';
import type { McpAppOptions } from './http/options.js';
import { LOG_LEVELS, type Logger, type LogLevel } from './logger.js';
import type { ServeStdioOptions, StdioServing } from './stdio.js';
import { HOST_VERSION } from './version.js';

/** What the command was asked to do, after flags, environment and defaults. */
export interface CommandOptions {
  readonly transport: 'http' | 'stdio';
  readonly host: string;
  readonly port: number;
  readonly path: string;
  readonly name: string;
  /** The extensions to load; undefined: every installed one. */
  readonly extensions: readonly string[] | undefined;
  /** A selection (query-string grammar). HTTP: the default selection; stdio: the whole selection. */
  readonly toolsets: string | undefined;
  readonly ignoreQueryKeys: readonly string[];
  /** Public host names accepted in the Host header (behind a reverse proxy); undefined: the app's default. */
  readonly allowedHosts: readonly string[] | undefined;
  readonly toolsetsTool: boolean;
  readonly sessions: boolean;
  readonly logLevel: LogLevel;
  /** `--help`: print the usage and exit. */
  readonly help: boolean;
  /** `--version`: print the host version and exit. */
  readonly version: boolean;
}

type Flag = { type: 'string' | 'boolean'; multiple?: boolean; short?: string };
const FLAGS = {
  transport: { type: 'string' },
  host: { type: 'string' },
  port: { type: 'string' },
  path: { type: 'string' },
  name: { type: 'string' },
  extension: { type: 'string', multiple: true },
  toolsets: { type: 'string' },
  'ignore-query-key': { type: 'string', multiple: true },
  'allowed-host': { type: 'string', multiple: true },
  'toolsets-tool': { type: 'boolean' },
  'no-toolsets-tool': { type: 'boolean' },
  sessions: { type: 'boolean' },
  stateless: { type: 'boolean' },
  'log-level': { type: 'string' },
  help: { type: 'boolean', short: 'h' },
  version: { type: 'boolean', short: 'v' },
} satisfies Record<string, Flag>;
type FlagName = keyof typeof FLAGS;

/** The usage text `--help` prints. */
export const COMMAND_HELP = `Usage: reactor-mcp-server [options]

Serves the Reactor MCP extensions installed in the application (the nearest
package.json at or above the working directory). Logs go to stderr.

Options (flags win over environment variables):
  --transport http|stdio      REACTOR_MCP_TRANSPORT       default http
  --host HOST                 REACTOR_MCP_HOST            default 127.0.0.1
  --port PORT                 REACTOR_MCP_PORT            default 4040 (0: a free port)
  --path PATH                 REACTOR_MCP_PATH            default /mcp
  --name NAME                 REACTOR_MCP_NAME            default reactor-mcp-server
  --extension NAME            REACTOR_MCP_EXTENSIONS      (comma list) default: every installed one; repeatable
  --toolsets SPEC             REACTOR_MCP_TOOLSETS        a selection such as "only=spaces,benchmarks";
                                                          http: the default selection, stdio: the whole selection
  --ignore-query-key KEY                                  a query key that is not a selection; repeatable
  --allowed-host HOST         REACTOR_MCP_ALLOWED_HOSTS   (comma list) a public host name to accept behind a
                                                          reverse proxy (DNS-rebinding protection); repeatable
  --[no-]toolsets-tool        REACTOR_MCP_TOOLSETS_TOOL   default on: serve list_server_toolsets
  --sessions | --stateless    REACTOR_MCP_SESSIONS        default sessions on
  --log-level LEVEL           REACTOR_MCP_LOG             ${LOG_LEVELS.join('|')}, default info
  -h, --help                  print this help
  -v, --version               print the version of @reactor/host
`;

const HINT = 'run reactor-mcp-server --help for the options';
const FALSE = ['0', 'false', 'off', 'no'];
const TRUE = ['1', 'true', 'on', 'yes'];

function invalid(subject: string, problem: string, expected?: string, received?: string, hint = HINT): ReactorError {
  return new ReactorError(ErrorCodes.OPTION_INVALID, {
    subject,
    problem,
    ...(expected === undefined ? {} : { expected }),
    ...(received === undefined ? {} : { received }),
    hint,
  });
}

/**
 * Parses the command's flags and environment variables. Pure: reads nothing
 * else. Throws a `REACTOR_OPTION_INVALID` error naming the flag or variable,
 * what was expected and what was received.
 */
export function parseCommandOptions(argv: readonly string[], env: NodeJS.ProcessEnv): CommandOptions {
  const { tokens } = parseArgs({ args: [...argv], options: FLAGS, strict: false, allowPositionals: true, tokens: true });
  const strings = new Map<FlagName, string[]>();
  const booleans = new Map<FlagName, number>();
  for (const token of tokens) {
    if (token.kind === 'option-terminator') continue;
    if (token.kind === 'positional') throw invalid(`argument ${JSON.stringify(token.value)}`, 'is not an option', 'only flags such as --port 4040');
    const flag = FLAGS[token.name as FlagName] as Flag | undefined;
    if (flag === undefined) throw invalid(`flag "${token.rawName}"`, 'is not an option of reactor-mcp-server');
    const name = token.name as FlagName;
    if (flag.type === 'boolean') {
      if (token.inlineValue === true) throw invalid(`flag "${token.rawName}"`, 'takes no value', undefined, describeValue(token.value));
      booleans.set(name, token.index);
      continue;
    }
    if (token.value === undefined || (!token.inlineValue && token.value.startsWith('-'))) {
      throw invalid(`flag "${token.rawName}"`, 'needs a value', `${token.rawName} <value>`, token.value === undefined ? 'nothing' : `the flag ${JSON.stringify(token.value)}`, `write ${token.rawName}=<value> for a value that starts with "-"; ${HINT}`);
    }
    strings.set(name, [...(strings.get(name) ?? []), token.value]);
  }
  // A value and where it came from, for error messages: the last flag, else the variable.
  const pick = (flag: FlagName, variable?: string): { value: string; from: string } | undefined => {
    const values = strings.get(flag);
    if (values !== undefined) return { value: values[values.length - 1]!, from: `flag "--${flag}"` };
    const fromEnv = variable === undefined ? undefined : env[variable];
    return fromEnv === undefined || fromEnv === '' ? undefined : { value: fromEnv, from: `environment variable ${variable}` };
  };
  const toggle = (on: FlagName, off: FlagName, variable: string, fallback: boolean): boolean => {
    const onAt = booleans.get(on) ?? -1;
    const offAt = booleans.get(off) ?? -1;
    if (onAt >= 0 || offAt >= 0) return onAt > offAt;
    const raw = env[variable];
    if (raw === undefined || raw === '') return fallback;
    const value = raw.trim().toLowerCase();
    // The flags' own names count too: REACTOR_MCP_SESSIONS=stateless reads as it says.
    if (TRUE.includes(value) || value === on) return true;
    if (FALSE.includes(value) || value === off) return false;
    throw invalid(`environment variable ${variable}`, 'is not a boolean', `one of ${[...TRUE, on, ...FALSE, off].join(', ')}`, describeValue(raw));
  };
  const oneOf = <T extends string>(flag: FlagName, variable: string, allowed: readonly T[], fallback: T): T => {
    const got = pick(flag, variable);
    if (got === undefined) return fallback;
    if ((allowed as readonly string[]).includes(got.value)) return got.value as T;
    throw invalid(got.from, 'is invalid', `one of ${allowed.join(', ')}`, describeValue(got.value));
  };
  const text = (flag: FlagName, variable: string, fallback: string): string => {
    const got = pick(flag, variable);
    if (got !== undefined && got.value.trim() === '') throw invalid(got.from, 'is empty', 'a non-empty value');
    return got?.value ?? fallback;
  };

  const port = pick('port', 'REACTOR_MCP_PORT');
  if (port !== undefined && !(/^\d{1,5}$/.test(port.value) && Number(port.value) <= 65535)) {
    throw invalid(port.from, 'is not a port', 'a whole number from 0 to 65535 (0: a free port)', describeValue(port.value));
  }
  const rawPath = pick('path', 'REACTOR_MCP_PATH');
  if (rawPath !== undefined && !/^\/[^?#\s]*$/.test(rawPath.value)) {
    throw invalid(rawPath.from, 'is not a URL path', 'a path starting with "/" without "?", "#" or spaces, such as /mcp', describeValue(rawPath.value));
  }
  const extensionsFlag = strings.get('extension');
  const extensions = extensionsFlag ?? splitList(env.REACTOR_MCP_EXTENSIONS);
  const extensionsFrom = extensionsFlag ? 'flag "--extension"' : 'environment variable REACTOR_MCP_EXTENSIONS';
  for (const name of extensions ?? []) {
    if (!EXTENSION_NAME_PATTERN.test(name)) throw invalid(extensionsFrom, 'names an invalid extension', 'a kebab-case extension name such as "spaces"', describeValue(name));
  }
  const allowedHostsFlag = strings.get('allowed-host');
  const allowedHosts = allowedHostsFlag ?? splitList(env.REACTOR_MCP_ALLOWED_HOSTS);
  const allowedHostsFrom = allowedHostsFlag ? 'flag "--allowed-host"' : 'environment variable REACTOR_MCP_ALLOWED_HOSTS';
  for (const name of allowedHosts ?? []) {
    if (!/^[A-Za-z0-9.[\]:-]+$/.test(name)) throw invalid(allowedHostsFrom, 'names an invalid host', 'a host name such as mcp.example.com (optionally with :port)', describeValue(name));
  }
  const ignoreQueryKeys = strings.get('ignore-query-key') ?? [];
  if (ignoreQueryKeys.some((k) => k.trim() === '')) throw invalid('flag "--ignore-query-key"', 'is empty', 'a query key such as utm_source');

  return {
    transport: oneOf('transport', 'REACTOR_MCP_TRANSPORT', ['http', 'stdio'] as const, 'http'),
    host: text('host', 'REACTOR_MCP_HOST', '127.0.0.1'),
    port: port === undefined ? 4040 : Number(port.value),
    // `/mcp/` and `/mcp` are one endpoint; the app never redirects between them.
    path: rawPath === undefined ? '/mcp' : rawPath.value.replace(/\/+$/, '') || '/',
    name: text('name', 'REACTOR_MCP_NAME', 'reactor-mcp-server'),
    extensions: extensions === undefined ? undefined : [...new Set(extensions)],
    toolsets: pick('toolsets', 'REACTOR_MCP_TOOLSETS')?.value.replace(/^\?/, ''),
    ignoreQueryKeys: ignoreQueryKeys.map((k) => k.trim()),
    allowedHosts: allowedHosts === undefined ? undefined : [...new Set(allowedHosts)],
    toolsetsTool: toggle('toolsets-tool', 'no-toolsets-tool', 'REACTOR_MCP_TOOLSETS_TOOL', true),
    sessions: toggle('sessions', 'stateless', 'REACTOR_MCP_SESSIONS', true),
    logLevel: oneOf('log-level', 'REACTOR_MCP_LOG', LOG_LEVELS, 'info'),
    help: booleans.has('help'),
    version: booleans.has('version'),
  };
}

function splitList(value: string | undefined): string[] | undefined {
  if (value === undefined || value.trim() === '') return undefined;
  return value.split(',').map((s) => s.trim()).filter((s) => s !== '');
}

/** What `runCommand` uses; tests replace parts of it. */
export interface CommandDependencies {
  loadExtensions: typeof defaultLoadExtensions;
  buildHost: typeof defaultBuildHost;
  /** Default: `createMcpApp`, imported only in http mode. */
  createMcpApp: (host: McpHost, options: McpAppOptions) => Promise<Pick<McpApp, 'close'> & ((req: IncomingMessage, res: ServerResponse) => void)>;
  /** Default: `serveStdio`, imported only in stdio mode. */
  serveStdio: (host: McpHost, options: ServeStdioOptions) => Promise<StdioServing>;
  /** Makes the logger; default pino to stderr (fd 2), imported only when the command runs. */
  createLogger: (level: LogLevel, name: string) => Logger | Promise<Logger>;
  /** Where `--help` and `--version` print. */
  stdout: (text: string) => void;
  /** Where SIGINT/SIGTERM are listened for. */
  signals: Pick<NodeJS.Process, 'once' | 'removeListener'>;
  /** Called with 0 once a signal's shutdown is done. */
  exit: (code: number) => void;
  /** How long open requests may take to finish on shutdown, ms. Default 10 000. */
  shutdownGraceMs: number;
  /** The application directory; default: the nearest above the working directory. */
  root: string | undefined;
}

/** A running command. */
export interface RunningCommand {
  readonly options: CommandOptions;
  readonly host: McpHost;
  /** The URL to connect to (http), e.g. `http://127.0.0.1:4040/mcp`. */
  readonly url: string | undefined;
  /** The HTTP server (http). */
  readonly server: http.Server | undefined;
  /** Stops: closes the listener, lets open requests finish (bounded), runs `onStop` hooks. Idempotent. */
  close(): Promise<void>;
}

const SIGNALS = ['SIGINT', 'SIGTERM'] as const;

/**
 * Runs the command: parses options, discovers the extensions, builds the host,
 * serves it over HTTP or stdio, logs a start-up summary, and on SIGINT/SIGTERM
 * shuts down and exits 0. Returns undefined after `--help`/`--version`.
 */
export async function runCommand(argv: readonly string[], env: NodeJS.ProcessEnv, overrides: Partial<CommandDependencies> = {}): Promise<RunningCommand | undefined> {
  const deps: CommandDependencies = {
    loadExtensions: defaultLoadExtensions,
    buildHost: defaultBuildHost,
    // Each transport is imported only when used, so stdio mode never loads the HTTP stack.
    createMcpApp: async (host, appOptions) => (await import('./http/app.js')).createMcpApp(host, appOptions),
    serveStdio: async (host, stdioOptions) => (await import('./stdio.js')).serveStdio(host, stdioOptions),
    createLogger: async (level, name): Promise<Logger> => {
      const { pino } = await import('pino');
      const logger: Logger = pino({ level, name }, pino.destination({ dest: 2, sync: true }));
      return logger;
    },
    stdout: (text) => process.stdout.write(text),
    signals: process,
    exit: (code) => process.exit(code),
    shutdownGraceMs: 10_000,
    root: undefined,
    ...overrides,
  };
  const options = parseCommandOptions(argv, env);
  if (options.help || options.version) {
    deps.stdout(options.help ? COMMAND_HELP : `${HOST_VERSION}\n`);
    return undefined;
  }
  const logger = await deps.createLogger(options.logLevel, options.name);
  const entries = await deps.loadExtensions({ logger, ...(options.extensions ? { names: options.extensions } : {}), ...(deps.root ? { root: deps.root } : {}) });
  const host = await deps.buildHost(entries, { name: options.name, toolsetsTool: options.toolsetsTool, logger });
  let served: { running: RunningCommand; ended: Promise<void> | undefined };
  try {
    served = options.transport === 'http' ? { running: await serveHttp(host, options, deps, logger), ended: undefined } : await serveOverStdio(host, options, deps);
  } catch (error) {
    // The host started (onStart ran): it must stop (onStop) even when serving could not begin.
    await host.stop();
    throw error;
  }
  const { running, ended } = served;
  logSummary(host, options, running.url, logger);

  let stopping = false;
  const stop = (why: string, fields: Record<string, unknown>) => {
    if (stopping) return;
    stopping = true;
    logger.info(fields, `${why}; shutting down`);
    void running.close().then(
      () => deps.exit(0),
      (error: unknown) => {
        logger.error({ err: error }, `shutdown failed: ${errorMessage(error)}`);
        deps.exit(1);
      },
    );
  };
  // `once`: a second signal gets Node's default action, so a stuck shutdown can still be interrupted.
  const onSignal = (signal: NodeJS.Signals) => stop(`received ${signal} (send it again to stop at once)`, { signal });
  for (const signal of SIGNALS) deps.signals.once(signal, onSignal);
  void ended?.then(() => stop('the client closed the stdio connection', {}));
  return {
    ...running,
    close: () => {
      stopping = true;
      for (const signal of SIGNALS) deps.signals.removeListener(signal, onSignal);
      return running.close();
    },
  };
}

async function serveHttp(host: McpHost, options: CommandOptions, deps: CommandDependencies, logger: Logger): Promise<RunningCommand> {
  const app = await deps.createMcpApp(host, {
    path: options.path,
    ...(options.toolsets === undefined ? {} : { defaultSelection: options.toolsets }),
    ignoreQueryKeys: options.ignoreQueryKeys,
    sessions: options.sessions,
    ...(options.allowedHosts === undefined ? {} : { allowedHosts: options.allowedHosts }),
  });
  // Requests that are answering (not standing GET streams, which only end when their session does).
  const inFlight = new Set<ServerResponse>();
  let draining = false;
  let drained: (() => void) | undefined;
  const server = http.createServer((req: IncomingMessage, res: ServerResponse) => {
    if (draining) {
      res.writeHead(503, { 'content-type': 'application/json', connection: 'close', 'retry-after': '1' }).end(JSON.stringify({ error: 'the server is shutting down' }));
      return;
    }
    if (req.method !== 'GET') {
      inFlight.add(res);
      res.once('close', () => {
        inFlight.delete(res);
        if (inFlight.size === 0) drained?.();
      });
    }
    app(req, res);
  });
  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(options.port, options.host, () => {
        server.off('error', reject);
        resolve();
      });
    });
  } catch (error) {
    await app.close();
    throw invalid(`flag "--port" / "--host"`, `cannot listen on ${options.host}:${options.port} (${errorMessage(error)})`, undefined, undefined, 'choose another --port (0 picks a free one) or --host');
  }
  const url = `http://${urlHost(options.host)}:${(server.address() as AddressInfo).port}${options.path}`;
  let closing: Promise<void> | undefined;
  const close = () =>
    (closing ??= (async () => {
      draining = true;
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeIdleConnections();
      if (inFlight.size > 0) {
        logger.info({ requests: inFlight.size }, `letting ${inFlight.size} open request(s) finish (up to ${deps.shutdownGraceMs} ms)`);
        let timer: NodeJS.Timeout | undefined;
        await Promise.race([
          new Promise<void>((resolve) => (drained = resolve)),
          new Promise<void>((resolve) => (timer = setTimeout(resolve, deps.shutdownGraceMs))),
        ]);
        clearTimeout(timer);
        if (inFlight.size > 0) logger.warn({ requests: inFlight.size }, `${inFlight.size} request(s) still open after ${deps.shutdownGraceMs} ms; closing them`);
      }
      await app.close();
      server.closeAllConnections();
      await closed;
      await host.stop();
      logger.info('stopped');
    })());
  return { options, host, url, server, close };
}

/** Serves stdio; `ended` resolves when the client closes the connection. */
async function serveOverStdio(host: McpHost, options: CommandOptions, deps: CommandDependencies): Promise<{ running: RunningCommand; ended: Promise<void> }> {
  const served = await deps.serveStdio(host, options.toolsets === undefined ? {} : { selection: options.toolsets });
  let closing: Promise<void> | undefined;
  const close = () =>
    (closing ??= (async () => {
      await served.close();
      await host.stop();
    })());
  return { running: { options, host, url: undefined, server: undefined, close }, ended: served.closed };
}

function urlHost(host: string): string {
  if (host === '0.0.0.0' || host === '::' || host === '') return 'localhost';
  return host.includes(':') ? `[${host}]` : host;
}

/** One start-up summary: what was loaded, what is held, what was skipped and why, and where to connect. */
function logSummary(host: McpHost, options: CommandOptions, url: string | undefined, logger: Logger): void {
  const report = host.report();
  const label = (e: { name: string; version: string }) => `${e.name}@${e.version}`;
  const loaded = report.extensions.filter((e) => e.state === 'active').map(label);
  const held = report.extensions.filter((e) => e.state === 'held').map((e) => `${label(e)} (${e.activationEvents.join(', ')})`);
  const skipped = report.extensions
    .filter((e) => e.state !== 'active' && e.state !== 'held')
    .map((e) => ({ extension: label(e), state: e.state, why: report.problems.filter((p) => p.extension === e.name).map((p) => `[${p.code}] ${p.message}`) }));
  const where = url === undefined ? 'over stdio' : `at ${url}`;
  const counts = `${loaded.length} loaded, ${held.length} held, ${skipped.length} skipped`;
  const fields = { transport: options.transport, url, loaded, held, skipped, toolsets: host.declaredToolsets().map((t) => t.name) };
  const message = `${options.name} serving ${counts} extension(s) ${where}`;
  if (skipped.length > 0) logger.warn(fields, message);
  else logger.info(fields, message);
}
