/**
 * `createMcpApp`: the host served over Streamable HTTP as one Node request
 * listener — the protocol on `{path}` and `{path}/<selection>` (both eras,
 * through the official SDK), `GET /healthz`, `GET /toolsets`, and the OAuth
 * protected-resource metadata when `auth` says where tokens come from.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { toNodeHandler } from '@modelcontextprotocol/node';
import { InMemoryServerEventBus, type AuthInfo } from '@modelcontextprotocol/server';
import { errorMessage } from '../../kernel/errors.js';
import type { McpHost } from '../../host/host.js';
import { HOST_REQUEST_TELEMETRY, HOST_STATS, HOST_TASKS, HOST_TOKEN_COUNTER } from '../../host/internals.js';
import { mergeSelections, parseSelection, withToolFilters, type Selection } from '../../selection/selection.js';

const DYNAMIC_ON = parseSelection('dynamic');
import { attachRequestRecord, withRequestRecord, type RequestRecord } from '../../telemetry/requestRecord.js';
import { httpRequestRecord, startAccessLog, writesAccessLines } from './accessLog.js';
import { deniedToolsets } from '../../contract/toolset.js';
import { applyToolsetScopes, createAuthGate, type AuthGate } from './auth.js';
import type { CatalogContext, CatalogRenderer } from './catalog.js';
import { allowedOrigin, corsHeaders, corsPolicy, isPreflight, preflightHeaders } from './cors.js';
import { HostGuard, normalizeAllowedHost, writeJson, writeText } from './guards.js';
import { jsonRpcErrorBody, JsonRpcCodes } from './jsonRpc.js';
import { healthzResponse, toolsetsBody } from './infoRoutes.js';
import { publishHostChanges } from './listChanged.js';
import { resolveAppOptions, type McpAppOptions } from './options.js';
import { McpEndpoint } from './protocol.js';
import { serveFast, type FastPathDeps } from './fast/fastPath.js';
import { SharedServers } from './fast/sharedServers.js';
import { pathTail, requestSelection, selectionHeaderValues, splitTarget, toolFilterHeaderValues, type SelectionSources } from './requestSelection.js';
import { SelectionMemo } from './selectionMemo.js';
import { SERVER_CARD_SUFFIX, serverCard, serverCardResponse } from './serverCard.js';
import { SessionStore } from './sessions/sessions.js';
import { UnknownNameLog } from './unknownNames.js';
import { TaskEngine } from './tasks/taskEngine.js';

/**
 * A Node request listener serving a host, with `close()`. Usable wherever a
 * `(req, res)` listener or a connect-style middleware is: a third argument
 * that is a function is `next` (called for paths the app does not serve);
 * any other third argument, or a `req.body` a body parser already read, is
 * taken as the parsed JSON body.
 */
export interface McpApp {
  (req: IncomingMessage, res: ServerResponse, next?: unknown): void;
  /** Closes every session and in-flight exchange (bounded); later requests get 503. */
  close(): Promise<void>;
  /** How many 2025-protocol sessions are open. */
  readonly sessionCount: number;
}

type Route =
  | { readonly kind: 'mcp'; readonly tail: string }
  | { readonly kind: 'toolsets'; readonly tail: string }
  | { readonly kind: 'healthz' }
  | { readonly kind: 'metadata' }
  | { readonly kind: 'catalog' }
  | { readonly kind: 'card' }
  /** A discovery probe under the endpoint (`/mcp/.well-known/…`): not a selection, and not found. */
  | { readonly kind: 'notFound' };

/** The endpoint itself, with no path tail (nearly every request): one route object for all of them. */
const ENDPOINT_ROUTE: Route = Object.freeze({ kind: 'mcp', tail: '' });

interface Scope {
  readonly route: Route;
  readonly tenant: string | undefined;
  readonly sources: SelectionSources;
  /** This request's record: the access log's, when its line will be written, else (spans recorded) one for the spans alone. */
  readonly record: RequestRecord | undefined;
  /** Whether the access log writes this request's line (so the record should learn the toolsets served). */
  readonly logged: boolean;
  onFinish(done: () => void): void;
}

