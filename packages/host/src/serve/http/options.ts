/**
 * The options of `createMcpApp`, their defaults, and their validation (a bad
 * option fails at start-up with `REACTOR_OPTION_INVALID`, never on a request).
 */
import type { IncomingMessage } from 'node:http';
import type { EventStore, ServerEventBus } from '@modelcontextprotocol/server';
import { describeValue, ErrorCodes, ReactorError } from '../../kernel/errors.js';
import type { Logger } from '../../kernel/logger.js';
import { assertKnownKeys, type OptionKeys } from '../../kernel/optionKeys.js';
import { parseSelection, type Selection } from '../../selection/selection.js';
import type { TokenCounter } from '../../host/tokens.js';
import { AUTH_OPTION_KEYS, type McpAppAuthOptions } from './auth.js';
import type { CatalogRenderer } from './catalog.js';
import { normalizeOrigin } from './cors.js';
import { normalizeAllowedHost } from './guards.js';
import type { ServerCardOptions } from './serverCard.js';
import type { SessionScopedEventStore } from './sessions/sessionEventStore.js';
import type { SessionRegistry } from './sessions/sessionRegistry.js';
import type { McpAppTaskOptions } from './tasks/taskStore.js';
import { resolveTaskSettings, type TaskSettings } from './tasks/taskEngine.js';
import { SESSION_OPTION_KEYS, type McpAppSessionOptions } from './sessions/sessions.js';

/** Default request body limit: 4 MiB. */
export const DEFAULT_MAX_BODY_BYTES = 4 * 1024 * 1024;

