/**
 * The command's options: flags and environment variables, parsed by a pure
 * function (flags win over environment variables, which win over defaults),
 * and the usage text `--help` prints.
 */
import { parseArgs } from 'node:util';
import { AUTH_FLAGS, AUTH_HELP, authConfigured, parseAuthOptions, type CommandAuthOptions } from './auth/options.js';
import { describeValue, ErrorCodes, ReactorError } from '../kernel/errors.js';
import { nearest } from '../kernel/didYouMean.js';
import { EXTENSION_NAME_PATTERN } from '../contract/extension.js';
import { LOG_LEVELS, type LogLevel } from '../kernel/logger.js';
import { MIN_REQUEST_STATE_KEY_BYTES } from '../host/mint/requestState.js';
import { normalizeOrigin } from '../serve/http/cors.js';

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
  /** The HTTP app's fast path (`createMcpApp`'s `fastPath`); default on. */
  readonly fastPath: boolean;
  readonly sessions: boolean;
  /** Serve only read-only tools on every request; no URL or header can loosen it. */
  readonly readOnly: boolean;
  /** Dynamic toolsets on every HTTP connection that does not say `dynamic=false` (`createMcpApp({ dynamicToolsets })`). */
  readonly dynamicToolsets: boolean;
  readonly logLevel: LogLevel;
  /** Signs the `requestState` of input-required results (≥ 32 bytes; replicas share it); undefined: a random key per process. */
  readonly requestStateKey: string | undefined;
  /** `REACTOR_TASKS_SECRET`: the key task ids are signed with (replicas sharing a task store share it); else derived from `requestStateKey` with `--redis-url`. */
  readonly tasksSecret?: string | undefined;
  /** Authentication (http): `--auth-*`, `--public-url`, `--no-auth`. */
  readonly auth: CommandAuthOptions;
  /** `--watch`: reload linked extension packages on change (development only; HTTP only). */
  readonly watch: boolean;
  /** `json`: one JSON object a line (for log shippers); `pretty`: readable lines, via pino-pretty. */
  readonly logFormat: 'json' | 'pretty';
  /** The application directory (holding its package.json); undefined: the nearest at or above the working directory. */
  readonly root: string | undefined;
  /** Redis shared by replicas (`@reactor/redis`, loaded only then); undefined: nothing is shared. */
  readonly redisUrl: string | undefined;
  /** `--redis-key-prefix`: prefix of every Redis key and channel (replicas of one service share it); undefined: `reactor:mcp`. */
  readonly redisKeyPrefix: string | undefined;
  /** This replica's name, sent as `X-Reactor-Node`; undefined: no header. */
  readonly nodeId: string | undefined;
  /** `--advertise-url`: where the other replicas reach this one (they relay its sessions' requests there); undefined: derived from the listen address. */
  readonly advertiseUrl?: string | undefined;
  /** `--event-replay-max`: SSE events kept per session for `Last-Event-ID` replay (Redis); undefined: @reactor/redis's default. */
  readonly eventReplayMax?: number | undefined;
  /** `--event-replay-age` (seconds), in ms: how long an SSE event can be replayed (Redis); undefined: @reactor/redis's default. */
  readonly eventReplayAgeMs?: number | undefined;
  /** `--session-idle-timeout` (seconds), in ms: a session idle this long is closed; undefined: 30 minutes. */
  readonly sessionIdleTimeoutMs?: number | undefined;
  /** `--metrics-port`: serve Prometheus metrics at `/metrics` on this port of `host` (needs prom-client); undefined: off. */
  readonly metricsPort: number | undefined;
  /** `--log-payloads` (debugging): the access log also carries request and response bodies (never tokens). */
  readonly logPayloads: boolean;
  /** `--help`: print the usage and exit. */
  readonly help: boolean;
  /** `--version`: print the host version and exit. */
  readonly version: boolean;
  /** `serve` (the default) or `server-json` (print a server.json for the MCP registry and exit). */
  readonly command: 'serve' | 'server-json';
  /** Serve the catalog page at `/` when `@reactor/catalog` is installed. */
  readonly catalog: boolean;
  /** Browser origins allowed cross-origin (CORS); undefined: none. */
  readonly corsOrigins: readonly string[] | undefined;
  /** `--cors-allow-any-origin-without-auth`: `--cors-origin '*'` is accepted without auth (otherwise refused). */
  readonly corsAllowAnyOriginWithoutAuth: boolean;
  /** `server-json`: the registry name (default: package.json `mcpName`). */
  readonly registryName: string | undefined;
  /** `server-json`: a deployment's public MCP endpoint to list under `remotes`. */
  readonly remoteUrl: string | undefined;
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
  'cors-origin': { type: 'string', multiple: true },
  'cors-allow-any-origin-without-auth': { type: 'boolean' },
  catalog: { type: 'boolean' },
  'no-catalog': { type: 'boolean' },
  'registry-name': { type: 'string' },
  'remote-url': { type: 'string' },
  'toolsets-tool': { type: 'boolean' },
  'no-toolsets-tool': { type: 'boolean' },
  'fast-path': { type: 'boolean' },
  'no-fast-path': { type: 'boolean' },
  sessions: { type: 'boolean' },
  stateless: { type: 'boolean' },
  'read-only': { type: 'boolean' },
  'dynamic-toolsets': { type: 'boolean' },
  'log-level': { type: 'string' },
  'request-state-key': { type: 'string' },
  watch: { type: 'boolean' },
  'log-format': { type: 'string' },
  root: { type: 'string' },
  'redis-url': { type: 'string' },
  'redis-key-prefix': { type: 'string' },
  'node-id': { type: 'string' },
  'advertise-url': { type: 'string' },
  'event-replay-max': { type: 'string' },
  'event-replay-age': { type: 'string' },
  'session-idle-timeout': { type: 'string' },
  'metrics-port': { type: 'string' },
  'log-payloads': { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
  version: { type: 'boolean', short: 'v' },
  ...AUTH_FLAGS,
} satisfies Record<string, Flag>;
type FlagName = keyof typeof FLAGS;