const MCP_METHODS = new Set(['GET', 'POST', 'DELETE']);
const NOT_FOUND = 'Not Found';

/** True when a path under the endpoint has a `.well-known` segment: a discovery probe, never a toolset selection. */
function isWellKnownTail(tail: string): boolean {
  return tail === '.well-known' || tail.startsWith('.well-known/') || tail.includes('/.well-known/') || tail.endsWith('/.well-known');
}
/** What an anonymous caller is granted where auth is on. */
const NO_SCOPES: readonly string[] = [];
/** How long `close()` waits for sessions and in-flight exchanges to end. */
const CLOSE_TIMEOUT_MS = 5_000;

/**
 * Serves a host over HTTP. Routes: `POST/GET/DELETE {path}` and
 * `{path}/<selection>` (the MCP protocol, Streamable HTTP — 2025 sessions and
 * stateless requests, and the 2026-07-28 per-request protocol), `GET /healthz`
 * and `GET /toolsets`. The selection of a request is the union of its query
 * string, its path below `{path}` and its `X-MCP-Toolsets` header.
 *
 * Safe by default: DNS-rebinding protection when listening on loopback
 * (behind a reverse proxy, name the public hosts in `allowedHosts`), a 4 MiB
 * body limit (413), 415 for a non-JSON body, 400 for bad JSON, 405 for other
 * methods, 404 for an unknown session, sessions capped and idled out.
 *
 * @example Node
 * ```ts
 * import http from 'node:http';
 * const app = createMcpApp(host, { sessions: { max: 500 } });
 * const server = http.createServer(app).listen(4040, '127.0.0.1');
 * // on shutdown: await app.close(); server.close();
 * ```
 *
 * @example Express (mount without a path prefix: the app routes `/mcp`, `/healthz`, `/toolsets` itself)
 * ```ts
 * const app = express();
 * app.use(createMcpApp(host, { allowedHosts: ['mcp.example.com'] })); // other paths fall through to next()
 * ```
 *
 * @example Fastify
 * ```ts
 * const mcp = createMcpApp(host);
 * fastify.all('/mcp', (request, reply) => { reply.hijack(); mcp(request.raw, reply.raw, request.body); });
 * fastify.all('/mcp/*', (request, reply) => { reply.hijack(); mcp(request.raw, reply.raw, request.body); });
 * ```
 *
 * @example Hono (on `@hono/node-server`)
 * ```ts
 * import { RESPONSE_ALREADY_SENT } from '@hono/node-server/utils/response';
 * const mcp = createMcpApp(host);
 * app.all('/mcp/*', (c) => { mcp(c.env.incoming, c.env.outgoing); return RESPONSE_ALREADY_SENT; });
 * ```
 */