/** Options of `createMcpApp`. Every one is optional. */
export interface McpAppOptions {
  /** The MCP endpoint. Default `/mcp`; `{path}/<selection>` is served too, and `{path}/` never redirects. */
  readonly path?: string;
  /** `GET /healthz`; `false` to serve your own, or another path. Default `/healthz`. */
  readonly healthz?: boolean | string;
  /** `GET /toolsets`; `false` to serve your own, or another path. Default `/toolsets`. */
  readonly toolsetsRoute?: boolean | string;
  /**
   * Resumable streams for sessions (the SDK's `EventStore`). Each session gets
   * its own view of it: event ids name their session, and a `Last-Event-ID`
   * from another session resolves to nothing (400), so one session can never
   * replay another's events. A store that scopes sessions itself
   * (`forSession`/`endSession`, e.g. `@reactor/redis`) is asked for each
   * session's store instead, and told when a session ends.
   */
  readonly eventStore?: EventStore | SessionScopedEventStore;
  /**
   * Where the host's changes are published for 2026-07-28 `subscriptions/listen`
   * streams (the SDK's `ServerEventBus`): tools/prompts/resources list changed
   * when the host's surface changes, resource updated from
   * `host.notifyResourceUpdated`. Default: a new in-process
   * `InMemoryServerEventBus` for this app. Replicas share changes by passing a
   * bus over their own pub/sub (Redis, say). A bus that also has
   * `subscribeRemote(listener)` — events other replicas published, as
   * `@reactor/redis`'s has — gets their resource-updated events passed on to
   * this replica's subscribed 2025 sessions too.
   */
  readonly bus?: ServerEventBus;
  /** The SSE `retry` hint (ms) sent with resumable streams. */
  readonly retryInterval?: number;
  /** Used when a request names nothing (after `ignoreQueryKeys` are dropped): a query string or a selection. */
  readonly defaultSelection?: string | Selection;
  /** Query keys that are not selections (`utm_source`, a proxy's token), dropped from query, path and header. */
  readonly ignoreQueryKeys?: Iterable<string>;
  /**
   * Stateful 2025-protocol sessions (`Mcp-Session-Id`). Default on, with a
   * 30-minute idle timeout and at most 1000 sessions. `false`: every request
   * is served statelessly (a fresh server per request).
   */
  readonly sessions?: boolean | McpAppSessionOptions;
  /**
   * Where replicas record their 2025-protocol sessions, so that a request for
   * a session whose replica died (or that the balancer moved) is served by
   * the replica it reaches: the session is claimed and rebuilt there under the
   * same id, for the same tenant and principal only (anyone else gets 404);
   * while its replica is alive the answer is 503 with `Retry-After`. On
   * `close()` the app releases the registry first, so its sessions can move
   * at once. Default: none (sessions live and die with this process).
   * `@reactor/redis`'s `connectRedis` gives one (`sessions`).
   */
  readonly sessionRegistry?: SessionRegistry;
  /**
   * Tasks (2026-07-28, `io.modelcontextprotocol/tasks`): where they live
   * (`store`, default in memory), the key their ids are signed with, TTL,
   * poll interval and caps. `false` turns the extension off.
   */
  readonly tasks?: McpAppTaskOptions | false;
  /** The tenant of a request: its own blueprints and extensions (`manifest.tenants`). */
  readonly tenant?: (req: IncomingMessage) => string | undefined;
  /**
   * Host names (no port) a request's `Host` may carry; checked on every route.
   * Default (DNS-rebinding protection): a connection that arrives on a
   * loopback address (`req.socket.localAddress`: 127.0.0.0/8, `::1`) may only
   * say `localhost`, `127.0.0.1` or `[::1]`; other connections are unchecked,
   * since their public names are not knowable. Behind a reverse proxy — which
   * forwards the public `Host` to a loopback port — list the public names here
   * (`['mcp.example.com']`); the list then applies to every connection.
   * Entries are normalized (`https://Example.com:443` → `example.com`).
   */
  readonly allowedHosts?: readonly string[];
  /**
   * Browser origins (host names) allowed in `Origin`; requests without `Origin`
   * always pass. Default: `allowedHosts` when given, else the localhost names
   * on a loopback listener, else unchecked.
   */
  readonly allowedOrigins?: readonly string[];
  /** Bearer-token authentication on every MCP route; see {@link McpAppAuthOptions}. */
  readonly auth?: McpAppAuthOptions;
  /** Largest request body, bytes; larger ones are answered 413. Default 4 MiB. */
  readonly maxBodyBytes?: number;
  /**
   * Serve every request read-only: only tools whose final annotations say
   * `readOnlyHint: true`. No URL, header or token can loosen it (`readonly=false`
   * is reported, not obeyed). Default `false`.
   */
  readonly readOnly?: boolean;
  /**
   * This replica's name, sent as the `X-Reactor-Node` response header on every
   * route (so operators and tests see which node answered). Default: no header.
   */
  readonly nodeId?: string;
  /**
   * One `info` line per HTTP request on the app's logger: method, path,
   * toolsets, status, duration, the `Mcp-Method`/`Mcp-Name` headers, the node
   * id, and `trace_id`/`span_id` when a request span was recorded. Never
   * headers otherwise, tokens, the query string, arguments or results.
   * Default `true`.
   */
  readonly accessLog?: boolean;
  /**
   * Debugging only: the access log line also carries the request's JSON-RPC
   * body (`request`: tool arguments included) and the response body
   * (`response`: results included), each cut at 16 KiB. Never the
   * `Authorization` header or the query string, even then. Needs `accessLog`.
   * Default `false` (`--log-payloads` / `REACTOR_MCP_LOG_PAYLOADS` on the command).
   */
  readonly logPayloads?: boolean;
  /**
   * Checks of what the app relies on (a shared store, say), run on each
   * `GET /healthz`: a failing one makes the body `degraded: true` with its
   * detail under `checks`, but the status stays 200 — a shared dependency
   * being down must not make a balancer drain every replica at once.
   */
  readonly healthChecks?: readonly McpAppHealthCheck[];
  /** Where the app logs. Default: the host's logger. */
  readonly logger?: Logger;
  /**
   * Browser origins allowed to call the app cross-origin (CORS), e.g.
   * `["https://inspector.example.com"]`; `"*"` allows any. Default: none (no
   * CORS headers; preflights get 405). Listed origins also pass the Origin
   * check of DNS-rebinding protection; the Host check is unchanged.
   * `"*"` without `auth` is refused unless {@link McpAppOptions.corsAllowAnyOriginWithoutAuth}
   * says so, and CORS without `auth` is warned about at start-up.
   */
  readonly corsOrigins?: readonly string[];
  /**
   * Allow `corsOrigins: ["*"]` on an app without `auth`: any web page, in any
   * visitor's browser, may then call every tool (read what they read, run
   * what they run). Only for a server that is harmless to everyone or
   * authenticated in front of the app (a reverse proxy). Default `false`.
   */
  readonly corsAllowAnyOriginWithoutAuth?: boolean;
  /** A catalog page at `GET /` (e.g. `@reactor/catalog`'s renderer). Default: none. */
  readonly catalog?: CatalogRenderer | false;
  /** Counts tokens: `/toolsets` (and the catalog) then say what each toolset and the selection cost (counted once per blueprint). */
  readonly tokenCounter?: TokenCounter;
  /** The MCP Server Card at `{path}/server-card`; `false` to serve none. Default: on, described from the host. */
  readonly serverCard?: boolean | ServerCardOptions;
  /**
   * The fast path for `tools/list`, `tools/call`, `resources/list`,
   * `resources/read`, `prompts/list` and `prompts/get` requests, 2026-07-28
   * (and its `server/discover`) or 2025 without a session: answered by a
   * server shared per blueprint, from the Node request, with no per-request
   * server, transport or fetch conversion; anything else falls through to the
   * SDK's per-request path, which answers identically (docs/performance.md).
   * Default `true`, unless the environment says `REACTOR_MCP_FAST_PATH=off`.
   */
  readonly fastPath?: boolean;
  /**
   * Dynamic toolsets for every connection that does not say `dynamic=false`:
   * a session starts with what its URL selects plus `list_available_toolsets`,
   * `get_toolset_tools` and `enable_toolset`, with which the model turns more
   * toolsets on (bounded as a URL is). Without it, a URL opts in with `?dynamic`.
   * Default `false`.
   */
  readonly dynamicToolsets?: boolean;
}