/** The usage text `--help` prints. */
export const COMMAND_HELP = `Usage: reactor-mcp-server [options]
       reactor-mcp-server server-json [--registry-name NAME] [--remote-url URL]

Serves the Reactor MCP extensions installed in the application (the nearest
package.json at or above the working directory). Logs go to stderr.

       reactor-mcp-server check [dir] [--json] [--strict]   lint an extension package (check --help)
       reactor-mcp-server cluster status|enable|disable …   operate running replicas through their Redis
                                                            (cluster --help)

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
  --cors-origin ORIGIN        REACTOR_MCP_CORS_ORIGINS    (comma list) a browser origin allowed cross-origin (CORS),
                                                          e.g. https://app.example.com, or *; repeatable; default none
  --cors-allow-any-origin-without-auth                    accept --cors-origin '*' with no authentication (any web
                                                          page could then call every tool); refused otherwise
                                                          [REACTOR_MCP_CORS_ALLOW_ANY_ORIGIN_WITHOUT_AUTH]
  --[no-]catalog              REACTOR_MCP_CATALOG         default on: the catalog page at / (when @reactor/catalog
                                                          is installed)
  --[no-]toolsets-tool        REACTOR_MCP_TOOLSETS_TOOL   default on: serve list_server_toolsets
  --sessions | --stateless    REACTOR_MCP_SESSIONS        default sessions on
  --[no-]fast-path            REACTOR_MCP_FAST_PATH       default on: list/call/read/get requests without a session
                                                          (2026-07-28, 2025 stateless) served by a server shared per
                                                          blueprint (off: the SDK's per-request path)
  --read-only                 REACTOR_MCP_READ_ONLY       serve only tools annotated readOnlyHint: true, on every
                                                          request; no URL or header can loosen it (default off)
  --dynamic-toolsets          REACTOR_MCP_DYNAMIC_TOOLSETS  http: sessions start with their selection plus
                                                          list_available_toolsets, get_toolset_tools and
                                                          enable_toolset, and the model turns toolsets on (default
                                                          off; a URL opts in with ?dynamic, out with dynamic=false)
  --log-level LEVEL           REACTOR_MCP_LOG             ${LOG_LEVELS.join('|')}, default info
  --request-state-key KEY     REACTOR_MCP_REQUEST_STATE_KEY  signs requestState (at least ${MIN_REQUEST_STATE_KEY_BYTES} bytes; every
                                                          replica needs the same); default a random key per process
  --watch                                                 development only: rebuild and reload linked extension
                                                          packages on change, telling open sessions (http only)
  --log-format json|pretty    REACTOR_MCP_LOG_FORMAT      default json; pretty: readable lines for a terminal
  --root DIR                  REACTOR_MCP_ROOT            the application directory (its package.json lists the
                                                          extensions); default: the nearest at or above the
                                                          working directory
  --redis-url URL             REACTOR_MCP_REDIS_URL       share session streams and change events with other replicas
                                                          through Redis (needs the @reactor/redis package installed)
  --redis-key-prefix PREFIX   REACTOR_MCP_REDIS_KEY_PREFIX  prefix of every Redis key and channel; replicas of one
                                                          service share it (default reactor:mcp)
  --node-id NAME              REACTOR_MCP_NODE_ID         this replica's name, sent as the X-Reactor-Node header
                                                          (default: no header)
  --advertise-url URL         REACTOR_MCP_ADVERTISE_URL   where the other replicas reach this one (http://10.0.0.12:4040):
                                                          they relay its sessions' requests there; default the listen
                                                          address (0.0.0.0: this machine's first external IPv4)
  --event-replay-max N        REACTOR_MCP_EVENT_REPLAY_MAX  SSE events kept per session in Redis for Last-Event-ID
                                                          replay (default 100)
  --event-replay-age SECONDS  REACTOR_MCP_EVENT_REPLAY_AGE  how long an SSE event can be replayed (default 300)
  --session-idle-timeout SECONDS  REACTOR_MCP_SESSION_IDLE_TIMEOUT  a 2025 session idle this long is closed
                                                          (default 1800)
  --metrics-port PORT         REACTOR_MCP_METRICS_PORT    serve Prometheus metrics at /metrics on this port (its own
                                                          listener on --host, never the MCP port; needs prom-client
                                                          installed); default off
  --log-payloads              REACTOR_MCP_LOG_PAYLOADS    debugging only: the access log lines also carry the request
                                                          and response bodies (tool arguments and results, cut at
                                                          16 KiB); never tokens. Default off
  -h, --help                  print this help
  -v, --version               print the version of @reactor/host
${AUTH_HELP}
server-json prints a server.json for the official MCP registry, from the
application's package.json ("mcpName", "description", "version", "repository")
and its extensions' toolsets:
  --registry-name NAME        the registry name, e.g. io.github.owner/server (default: package.json mcpName)
  --remote-url URL            list a deployment's public endpoint under "remotes"
`;