export function createMcpApp(host: McpHost, options: McpAppOptions = {}): McpApp {
  const resolved = resolveAppOptions(options);
  const logger = (options.logger ?? host.logger).child({ component: 'http' });
  const auth: AuthGate | undefined = options.auth ? createAuthGate(options.auth, logger) : undefined;
  const telemetry = host[HOST_REQUEST_TELEMETRY]();
  const sessions = resolved.sessions
    ? new SessionStore(resolved.sessions, { eventStore: options.eventStore, retryInterval: options.retryInterval }, logger, telemetry && ((seconds, version) => telemetry.sessionEnded(seconds, version)), resolved.sessionRegistry)
    : undefined;
  const unknown = new UnknownNameLog(logger);
  const cors = resolved.corsOrigins ? corsPolicy(resolved.corsOrigins) : undefined;
  if (cors && !auth) {
    // Browsers send a visitor's requests from those origins; without auth nothing tells those pages from the operator.
    const origins = resolved.corsOrigins!.join(', ');
    logger.warn(
      { corsOrigins: resolved.corsOrigins },
      cors.any
        ? 'CORS allows any origin (*) with no authentication: any web page, in any visitor\'s browser, can call every tool this server serves; configure auth or list the origins you trust'
        : `CORS allows ${origins} with no authentication: any page on those origins, in any visitor's browser, can call every tool this server serves; configure auth unless those origins are yours alone`,
    );
  }
  // Listed CORS origins pass the Origin check too (by host name, as the SDK's validator compares); `*` turns it off.
  const corsHostnames = resolved.corsOrigins?.filter((o) => o !== '*').map(normalizeAllowedHost);
  const hostGuard = new HostGuard(resolved.allowedHosts, resolved.allowedOrigins, corsHostnames, cors?.any === true);
  const cardPath = resolved.serverCard ? (resolved.path === '/' ? `/${SERVER_CARD_SUFFIX}` : `${resolved.path}/${SERVER_CARD_SUFFIX}`) : undefined;
  const onerror = (error: Error) => logger.error({ err: error }, `HTTP request failed: ${error.message}`);
  // One bus per app unless given: a module-wide default would mix the changes of unrelated hosts.
  const bus = options.bus ?? new InMemoryServerEventBus((error) => logger.error({ err: error }, `a listen-stream listener failed: ${error.message}`));
  // Tasks (2026-07-28): the servers minted for this host serve them through this app's engine and store.
  const tasks = resolved.tasks ? new TaskEngine(resolved.tasks, logger.child({ component: 'tasks' }), resolved.nodeId) : undefined;
  host[HOST_TASKS] = tasks;
  const endpoint = new McpEndpoint(host, sessions, logger, unknown, resolved.maxBodyBytes, bus, resolved.readOnly, tasks);
  // `list_available_toolsets` counts with the same tokenizer as `/toolsets` and the catalog.
  if (options.tokenCounter) host[HOST_TOKEN_COUNTER] = options.tokenCounter;
  if (tasks && !resolved.tasks!.sharedSecret && resolved.tasks!.store.name !== 'memory') {
    logger.warn({ store: tasks.storeName }, `task ids are signed with a random per-process key although the task store "${tasks.storeName}" is shared: other replicas will refuse this one's task ids; give every replica the same tasks.secret (REACTOR_TASKS_SECRET)`);
  }
  const stopPublishing = publishHostChanges(host, bus, (error) => logger.warn({ err: error instanceof Error ? error : undefined }, `telling this replica's sessions of another replica's resource update failed: ${errorMessage(error)}`));
  const fastPathOn = resolved.fastPath;
  const sharedServers = new SharedServers(host[HOST_STATS]);
  let closing: Promise<void> | undefined;

  function match(pathname: string, method: string, accept: string | undefined): Route | undefined {
    if (pathname === resolved.healthzPath) return { kind: 'healthz' };
    if (pathname === '/' && resolved.catalog) return { kind: 'catalog' };
    // The card's reserved location lies under the endpoint: a GET asking for an event stream there is still the protocol's.
    if (pathname === cardPath && (method === 'GET' || method === 'OPTIONS') && !(accept ?? '').includes('text/event-stream')) return { kind: 'card' };
    if (resolved.toolsetsPath !== undefined) {
      const tail = pathTail(pathname, resolved.toolsetsPath);
      if (tail !== undefined) return { kind: 'toolsets', tail };
    }
    if (auth?.servesMetadata(pathname)) return { kind: 'metadata' };
    const tail = pathTail(pathname, resolved.path);
    if (tail === undefined) return undefined;
    // Clients probe OAuth/OpenID discovery under the endpoint; a 404 tells them there is none (a 401 or 405 would not).
    if (tail === '') return ENDPOINT_ROUTE;
    return isWellKnownTail(tail) ? { kind: 'notFound' } : { kind: 'mcp', tail };
  }

  // What a request asked for, and what it gets (a request that names no toolset gets the default toolsets, keeping its own tool filters), parsed once per target.
  const selections = new SelectionMemo((sources) => {
    const asked = requestSelection(sources, { ignore: resolved.ignore });
    const selection = asked.isEmpty && resolved.defaultSelection ? withToolFilters(resolved.defaultSelection, asked) : asked;
    // `dynamicToolsets`: dynamic unless the request said `dynamic=false`.
    const served = resolved.dynamicToolsets && selection.dynamic === undefined ? mergeSelections(selection, DYNAMIC_ON) : selection;
    // Without auth nothing is denied: what the request gets is made once per target, not once per request.
    return { asked, selection: served, open: { selection: served, denied: NOTHING_DENIED, readOnly: resolved.readOnly } };
  });

  /** The selection a request asked for, with toolset scopes applied; or the 403 refusal. */
  function selectionFor(scope: Scope, authInfo: AuthInfo | undefined): { selection: Selection; denied: readonly string[]; readOnly: boolean } | Response {
    const { asked, selection, open } = selections.of(scope.sources);
    if (!auth) return open;
    const readOnly = resolved.readOnly;
    // Anonymous (an open /toolsets or catalog): no token, no scopes. Every scoped toolset is
    // denied — left out, listed, and not woken — even one the URL names (there is no token to challenge).
    if (!authInfo) return { selection, denied: anonymousDenied(scope.tenant), readOnly };
    const scoped = applyToolsetScopes(asked, selection, host.declaredToolsets({ tenant: scope.tenant }), authInfo);
    // Not `{ ...scoped, readOnly }`: on Node 20 a literal that begins with a spread and adds a key costs about a microsecond.
    if (scoped.ok) return Object.assign({}, scoped, { readOnly });
    const names = scoped.toolsets.map((t) => `"${t}"`).join(', ');
    return auth.insufficientScope(scoped.scopes, `Toolset(s) ${names} need scope(s) ${scoped.scopes.join(' ')}, which this token lacks`);
  }

  /** The toolsets a caller without a token may not have: every one that declares scopes. */
  function anonymousDenied(tenant: string | undefined): string[] {
    return [...deniedToolsets(host.declaredToolsets({ tenant }), NO_SCOPES).keys()];
  }

  async function authenticate(request: Request, needed: boolean): Promise<AuthInfo | Response | undefined> {
    return auth && needed ? await auth.verify(request) : undefined;
  }

  async function dispatch(scope: Scope, request: Request): Promise<Response> {
    const { route } = scope;
    if (route.kind === 'metadata') return auth?.metadata(request) ?? new Response(NOT_FOUND, { status: 404, headers: { 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-store' } });
    if (route.kind === 'healthz') {
      const authInfo = await authenticate(request, auth?.protectHealthz === true);
      return authInfo instanceof Response ? authInfo : healthzResponse(host, closing !== undefined, resolved.healthChecks, tasks && { store: tasks.storeName, running: tasks.running });
    }
    if (route.kind === 'toolsets') {
      // Unprotected, a presented token still counts: it decides which toolsets are denied.
      const authInfo = await authenticate(request, auth?.protectToolsets === true || request.headers.has('authorization'));
      if (authInfo instanceof Response) return authInfo;
      const resolvedSelection = selectionFor(scope, authInfo);
      if (resolvedSelection instanceof Response) return resolvedSelection;
      const { selection, denied, readOnly } = resolvedSelection;
      const body = await toolsetsBody(host, selection, scope.tenant, denied, readOnly, options.tokenCounter);
      if (body.unknown.length > 0) unknown.report(body.unknown, { where: 'toolsets', tenant: scope.tenant });
      return Response.json(body, { headers: { 'cache-control': 'no-store' } });
    }
    if (route.kind === 'card') return card(request);
    if (route.kind === 'catalog') return await catalog(scope, request);
    const authInfo = await authenticate(request, true);
    if (authInfo instanceof Response) return authInfo;
    return await endpoint.handle({
      request,
      tenant: scope.tenant,
      authInfo,
      onFinish: scope.onFinish,
      resolveSelection: () => selectionFor(scope, authInfo),
      served: servedBy(scope),
      ...(scope.record?.receivedBody ? { received: scope.record.receivedBody } : {}),
      refuseScopes: (toolsets) => {
        if (!auth || !authInfo) return undefined;
        const denied = [...deniedToolsets(host.declaredToolsets({ tenant: scope.tenant }), authInfo.scopes)].filter(([name]) => toolsets.has(name));
        if (denied.length === 0) return undefined;
        const scopes = [...new Set(denied.flatMap(([, missing]) => missing))];
        return auth.insufficientScope(scopes, `This session serves toolset(s) ${denied.map(([name]) => `"${name}"`).join(', ')}, whose scope(s) ${scopes.join(' ')} this token lacks; open a new session`);
      },
    });
  }

  function card(request: Request): Response {
    const url = new URL(request.url);
    const endpointUrl = new URL(resolved.path, url.origin);
    const body = serverCard({ serverName: host.name, version: host.version, endpointUrl, authRequired: auth !== undefined, options: resolved.serverCard ?? {} });
    return serverCardResponse(body, request.headers.get('if-none-match'));
  }

  /** `GET /`: the catalog renderer, given what this tenant and token may see. Protected like `/toolsets`. */
  async function catalog(scope: Scope, request: Request): Promise<Response> {
    const render = resolved.catalog;
    if (!render) return Response.json(jsonRpcErrorBody(JsonRpcCodes.SERVER_ERROR, 'Not Found'), { status: 404 });
    const authInfo = await authenticate(request, auth?.protectToolsets === true || request.headers.has('authorization'));
    if (authInfo instanceof Response) return await refusalPage(render, authInfo, request);
    const declared = host.declaredToolsets({ tenant: scope.tenant });
    // Without a token (an open catalog), no scopes: every scoped toolset is denied.
    const denied = auth ? [...deniedToolsets(declared, authInfo?.scopes ?? NO_SCOPES).keys()] : [];
    const report = host.report();
    const context: CatalogContext = {
      request,
      server: { name: report.name, version: report.version, hostVersion: report.hostVersion },
      tenant: scope.tenant,
      selection: requestSelection(scope.sources, { ignore: resolved.ignore }),
      toolsets: declared,
      extensions: report.extensions,
      denied,
      describe: (selection) => host.describe(selection, { tenant: scope.tenant, denied, tokenCounter: options.tokenCounter }),
      routes: { mcp: resolved.path, toolsets: resolved.toolsetsPath, serverCard: cardPath },
      auth: { required: auth !== undefined, protectsToolsets: auth?.protectToolsets === true },
      tokenizer: options.tokenCounter?.name,
      host,
    };
    return await render(context);
  }

  /**
   * A browser refused at the catalog gets the renderer's page saying how to connect with a token, with the
   * refusal's status and `WWW-Authenticate` kept; any other client (or a renderer without such a page) gets the refusal.
   */
  async function refusalPage(render: CatalogRenderer, refusal: Response, request: Request): Promise<Response> {
    if (!render.unauthorized || refusal.status !== 401 || !(request.headers.get('accept') ?? '').includes('text/html')) return refusal;
    const report = host.report();
    const page = await render.unauthorized({
      request,
      server: { name: report.name, version: report.version, hostVersion: report.hostVersion },
      routes: { mcp: resolved.path, toolsets: resolved.toolsetsPath, serverCard: cardPath },
      auth: { required: true, protectsToolsets: auth?.protectToolsets === true },
    });
    const headers = new Headers(page.headers);
    const challenge = refusal.headers.get('www-authenticate');
    if (challenge !== null) headers.set('www-authenticate', challenge);
    headers.set('vary', 'Accept');
    return new Response(page.body, { status: refusal.status, headers });
  }

  /** What the fast path asks of the app for one request: the same auth, selection and blueprint as the per-request path. */
  function fastDeps(scope: Scope, traced: RequestRecord | undefined): FastPathDeps {
    return {
      traced,
      received: scope.record?.receivedBody,
      maxBodyBytes: resolved.maxBodyBytes,
      servers: sharedServers,
      stats: host[HOST_STATS],
      authenticate: (request) => (auth ? auth.verify(request()) : undefined),
      plan: (authInfo) => endpoint.planNow({ tenant: scope.tenant, resolveSelection: () => selectionFor(scope, authInfo), served: servedBy(scope) }),
      write: writeResponse,
    };
  }

  async function serve(req: IncomingMessage, res: ServerResponse, next: ((error?: unknown) => void) | undefined, parsedBody: unknown, record: RequestRecord | undefined, logged: boolean): Promise<void> {
    if (resolved.nodeId !== undefined) res.setHeader('x-reactor-node', resolved.nodeId);
    const target = splitTarget(req.url);
    if (!target) return writeJson(res, 400, jsonRpcErrorBody(JsonRpcCodes.SERVER_ERROR, 'Bad Request: the request target must be a path'));
    const method = (req.method ?? 'GET').toUpperCase();
    const route = match(target.pathname, method, req.headers.accept);
    if (!route) {
      if (next) return next();
      // Plain text, not a JSON-RPC body: what lands here is not MCP (OAuth clients post their registration to /register).
      return writeText(res, 404, `${NOT_FOUND}: the MCP endpoint is ${resolved.path}`);
    }
    if (closing && route.kind !== 'healthz') return writeJson(res, 503, jsonRpcErrorBody(JsonRpcCodes.SERVER_ERROR, 'Service Unavailable: the server is shutting down'));
    const refusal = hostGuard.check(req.headers, req.socket?.localAddress);
    if (refusal) return writeJson(res, refusal.status, jsonRpcErrorBody(JsonRpcCodes.SERVER_ERROR, refusal.message));
    const allow = route.kind === 'mcp' ? 'GET, POST, DELETE' : route.kind === 'metadata' ? 'GET, POST' : 'GET';
    if (cors) {
      const origin = allowedOrigin(req.headers, cors);
      if (isPreflight(method, req.headers)) {
        if (origin === undefined) return writeJson(res, 403, jsonRpcErrorBody(JsonRpcCodes.SERVER_ERROR, `Forbidden: origin ${JSON.stringify(req.headers.origin ?? '')} is not allowed cross-origin; hint: list it in corsOrigins (--cors-origin)`));
        res.writeHead(204, preflightHeaders(origin, allow));
        res.end();
        return;
      }
      if (origin !== undefined) for (const [name, value] of Object.entries(corsHeaders(origin))) res.setHeader(name, value);
    }
    if (route.kind === 'notFound') return writeText(res, 404, NOT_FOUND);
    if (route.kind === 'mcp' ? !MCP_METHODS.has(method) : route.kind !== 'metadata' && method !== 'GET') {
      return writeJson(res, 405, jsonRpcErrorBody(JsonRpcCodes.SERVER_ERROR, `Method not allowed: ${method}; this route accepts ${allow}`), { allow });
    }
    let tenant: string | undefined;
    try {
      tenant = options.tenant?.(req);
    } catch (error) {
      logger.error({ err: error instanceof Error ? error : undefined }, `the tenant(req) option threw: ${errorMessage(error)}`);
      return writeJson(res, 500, jsonRpcErrorBody(JsonRpcCodes.INTERNAL_ERROR, 'Internal error: the tenant of this request could not be resolved'));
    }
    const distinct = () => req.headersDistinct;
    const scope: Scope = {
      route,
      tenant,
      sources: {
        query: target.query,
        tail: 'tail' in route ? route.tail : '',
        headers: selectionHeaderValues(req.headers, distinct),
        filterHeaders: toolFilterHeaderValues(req.headers, distinct),
      },
      record,
      logged,
      onFinish: (done) => whenClosed(res, done),
    };
    const traced = record && telemetry ? record : undefined;
    let source = req;
    let body = parsedBody;
    if (fastPathOn && route.kind === 'mcp' && method === 'POST' && parsedBody === undefined) {
      const outcome = await serveFast(req, res, fastDeps(scope, traced));
      if (outcome === 'answered') return;
      // Fallen through: the per-request path gets what the fast path already read.
      if (outcome && 'raw' in outcome) source = replayed(req, outcome.raw);
      else if (outcome) body = outcome.parsed;
    }
    const fetch = (request: Request) => {
      // The request spans find the record from their handler's `ctx.http.req`.
      if (traced) attachRequestRecord(request, traced);
      return dispatch(scope, request);
    };
    await toNodeHandler({ fetch }, { onerror, maxRequestBodySize: resolved.maxBodyBytes })(source, res, body);
  }

  const app = ((req: IncomingMessage, res: ServerResponse, third?: unknown) => {
    const next = typeof third === 'function' ? (third as (error?: unknown) => void) : undefined;
    const parsedBody = third !== undefined && next === undefined ? third : frameworkParsedBody(req);
    // Asked per request: a pino logger's level may be changed while it runs.
    const logged = resolved.accessLog && writesAccessLines(logger);
    const record = logged ? startAccessLog(req, res, logger, resolved.nodeId, resolved.logPayloads) : telemetry ? httpRequestRecord(req) : undefined;
    const answer = () =>
      serve(req, res, next, parsedBody, record, logged).catch((error: unknown) => {
        onerror(error instanceof Error ? error : new Error(errorMessage(error)));
        writeJson(res, 500, jsonRpcErrorBody(JsonRpcCodes.INTERNAL_ERROR, 'Internal error'));
      });
    // The record also travels in the OpenTelemetry context, for the INTERNAL spans
    // (onServer hooks, wakes) recorded while answering; only when spans are recorded.
    void (record && telemetry ? withRequestRecord(record, answer) : answer());
  }) as McpApp;
  Object.defineProperty(app, 'sessionCount', { get: () => sessions?.size ?? 0, enumerable: true });
  app.close = () =>
    (closing ??= (async () => {
      stopPublishing();
      // First, so other replicas may take this one's sessions over at once rather than after its heartbeat expires.
      await resolved.sessionRegistry?.release().catch((error: unknown) => logger.warn({}, `releasing this node's sessions in the session registry failed (${errorMessage(error)}); other nodes take them over once its heartbeat expires`));
      let timer: NodeJS.Timeout | undefined;
      const bound = new Promise<void>((resolve) => {
        timer = setTimeout(resolve, CLOSE_TIMEOUT_MS);
        timer.unref();
      });
      await Promise.race([Promise.allSettled([endpoint.close(), sharedServers.close(), sessions?.close(CLOSE_TIMEOUT_MS), tasks?.close()]), bound]);
      if (host[HOST_TASKS] === tasks) host[HOST_TASKS] = undefined;
      clearTimeout(timer);
      logger.debug({}, 'MCP app closed');
    })());
  return app;
}

/**
 * Calls `done` when `res` closes (at once if it has): only a request handed
 * to a session asks, so the others register no listener.
 */
/** The toolsets an app without auth denies: none (one frozen list, shared by every request's resolved selection). */
const NOTHING_DENIED: readonly string[] = Object.freeze([]);

function whenClosed(res: ServerResponse, done: () => void): void {
  if (res.closed) done();
  else res.once('close', done);
}

/** Tells the access log's record which toolsets answered (nothing when no line will be written). */
function servedBy({ record, logged }: Pick<Scope, 'record' | 'logged'>): ((toolsets: ReadonlySet<string>) => void) | undefined {
  return record && logged ? (toolsets) => void (record.toolsets = toolsetsLabel(toolsets)) : undefined;
}

/** The access line's `toolsets` of each set served, made once per set: the host replaces a connection's set when it changes, and never edits one. */
const toolsetsLabels = new WeakMap<ReadonlySet<string>, string>();

function toolsetsLabel(toolsets: ReadonlySet<string>): string {
  let label = toolsetsLabels.get(toolsets);
  if (label === undefined) {
    label = [...toolsets].join(',');
    toolsetsLabels.set(toolsets, label);
  }
  return label;
}

/** The request with its body, already read, to be read again (by the per-request path after the fast path gave up). */
function replayed(req: IncomingMessage, body: Buffer): IncomingMessage {
  return Object.create(req, {
    [Symbol.asyncIterator]: {
      value: function* () {
        yield body;
      },
    },
  }) as IncomingMessage;
}

/** Writes a fetch `Response` the app made on the Node response (a refusal on the fast path: small, never streamed). */
async function writeResponse(res: ServerResponse, response: Response): Promise<void> {
  const body = Buffer.from(await response.arrayBuffer());
  const headers: Record<string, string> = {};
  for (const [name, value] of response.headers) headers[name] = value;
  res.writeHead(response.status, headers);
  res.end(body);
}

/** A body an Express/connect body parser already consumed (`req.body`), so the stream is not read again. */
function frameworkParsedBody(req: IncomingMessage): unknown {
  const r = req as IncomingMessage & { body?: unknown; _body?: unknown };
  return r.body !== undefined && (r._body === true || r.readableEnded) ? r.body : undefined;
}
