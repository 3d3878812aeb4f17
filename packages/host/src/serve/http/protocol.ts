/**
 * The MCP endpoint itself, for both protocol eras, through the official SDK:
 *
 * - a request carrying `Mcp-Session-Id` goes to its session before anything
 *   is built or any activation event fired (unknown → 404);
 * - a 2026-07-28 request goes to `createMcpHandler` (`legacy: 'reject'`),
 *   whose factory mints a server for this one request from the cached
 *   blueprint of the request's selection;
 * - a 2025 `initialize` opens a session when sessions are on;
 * - any other 2025 POST is served statelessly (`legacyStatelessFallback`).
 *
 * Minting costs the same at 10 tools or 10,000 (shared tables, `mint.ts`), so
 * per-request servers are cheap: a `tools/call` registers nothing per tool
 * and `tools/list` returns the list rendered once per blueprint.
 */
import {
  classifyInboundRequest,
  createMcpHandler,
  legacyStatelessFallback,
  type AuthInfo,
  type McpServerFactory,
  type ServerEventBus,
} from '@modelcontextprotocol/server';
import { errorMessage } from '../../kernel/errors.js';
import type { HostBuiltServer } from '../../host/build/builtServer.js';
import type { McpHost } from '../../host/host.js';
import { HOST_BUILD_NOW } from '../../host/internals.js';
import type { Logger } from '../../kernel/logger.js';
import { parseSelection, selectionToQuery, type Selection } from '../../selection/selection.js';
import { principalOf } from '../../kernel/principal.js';
import { readJsonBody } from './guards.js';
import { jsonRpcError, JsonRpcCodes, requestIdOf } from './jsonRpc.js';
import { advertiseListChanged } from './listChanged.js';
import type { SessionClaim, SessionOwner, SessionRegistry } from './sessions/sessionRegistry.js';
import type { Session, SessionStore } from './sessions/sessions.js';
import { forwardToHolder, FORWARDED_BY_HEADER, UNREACHABLE } from './sessions/sessionForward.js';
import type { UnknownNameLog } from './unknownNames.js';
import type { TaskEngine } from './tasks/taskEngine.js';
import { declaresTasks } from '../../host/mint/tasks.js';

/** A request's selection, and the toolsets its token may not have. */
export interface ResolvedSelection {
  readonly selection: Selection;
  readonly denied: readonly string[];
  readonly readOnly?: boolean;
}

/** One MCP request as the endpoint sees it. */
export interface EndpointRequest {
  readonly request: Request;
  readonly tenant: string | undefined;
  readonly authInfo: AuthInfo | undefined;
  /** The request's selection and the toolsets its token may not have, or the refusal to send (403 for a denied toolset named explicitly). Only called when a server is needed. */
  resolveSelection(): ResolvedSelection | Response;
  /** Registers a callback for when the HTTP exchange ends (the socket response closed). */
  onFinish(done: () => void): void;
  /** The 403 refusal when this request's token lacks the scopes of toolsets it would be served (an open session's). */
  refuseScopes(toolsets: ReadonlySet<string>): Response | undefined;
  /** Told which toolsets answer this request (a session's, or the selection's once built), for the access log. */
  served?(toolsets: ReadonlySet<string>): void;
  /** Told the parsed JSON-RPC body, when the access log logs payloads. */
  received?(body: unknown): void;
}

interface Plan {
  readonly built: HostBuiltServer;
  readonly selection: Selection;
  readonly denied: readonly string[];
  readonly readOnly: boolean;
}

/**
 * The plan of a request, carried on the very `Request` the SDK hands back to
 * the server factory (`ctx.requestInfo`): a symbol-keyed property, like the
 * request's telemetry record, not a WeakMap whose entry per request costs the
 * garbage collector more. Private to this module: written before the SDK is
 * asked, read (and cleared) by the factory.
 */
const PLAN: unique symbol = Symbol('reactor.endpoint.plan');
type Planned = Request & { [PLAN]?: Plan | undefined };