export const HINT = 'run reactor-mcp-server --help for the options';
const FALSE = ['0', 'false', 'off', 'no'];
const TRUE = ['1', 'true', 'on', 'yes'];

export function invalid(subject: string, problem: string, expected?: string, received?: string, hint = HINT): ReactorError {
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
  // `pnpm start -- --port 5050` passes the "--" on (pnpm 12): a leading one separates nothing, so it is dropped.
  const args = argv[0] === '--' ? argv.slice(1) : [...argv];
  const { tokens } = parseArgs({ args, options: FLAGS, strict: false, allowPositionals: true, tokens: true });
  let afterTerminator = false;
  const strings = new Map<FlagName, string[]>();
  const booleans = new Map<FlagName, number>();
  let subcommand: CommandOptions['command'] = 'serve';
  for (const token of tokens) {
    if (token.kind === 'option-terminator') {
      afterTerminator = true;
      continue;
    }
    if (token.kind === 'positional') {
      if (token.value === 'server-json' && token.index === 0) {
        subcommand = 'server-json';
        continue;
      }
      if (afterTerminator) throw invalid(`argument ${JSON.stringify(token.value)}`, 'comes after "--", which makes it a plain argument, and reactor-mcp-server takes flags only', undefined, undefined, `remove the "--"; ${HINT}`);
      throw invalid(`argument ${JSON.stringify(token.value)}`, 'is not a flag; reactor-mcp-server takes flags only, such as --port 4040 (or the command server-json first)', undefined, undefined, flagHint(token.value));
    }
    const flag = FLAGS[token.name as FlagName] as Flag | undefined;
    if (flag === undefined) throw invalid(`flag "${token.rawName}"`, 'is not an option of reactor-mcp-server', undefined, undefined, flagHint(token.rawName));
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
  const toggle = (on: FlagName, off: FlagName | undefined, variable: string, fallback: boolean): boolean => {
    const onAt = booleans.get(on) ?? -1;
    const offAt = off === undefined ? -1 : (booleans.get(off) ?? -1);
    if (onAt >= 0 || offAt >= 0) return onAt > offAt;
    const raw = env[variable];
    if (raw === undefined || raw === '') return fallback;
    const value = raw.trim().toLowerCase();
    // The flags' own names count too: REACTOR_MCP_SESSIONS=stateless reads as it says.
    if (TRUE.includes(value) || value === on) return true;
    if (FALSE.includes(value) || (off !== undefined && value === off)) return false;
    throw invalid(`environment variable ${variable}`, 'is not a boolean', `one of ${[...TRUE, on, ...FALSE, ...(off === undefined ? [] : [off])].join(', ')}`, describeValue(raw));
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
  const requestStateKey = pick('request-state-key', 'REACTOR_MCP_REQUEST_STATE_KEY');
  if (requestStateKey !== undefined && Buffer.byteLength(requestStateKey.value, 'utf8') < MIN_REQUEST_STATE_KEY_BYTES) {
    throw invalid(requestStateKey.from, 'is too short to sign requestState', `at least ${MIN_REQUEST_STATE_KEY_BYTES} bytes`, `${Buffer.byteLength(requestStateKey.value, 'utf8')} byte(s)`, 'generate one with `openssl rand -base64 48` and give every replica the same key');
  }
  const corsFlag = strings.get('cors-origin');
  const corsOrigins = corsFlag ?? splitList(env.REACTOR_MCP_CORS_ORIGINS);
  const corsFrom = corsFlag ? 'flag "--cors-origin"' : 'environment variable REACTOR_MCP_CORS_ORIGINS';
  for (const origin of corsOrigins ?? []) {
    if (normalizeOrigin(origin) === undefined) throw invalid(corsFrom, 'names something that is not an origin', 'scheme://host[:port] without a path, such as https://app.example.com, or *', describeValue(origin));
  }
  const redisUrl = pick('redis-url', 'REACTOR_MCP_REDIS_URL');
  if (redisUrl !== undefined && !/^rediss?:\/\/[^\s]+$/.test(redisUrl.value)) {
    throw invalid(redisUrl.from, 'is not a Redis URL', 'redis://[[user]:password@]host[:port][/db] or rediss://…', describeValue(redisUrl.value.replace(/:[^:@/]*@/, ':***@')));
  }
  const redisKeyPrefix = parseRedisKeyPrefix(pick('redis-key-prefix', 'REACTOR_MCP_REDIS_KEY_PREFIX'));
  const nodeId = pick('node-id', 'REACTOR_MCP_NODE_ID');
  if (nodeId !== undefined && !/^[\x21-\x7e]{1,200}$/.test(nodeId.value)) throw invalid(nodeId.from, 'is not a node name', 'visible ASCII characters without spaces, such as web-1', describeValue(nodeId.value));
  const advertiseUrl = pick('advertise-url', 'REACTOR_MCP_ADVERTISE_URL');
  if (advertiseUrl !== undefined && !/^https?:\/\/[^\s/?#]+\/?$/.test(advertiseUrl.value)) {
    throw invalid(advertiseUrl.from, 'is not a base URL', 'http(s)://host:port without a path, such as http://10.0.0.12:4040', describeValue(advertiseUrl.value));
  }
  const whole = (flag: FlagName, variable: string, min: number, what: string): number | undefined => {
    const got = pick(flag, variable);
    if (got === undefined) return undefined;
    if (!/^\d{1,9}$/.test(got.value) || Number(got.value) < min) throw invalid(got.from, `is not ${what}`, `a whole number, at least ${min}`, describeValue(got.value));
    return Number(got.value);
  };
  const eventReplayMax = whole('event-replay-max', 'REACTOR_MCP_EVENT_REPLAY_MAX', 1, 'a number of events');
  const eventReplayAge = whole('event-replay-age', 'REACTOR_MCP_EVENT_REPLAY_AGE', 1, 'a number of seconds');
  const sessionIdleTimeout = whole('session-idle-timeout', 'REACTOR_MCP_SESSION_IDLE_TIMEOUT', 1, 'a number of seconds');
  const metricsPort = pick('metrics-port', 'REACTOR_MCP_METRICS_PORT');
  if (metricsPort !== undefined && !(/^\d{1,5}$/.test(metricsPort.value) && Number(metricsPort.value) <= 65535)) {
    throw invalid(metricsPort.from, 'is not a port', 'a whole number from 0 to 65535 (0: a free port)', describeValue(metricsPort.value));
  }
  const mcpPort = port === undefined ? 4040 : Number(port.value);
  if (metricsPort !== undefined && Number(metricsPort.value) !== 0 && Number(metricsPort.value) === mcpPort) {
    // Metrics on the MCP listener would reach MCP clients (and skip its auth): they get a listener of their own.
    throw invalid(metricsPort.from, `is the MCP port (${mcpPort}); metrics are served on a listener of their own`, 'a port other than the MCP port', metricsPort.value, 'choose another port, e.g. --metrics-port 9464');
  }
  const ignoreQueryKeys = strings.get('ignore-query-key') ?? [];
  if (ignoreQueryKeys.some((k) => k.trim() === '')) throw invalid('flag "--ignore-query-key"', 'is empty', 'a query key such as utm_source');

  const transport = oneOf('transport', 'REACTOR_MCP_TRANSPORT', ['http', 'stdio'] as const, 'http');
  const host = text('host', 'REACTOR_MCP_HOST', '127.0.0.1');
  const auth = parseAuthOptions({ strings: (flag) => strings.get(flag), position: (flag) => booleans.get(flag) ?? -1 }, env, { transport, host });
  const corsAllowAnyOriginWithoutAuth = toggle('cors-allow-any-origin-without-auth', undefined, 'REACTOR_MCP_CORS_ALLOW_ANY_ORIGIN_WITHOUT_AUTH', false);
  if (transport === 'http' && corsOrigins?.includes('*') && !authConfigured(auth) && !corsAllowAnyOriginWithoutAuth) {
    throw invalid(
      corsFrom,
      "allows any origin (*) while no authentication is configured, so any web page, in any visitor's browser, could call every tool",
      'the browser origins you trust (--cors-origin https://app.example.com), or authentication (--auth-issuer, --auth-introspection-url, --auth-tokens-file)',
      '*',
      'list the origins, configure authentication, or pass --cors-allow-any-origin-without-auth if every tool is harmless to anyone',
    );
  }
  return {
    transport,
    host,
    port: mcpPort,
    // `/mcp/` and `/mcp` are one endpoint; the app never redirects between them.
    path: rawPath === undefined ? '/mcp' : rawPath.value.replace(/\/+$/, '') || '/',
    name: text('name', 'REACTOR_MCP_NAME', 'reactor-mcp-server'),
    extensions: extensions === undefined ? undefined : [...new Set(extensions)],
    toolsets: pick('toolsets', 'REACTOR_MCP_TOOLSETS')?.value.replace(/^\?/, ''),
    ignoreQueryKeys: ignoreQueryKeys.map((k) => k.trim()),
    allowedHosts: allowedHosts === undefined ? undefined : [...new Set(allowedHosts)],
    toolsetsTool: toggle('toolsets-tool', 'no-toolsets-tool', 'REACTOR_MCP_TOOLSETS_TOOL', true),
    fastPath: toggle('fast-path', 'no-fast-path', 'REACTOR_MCP_FAST_PATH', true),
    sessions: toggle('sessions', 'stateless', 'REACTOR_MCP_SESSIONS', true),
    readOnly: toggle('read-only', undefined, 'REACTOR_MCP_READ_ONLY', false),
    dynamicToolsets: toggle('dynamic-toolsets', undefined, 'REACTOR_MCP_DYNAMIC_TOOLSETS', false),
    logLevel: oneOf('log-level', 'REACTOR_MCP_LOG', LOG_LEVELS, 'info'),
    requestStateKey: requestStateKey?.value,
    ...(env.REACTOR_TASKS_SECRET === undefined || env.REACTOR_TASKS_SECRET === '' ? {} : { tasksSecret: env.REACTOR_TASKS_SECRET }),
    auth,
    watch: booleans.has('watch'),
    logFormat: oneOf('log-format', 'REACTOR_MCP_LOG_FORMAT', ['json', 'pretty'] as const, 'json'),
    root: text('root', 'REACTOR_MCP_ROOT', '') || undefined,
    redisUrl: redisUrl?.value,
    redisKeyPrefix,
    nodeId: nodeId?.value,
    advertiseUrl: advertiseUrl?.value.replace(/\/$/, ''),
    eventReplayMax,
    eventReplayAgeMs: eventReplayAge === undefined ? undefined : eventReplayAge * 1000,
    sessionIdleTimeoutMs: sessionIdleTimeout === undefined ? undefined : sessionIdleTimeout * 1000,
    metricsPort: metricsPort === undefined ? undefined : Number(metricsPort.value),
    logPayloads: toggle('log-payloads', undefined, 'REACTOR_MCP_LOG_PAYLOADS', false),
    help: booleans.has('help'),
    version: booleans.has('version'),
    command: subcommand,
    catalog: toggle('catalog', 'no-catalog', 'REACTOR_MCP_CATALOG', true),
    corsOrigins: corsOrigins === undefined ? undefined : [...new Set(corsOrigins)],
    corsAllowAnyOriginWithoutAuth,
    registryName: pick('registry-name')?.value,
    remoteUrl: pick('remote-url')?.value,
  };
}

/** "did you mean --port?" for a mistyped flag (or a flag written without its dashes), else the usual hint. */
function flagHint(typed: string): string {
  const flags = Object.entries(FLAGS as Record<string, Flag>).flatMap(([name, flag]) => [`--${name}`, ...(flag.short ? [`-${flag.short}`] : [])]);
  const bare = typed.replace(/^-+/, '').replace(/=.*$/, '');
  const match = nearest(bare, flags.map((f) => f.replace(/^-+/, '')));
  const flag = match === undefined ? undefined : flags.find((f) => f.replace(/^-+/, '') === match);
  return flag === undefined || flag === typed ? HINT : `did you mean ${flag}? (${HINT})`;
}

/** A Redis key prefix, checked: visible ASCII, no spaces (shared by the serve and cluster commands). */
export function parseRedisKeyPrefix(got: { value: string; from: string } | undefined): string | undefined {
  if (got === undefined) return undefined;
  if (!/^[\x21-\x7e]{1,100}$/.test(got.value)) throw invalid(got.from, 'is not a Redis key prefix', 'up to 100 visible ASCII characters without spaces, such as reactor:mcp', describeValue(got.value));
  return got.value;
}

function splitList(value: string | undefined): string[] | undefined {
  if (value === undefined || value.trim() === '') return undefined;
  return value.split(',').map((s) => s.trim()).filter((s) => s !== '');
}