/**
 * Every key of {@link McpAppOptions}; `createMcpApp` refuses any other. Add a
 * new option here as well as to the interface (the compiler insists).
 */
export const APP_OPTION_KEYS: OptionKeys<McpAppOptions> = {
  path: true,
  healthz: true,
  toolsetsRoute: true,
  eventStore: true,
  retryInterval: true,
  defaultSelection: true,
  ignoreQueryKeys: true,
  sessions: true,
  tenant: true,
  allowedHosts: true,
  allowedOrigins: true,
  auth: true,
  maxBodyBytes: true,
  logger: true,
  bus: true,
  readOnly: true,
  corsOrigins: true,
  corsAllowAnyOriginWithoutAuth: true,
  catalog: true,
  tokenCounter: true,
  serverCard: true,
  nodeId: true,
  healthChecks: true,
  accessLog: true,
  logPayloads: true,
  sessionRegistry: true,
  tasks: true,
  fastPath: true,
  dynamicToolsets: true,
};

/** One `/healthz` check (see `McpAppOptions.healthChecks`). */
export interface McpAppHealthCheck {
  /** Its key under `checks` in the `/healthz` body. */
  readonly name: string;
  /** Synchronous and cheap: it reports a state kept elsewhere (a connection's), never does I/O. */
  check(): { readonly ok: boolean; readonly detail?: string };
}

/** The options with defaults applied. */
export interface ResolvedAppOptions {
  readonly path: string;
  readonly healthzPath: string | undefined;
  readonly toolsetsPath: string | undefined;
  readonly ignore: ReadonlySet<string>;
  readonly defaultSelection: Selection | undefined;
  readonly sessions: McpAppSessionOptions | undefined;
  readonly allowedHosts: readonly string[] | undefined;
  readonly allowedOrigins: readonly string[] | undefined;
  readonly maxBodyBytes: number;
  readonly readOnly: boolean;
  readonly dynamicToolsets: boolean;
  readonly corsOrigins: readonly string[] | undefined;
  readonly catalog: CatalogRenderer | undefined;
  readonly serverCard: ServerCardOptions | undefined;
  readonly nodeId: string | undefined;
  readonly healthChecks: readonly McpAppHealthCheck[];
  readonly accessLog: boolean;
  readonly logPayloads: boolean;
  readonly sessionRegistry: SessionRegistry | undefined;
  readonly fastPath: boolean;
  /** The tasks extension's settings; undefined when `tasks: false`. */
  readonly tasks: TaskSettings | undefined;
}