/** The claim of a session another live node holds. */
type HeldClaim = Extract<SessionClaim, { kind: 'held' }>;
const isHeld = (outcome: Session | Response | HeldClaim): outcome is HeldClaim => !(outcome instanceof Response) && 'kind' in outcome && outcome.kind === 'held';

/**
 * How long a request for a session whose holder cannot be reached waits for
 * the holder's heartbeat to expire (three 1 s intervals by default) and the
 * session to be taken over here, ms; past it, 503.
 */
export const HOLDER_WAIT_MS = 10_000;
/** How often such a request asks the registry again, at most, ms. */
const HOLDER_POLL_MS = 250;
const delay = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

const SESSION_NOT_FOUND = 'Session not found: it ended, expired, or was opened by another client; start a new one with initialize';

/** Serves the MCP protocol on one endpoint. */
export class McpEndpoint {
  /** Takeovers under way, by session and owner. */
  private readonly takeovers = new Map<string, Promise<Session | Response | HeldClaim>>();
  private readonly modern;
  private readonly stateless;

  constructor(
    private readonly host: McpHost,
    private readonly sessions: SessionStore | undefined,
    private readonly logger: Logger,
    private readonly unknown: UnknownNameLog,
    maxBodyBytes: number,
    bus: ServerEventBus,
    /** This replica's operator read-only bound (`readOnly`, `--read-only`): it holds on every session served here, taken over ones too. */
    private readonly operatorReadOnly = false,
    /** The tasks engine, which answers a `subscriptions/listen` naming `taskIds` (the SDK's listen router knows no tasks). */
    private readonly tasks?: TaskEngine,
  ) {
    const factory: McpServerFactory = async (ctx) => {
      try {
        // The SDK hands the factory the very Request passed to fetch (body pre-parsed), so the plan made for it travels on it.
        const request: Planned | undefined = ctx.requestInfo;
        const plan = request?.[PLAN];
        if (request === undefined || plan === undefined) throw new Error('no selection was resolved for this request before its server was needed');
        // Cleared once read: the same Request reaches the handlers (`ctx.http.req`), which have no business with the plan.
        request[PLAN] = undefined;
        const server = await plan.built.createServer({ selection: plan.selection });
        // Each 2026-07-28 request gets the current blueprint, and the bus carries changes to listen streams.
        if (ctx.era === 'modern') advertiseListChanged(server);
        return server;
      } catch (error) {
        this.logger.error({ err: error instanceof Error ? error : undefined }, `minting a server for a request failed: ${errorMessage(error)}`);
        throw error;
      }
    };
    // The SDK reports client mistakes here too (bad headers, wrong versions): debug, so a
    // misbehaving client cannot flood the log. Our own failures are logged above at error.
    const onerror = (error: Error) => this.logger.debug({ err: error }, `MCP request refused or failed: ${error.message}`);
    this.modern = createMcpHandler(factory, { legacy: 'reject', onerror, maxRequestBodySize: maxBodyBytes, bus });
    this.stateless = legacyStatelessFallback(factory, onerror, { maxRequestBodySize: maxBodyBytes });
  }

  /** Answers one request on the endpoint. */
  async handle(r: EndpointRequest): Promise<Response> {
    const { request, authInfo } = r;
    let parsedBody: unknown;
    if (request.method === 'POST') {
      const read = await readJsonBody(request);
      if (!read.ok) return read.response;
      parsedBody = read.body;
      r.received?.(parsedBody);
    }
    const options = { parsedBody, ...(authInfo ? { authInfo } : {}) };

    const sessionId = request.headers.get('mcp-session-id');
    if (sessionId !== null) {
      const owner: SessionOwner = { tenant: r.tenant, principal: principalOf(authInfo) };
      let session: Session | Response | undefined = this.sessions?.find(sessionId, owner);
      if (!session && this.sessions?.registry) session = await this.reach(this.sessions, this.sessions.registry, sessionId, owner, r, parsedBody);
      if (session instanceof Response) return session;
      if (!session || !this.sessions) return jsonRpcError(404, JsonRpcCodes.SESSION_NOT_FOUND, SESSION_NOT_FOUND, { id: requestIdOf(parsedBody) });
      // A session keeps its toolsets; a token that has since lost one's scopes does not.
      r.served?.(session.toolsets);
      const refusal = r.refuseScopes(session.toolsets);
      if (refusal) return refusal;
      return await this.sessions.handle(session, request, parsedBody, authInfo, r.onFinish);
    }

    const outcome = classifyInboundRequest({
      httpMethod: request.method,
      body: parsedBody,
      protocolVersionHeader: request.headers.get('mcp-protocol-version') ?? undefined,
      mcpMethodHeader: request.headers.get('mcp-method') ?? undefined,
      mcpNameHeader: request.headers.get('mcp-name') ?? undefined,
    });
    if (outcome.kind !== 'legacy') {
      // 2026-07-28, or a ladder rejection the SDK answers itself (the factory is then never called).
      if (outcome.kind === 'modern') {
        const plan = await this.plan(r);
        if (plan instanceof Response) return plan;
        const taskIds = this.tasks && listenedTaskIds(parsedBody);
        if (taskIds !== undefined) {
          const body = parsedBody as { id: string | number; params?: { _meta?: Record<string, unknown> } };
          return await this.tasks!.listen(body.id, taskIds.value, declaresTasks(body, undefined), r.tenant, authInfo, request.signal);
        }
        (request as Planned)[PLAN] = plan;
      }
      return await this.modern.fetch(request, options);
    }
    if (request.method !== 'POST') {
      return jsonRpcError(405, JsonRpcCodes.SERVER_ERROR, `Method not allowed: ${request.method} needs an Mcp-Session-Id${this.sessions ? ' (open a session with initialize)' : ' and this server is stateless'}`, { headers: { allow: 'POST' } });
    }
    const plan = await this.plan(r);
    if (plan instanceof Response) return plan;
    if (outcome.reason === 'initialize' && this.sessions) {
      return await this.sessions.open({
        owner: { tenant: r.tenant, principal: principalOf(authInfo) },
        toolsets: plan.built.toolsets,
        recipe: { selection: selectionToQuery(plan.selection), denied: plan.denied, readOnly: plan.readOnly },
        mint: (changed) => plan.built.createServer({ selection: plan.selection, denied: plan.denied, session: true, onSurfaceChange: (selection, toolsets) => changed(selectionToQuery(selection), toolsets) }),
        request,
        parsedBody,
        authInfo,
      });
    }
    (request as Planned)[PLAN] = plan;
    return await this.stateless(request, options);
  }

  /** Resolves the selection and builds (or finds cached) its blueprint. */
  async plan(r: Pick<EndpointRequest, 'tenant' | 'resolveSelection' | 'served'>): Promise<Plan | Response> {
    return this.planNow(r);
  }

  /**
   * {@link plan}, answered at once when the blueprint needs nothing awaited
   * (`McpHost[HOST_BUILD_NOW]`): the fast path's, which checks, so a request costs no
   * promise and no turn of the microtask queue for it.
   */
  planNow(r: Pick<EndpointRequest, 'tenant' | 'resolveSelection' | 'served'>): Plan | Response | Promise<Plan | Response> {
    const resolved = r.resolveSelection();
    if (resolved instanceof Response) return resolved;
    let building: HostBuiltServer | Promise<HostBuiltServer>;
    try {
      building = this.host[HOST_BUILD_NOW](resolved.selection, { tenant: r.tenant, denied: resolved.denied, readOnly: resolved.readOnly });
    } catch (error) {
      return this.buildFailed(error, r.tenant);
    }
    if (building instanceof Promise) return building.then((built) => this.planned(built, resolved, r)).catch((error: unknown) => this.buildFailed(error, r.tenant));
    try {
      return this.planned(building, resolved, r);
    } catch (error) {
      return this.buildFailed(error, r.tenant);
    }
  }