function invalid(option: string, problem: string, received: unknown, expected: string, hint?: string): ReactorError {
  return new ReactorError(ErrorCodes.OPTION_INVALID, {
    subject: `createMcpApp option "${option}"`,
    problem,
    expected,
    received: describeValue(received),
    ...(hint !== undefined ? { hint } : {}),
  });
}

function routePath(option: string, value: unknown, fallback: string): string {
  const path = value === undefined || value === true ? fallback : value;
  if (typeof path !== 'string' || !path.startsWith('/') || /[?#\s]/.test(path)) {
    throw invalid(option, 'is not a path', value, 'a path starting with "/" (no query, no spaces)', `e.g. "${fallback}"`);
  }
  return path.length > 1 ? path.replace(/\/+$/, '') || '/' : path;
}

function positive(option: string, value: unknown, fallback: number): number {
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || !Number.isFinite(value) || value <= 0) throw invalid(option, 'is not a positive number', value, 'a positive number');
  return value;
}

function hostList(option: string, value: unknown): readonly string[] | undefined {
  if (value === undefined) return undefined;
  if (!Array.isArray(value) || !value.every((v): v is string => typeof v === 'string')) throw invalid(option, 'is not a list of host names', value, 'an array of strings such as ["mcp.example.com"]');
  return value.map(normalizeAllowedHost);
}

function originList(value: unknown): readonly string[] | undefined {
  if (value === undefined) return undefined;
  if (!Array.isArray(value) || !value.every((v): v is string => typeof v === 'string')) throw invalid('corsOrigins', 'is not a list of origins', value, 'an array such as ["https://app.example.com"]');
  return value.map((entry) => {
    const origin = normalizeOrigin(entry);
    if (origin === undefined) throw invalid('corsOrigins', 'holds an entry that is not an origin', entry, 'scheme://host[:port] with no path, or "*"', 'e.g. "https://app.example.com"');
    return origin;
  });
}