  private planned(built: HostBuiltServer, resolved: ResolvedSelection, r: Pick<EndpointRequest, 'tenant' | 'served'>): Plan {
    r.served?.(built.toolsets);
    if (built.unknown.size > 0) this.unknown.report(built.unknown, { where: 'mcp', tenant: r.tenant });
    return { built, selection: resolved.selection, denied: resolved.denied, readOnly: resolved.readOnly === true };
  }

  private buildFailed(error: unknown, tenant: string | undefined): Response {
    this.logger.error({ err: error instanceof Error ? error : undefined, tenant }, `building the server for a request failed: ${errorMessage(error)}`);
    return jsonRpcError(500, JsonRpcCodes.INTERNAL_ERROR, 'Internal error: the server for this selection could not be built (the cause is logged)', { id: null });
  }

  /**
   * A request for a session this replica does not hold: relayed to its live
   * holder, or — when the holder cannot be reached (killed, its heartbeat not
   * yet expired) — held here until the heartbeat expires and the session is
   * taken over, then served (bounded by {@link HOLDER_WAIT_MS}). Either way
   * the client gets its answer, not a 503 it would have to retry.
   */
  private async reach(sessions: SessionStore, registry: SessionRegistry, sessionId: string, owner: SessionOwner, r: EndpointRequest, parsedBody: unknown): Promise<Session | Response> {
    const { request } = r;
    const id = requestIdOf(parsedBody);
    const relayed = request.headers.get(FORWARDED_BY_HEADER);
    const deadline = Date.now() + HOLDER_WAIT_MS;
    for (let attempt = 0; ; attempt++) {
      const found = attempt > 0 ? sessions.find(sessionId, owner) : undefined;
      if (found) return found;
      const outcome = await this.sharedTakeOver(sessions, registry, sessionId, owner, r, parsedBody);
      if (!isHeld(outcome)) return outcome;
      if (outcome.url === undefined || relayed !== null) {
        // A holder that advertises no address (an older replica), or a relayed request whose session moved on meanwhile: the client's retry finds it.
        const why = relayed !== null ? `was relayed here by node "${relayed}" but is held by node "${outcome.node}"` : `is served by node "${outcome.node}", which is alive and advertises no address to relay to`;
        return jsonRpcError(503, JsonRpcCodes.SERVER_ERROR, `Service Unavailable: session ${sessionId} ${why}; retry`, { id, headers: { 'retry-after': relayed !== null ? '1' : String(outcome.retryAfterSeconds) } });
      }
      const answer = await forwardToHolder(request, parsedBody, { holderUrl: outcome.url, fromNode: registry.nodeId });
      if (answer !== UNREACHABLE) return answer;
      if (request.signal.aborted) return jsonRpcError(499, JsonRpcCodes.SERVER_ERROR, 'the client went away', { id });
      if (attempt === 0) this.logger.info({ session: sessionId, node: outcome.node }, `node "${outcome.node}" holding session ${sessionId} cannot be reached; waiting for its heartbeat to expire (${outcome.retryAfterMs ?? outcome.retryAfterSeconds * 1000} ms) to take the session over`);
      const wait = Math.min(Math.max(outcome.retryAfterMs ?? outcome.retryAfterSeconds * 1000, 20) + 10, HOLDER_POLL_MS);
      if (Date.now() + wait > deadline) {
        this.logger.warn({ session: sessionId, node: outcome.node }, `node "${outcome.node}" holding session ${sessionId} could not be reached for ${HOLDER_WAIT_MS} ms while its heartbeat lasted; answered 503`);
        return jsonRpcError(503, JsonRpcCodes.SERVER_ERROR, `Service Unavailable: node "${outcome.node}" holds session ${sessionId} and is alive, but this node cannot reach it; retry`, { id, headers: { 'retry-after': '1' } });
      }
      await delay(wait);
    }
  }