/** Applies defaults and checks every option; throws `REACTOR_OPTION_INVALID`. */
export function resolveAppOptions(options: McpAppOptions): ResolvedAppOptions {
  assertKnownKeys(options, APP_OPTION_KEYS, 'createMcpApp');
  if (typeof options.sessions === 'object') assertKnownKeys(options.sessions, SESSION_OPTION_KEYS, 'createMcpApp sessions');
  if (typeof options.auth === 'object') assertKnownKeys(options.auth, AUTH_OPTION_KEYS, 'createMcpApp auth');
  const path = routePath('path', options.path, '/mcp');
  const healthzPath = options.healthz === false ? undefined : routePath('healthz', options.healthz, '/healthz');
  const toolsetsPath = options.toolsetsRoute === false ? undefined : routePath('toolsetsRoute', options.toolsetsRoute, '/toolsets');
  // With path "/" the fixed routes are matched first; otherwise they must lie outside the endpoint.
  for (const [name, other] of [['healthz', healthzPath], ['toolsetsRoute', toolsetsPath]] as const) {
    if (path !== '/' && other !== undefined && (other === path || other.startsWith(`${path}/`))) {
      throw invalid(name, `lies under the MCP path "${path}"`, other, 'a path outside the MCP endpoint', 'move it, or set it to false');
    }
  }
  if (options.ignoreQueryKeys !== undefined && (typeof options.ignoreQueryKeys !== 'object' || options.ignoreQueryKeys === null || !(Symbol.iterator in options.ignoreQueryKeys))) {
    throw invalid('ignoreQueryKeys', 'is not a list of keys', options.ignoreQueryKeys, 'an array of strings');
  }
  const ignore = new Set(typeof options.ignoreQueryKeys === 'string' ? [options.ignoreQueryKeys] : (options.ignoreQueryKeys ?? []));
  let defaultSelection: Selection | undefined;
  if (typeof options.defaultSelection === 'string') defaultSelection = parseSelection(options.defaultSelection, { ignore });
  else if (options.defaultSelection !== undefined) {
    const s = options.defaultSelection as Partial<Selection>;
    if (!(s.named instanceof Set) || !(s.without instanceof Set) || !(s.only === null || s.only instanceof Set)) {
      throw invalid('defaultSelection', 'is not a selection', options.defaultSelection, 'a query string such as "only=spaces" or a parseSelection() result');
    }
    defaultSelection = options.defaultSelection;
  }
  if (defaultSelection?.isEmpty === true) defaultSelection = undefined;
  let sessions: McpAppSessionOptions | undefined;
  if (options.sessions === undefined || options.sessions === true) sessions = {};
  else if (options.sessions === false) sessions = undefined;
  else if (typeof options.sessions === 'object' && options.sessions !== null) {
    sessions = {
      idleTimeoutMs: positive('sessions.idleTimeoutMs', options.sessions.idleTimeoutMs, 30 * 60_000),
      max: Math.floor(positive('sessions.max', options.sessions.max, 1000)),
    };
  } else throw invalid('sessions', 'is not a session setting', options.sessions, 'true, false, or { idleTimeoutMs, max }');
  if (options.tenant !== undefined && typeof options.tenant !== 'function') throw invalid('tenant', 'is not a function', options.tenant, 'a function (req) => string | undefined');
  if (options.retryInterval !== undefined) positive('retryInterval', options.retryInterval, 0);
  if (options.accessLog !== undefined && typeof options.accessLog !== 'boolean') throw invalid('accessLog', 'is not a boolean', options.accessLog, 'true (the default) for one info line per request, or false');
  if (options.logPayloads !== undefined && typeof options.logPayloads !== 'boolean') throw invalid('logPayloads', 'is not a boolean', options.logPayloads, 'false (the default), or true to log request and response bodies while debugging');
  if (options.logPayloads === true && options.accessLog === false) throw invalid('logPayloads', 'needs the access log, which accessLog: false turns off', options.logPayloads, 'drop accessLog: false, or logPayloads: true');
  if (options.dynamicToolsets !== undefined && typeof options.dynamicToolsets !== 'boolean') throw invalid('dynamicToolsets', 'is not a boolean', options.dynamicToolsets, 'true to make sessions dynamic by default, or false');
  if (options.readOnly !== undefined && typeof options.readOnly !== 'boolean') throw invalid('readOnly', 'is not a boolean', options.readOnly, 'true to serve only read-only tools, or false');
  if (options.catalog !== undefined && options.catalog !== false && typeof options.catalog !== 'function') {
    throw invalid('catalog', 'is not a renderer', options.catalog, 'a function (context) => Response, such as createCatalog() from @reactor/catalog', 'or false for no page');
  }
  if (options.catalog && path === '/') throw invalid('catalog', 'cannot be served at "/": the MCP endpoint is there', path, 'an MCP path other than "/"', 'move the endpoint (path: "/mcp") or set catalog: false');
  const counter = options.tokenCounter as Partial<TokenCounter> | undefined;
  if (counter !== undefined && (typeof counter !== 'object' || counter === null || typeof counter.count !== 'function' || typeof counter.name !== 'string')) {
    throw invalid('tokenCounter', 'is not a token counter', options.tokenCounter, '{ name: string, count(text): number }');
  }
  const corsOrigins = originList(options.corsOrigins);
  if (options.corsAllowAnyOriginWithoutAuth !== undefined && typeof options.corsAllowAnyOriginWithoutAuth !== 'boolean') {
    throw invalid('corsAllowAnyOriginWithoutAuth', 'is not a boolean', options.corsAllowAnyOriginWithoutAuth, 'false (the default), or true to allow corsOrigins ["*"] without auth');
  }
  if (corsOrigins?.includes('*') && !options.auth && options.corsAllowAnyOriginWithoutAuth !== true) {
    throw invalid(
      'corsOrigins',
      'allows any origin ("*") on an app without auth, so any web page, in any visitor\'s browser, could call every tool',
      options.corsOrigins,
      'the browser origins you trust, such as ["https://inspector.example.com"], or auth',
      'list the origins, configure auth, or set corsAllowAnyOriginWithoutAuth: true (the command: --cors-allow-any-origin-without-auth) if every tool is harmless to anyone',
    );
  }
  const serverCard = options.serverCard === false ? undefined : options.serverCard === true || options.serverCard === undefined ? {} : options.serverCard;
  if (serverCard !== undefined && (typeof serverCard !== 'object' || serverCard === null)) throw invalid('serverCard', 'is not a server card setting', options.serverCard, 'true, false, or { name, title, description, websiteUrl, repository }');
  return {
    path,
    healthzPath,
    toolsetsPath,
    ignore,
    defaultSelection,
    sessions,
    allowedHosts: hostList('allowedHosts', options.allowedHosts),
    allowedOrigins: hostList('allowedOrigins', options.allowedOrigins),
    maxBodyBytes: Math.floor(positive('maxBodyBytes', options.maxBodyBytes, DEFAULT_MAX_BODY_BYTES)),
    readOnly: options.readOnly === true,
    dynamicToolsets: options.dynamicToolsets === true,
    corsOrigins,
    catalog: options.catalog === false ? undefined : options.catalog,
    serverCard,
    nodeId: nodeIdOption(options.nodeId),
    healthChecks: healthChecksOption(options.healthChecks),
    accessLog: options.accessLog !== false,
    logPayloads: options.logPayloads === true,
    sessionRegistry: sessionRegistryOption(options.sessionRegistry, sessions !== undefined),
    fastPath: fastPathOption(options.fastPath),
    tasks: tasksOption(options.tasks),
  };
}

/** The environment's word on the fast path when the option is not given: `REACTOR_MCP_FAST_PATH=off` (or `false`, `0`) turns it off. */
export function fastPathFromEnv(env: NodeJS.ProcessEnv = process.env): boolean {
  const value = env.REACTOR_MCP_FAST_PATH?.trim().toLowerCase();
  return !(value === 'off' || value === 'false' || value === '0');
}

function fastPathOption(value: unknown): boolean {
  if (value === undefined) return fastPathFromEnv();
  if (typeof value !== 'boolean') throw invalid('fastPath', 'is not a boolean', value, 'true (the default) or false', 'or set REACTOR_MCP_FAST_PATH=off');
  return value;
}

const REGISTRY_METHODS = ['record', 'claim', 'touch', 'end', 'release'] as const;

function sessionRegistryOption(value: unknown, sessions: boolean): SessionRegistry | undefined {
  if (value === undefined) return undefined;
  const registry = value as Partial<Record<(typeof REGISTRY_METHODS)[number], unknown>> & { nodeId?: unknown };
  if (typeof value !== 'object' || value === null || typeof registry.nodeId !== 'string' || !REGISTRY_METHODS.every((m) => typeof registry[m] === 'function')) {
    throw invalid('sessionRegistry', 'is not a session registry', value, `an object with a nodeId string and ${REGISTRY_METHODS.join(', ')} methods`, "e.g. connectRedis(…).sessions from @reactor/redis");
  }
  if (!sessions) throw invalid('sessionRegistry', 'needs sessions, which are off', false, 'sessions on (the default)', 'drop sessions: false, or the registry');
  return value as SessionRegistry;
}

function nodeIdOption(value: unknown): string | undefined {
  if (value === undefined) return undefined;
  // A header value: visible ASCII only, so it can never split or forge a header.
  if (typeof value !== 'string' || !/^[\x21-\x7e]{1,200}$/.test(value)) throw invalid('nodeId', 'is not a node name', value, 'a non-empty name of visible ASCII characters (no spaces), such as "web-1"');
  return value;
}

function healthChecksOption(value: unknown): readonly McpAppHealthCheck[] {
  if (value === undefined) return [];
  const valid = Array.isArray(value) && value.every((c: unknown) => typeof c === 'object' && c !== null && typeof (c as McpAppHealthCheck).name === 'string' && typeof (c as McpAppHealthCheck).check === 'function');
  if (!valid) throw invalid('healthChecks', 'is not a list of checks', value, 'an array of { name, check() }');
  return value as readonly McpAppHealthCheck[];
}

function tasksOption(value: unknown): TaskSettings | undefined {
  if (value === false) return undefined;
  if (value !== undefined && (typeof value !== 'object' || value === null)) throw invalid('tasks', 'is not a tasks setting', value, 'false, or { store, secret, ttlMs, pollIntervalMs, maxPerPrincipal, maxTotal, maxResultBytes }');
  return resolveTaskSettings(value ?? {}, process.env, invalid);
}