  /** {@link takeOver}, shared by the requests for one session (and owner) that arrive while it runs: one claim, one rebuild. */
  private sharedTakeOver(sessions: SessionStore, registry: SessionRegistry, sessionId: string, owner: SessionOwner, r: EndpointRequest, parsedBody: unknown): Promise<Session | Response | HeldClaim> {
    const key = JSON.stringify([sessionId, owner.tenant ?? null, owner.principal ?? null]);
    const running = this.takeovers.get(key);
    // A Response body is read once: a request joining a refusal gets its own copy.
    if (running) return running.then((outcome) => (outcome instanceof Response ? outcome.clone() : outcome));
    const started = this.takeOver(sessions, registry, sessionId, owner, r, parsedBody).finally(() => this.takeovers.delete(key));
    this.takeovers.set(key, started);
    return started.then((outcome) => (outcome instanceof Response ? outcome.clone() : outcome));
  }

  /**
   * A session another replica opened: claimed through the registry and
   * rebuilt here under its id, the live holder (`held`: {@link reach} relays
   * to it), or the answer to send — 404 when it is not this client's (or no
   * longer exists), 503 with `Retry-After` when this replica is full.
   */
  private async takeOver(sessions: SessionStore, registry: SessionRegistry, sessionId: string, owner: SessionOwner, r: EndpointRequest, parsedBody: unknown): Promise<Session | Response | HeldClaim> {
    const id = requestIdOf(parsedBody);
    if (!sessions.hasRoom) {
      return jsonRpcError(503, JsonRpcCodes.SERVER_ERROR, `Service Unavailable: this node is full (${sessions.max} sessions) and cannot take session ${sessionId} over; retry later`, { id, headers: { 'retry-after': '5' } });
    }
    let claim: SessionClaim;
    try {
      claim = await registry.claim(sessionId, owner);
    } catch (error) {
      this.logger.warn({ session: sessionId }, `session ${sessionId} is not held by this node and the session registry could not be asked (${errorMessage(error)}); answered 404`);
      return jsonRpcError(404, JsonRpcCodes.SESSION_NOT_FOUND, SESSION_NOT_FOUND, { id });
    }
    if (claim.kind === 'unknown') return jsonRpcError(404, JsonRpcCodes.SESSION_NOT_FOUND, SESSION_NOT_FOUND, { id });
    if (claim.kind === 'held') return claim;
    const { record } = claim;
    try {
      const selection = parseSelection(record.selection);
      // The bound is this replica's: the record's (its first node's) may narrow the session further, never widen it past this one.
      const built = await this.host.build(selection, { tenant: record.tenant, denied: record.denied, readOnly: this.operatorReadOnly || record.readOnly });
      return await sessions.restore(record, (changed) => built.createServer({ selection, denied: record.denied, session: true, onSurfaceChange: (next, toolsets) => changed(selectionToQuery(next), toolsets) }), r.authInfo);
    } catch (error) {
      this.logger.error({ err: error instanceof Error ? error : undefined, session: sessionId }, `taking over session ${sessionId} failed: ${errorMessage(error)}`);
      return jsonRpcError(503, JsonRpcCodes.SERVER_ERROR, `Service Unavailable: session ${sessionId} could not be rebuilt on this node (the cause is logged); retry`, { id, headers: { 'retry-after': '1' } });
    }
  }

  /** Closes the per-request handler (in-flight 2026 exchanges are torn down). */
  async close(): Promise<void> {
    await this.modern.close();
  }
}

/** The `taskIds` of a 2026-07-28 `subscriptions/listen` request that names them (boxed: the value may be anything the client sent). */
function listenedTaskIds(body: unknown): { value: unknown } | undefined {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return undefined;
  const { method, id, params } = body as { method?: unknown; id?: unknown; params?: { notifications?: unknown } };
  if (method !== 'subscriptions/listen' || (typeof id !== 'string' && typeof id !== 'number')) return undefined;
  const notifications = params?.notifications;
  if (typeof notifications !== 'object' || notifications === null || !Object.hasOwn(notifications, 'taskIds')) return undefined;
  return { value: (notifications as { taskIds: unknown }).taskIds };
}
