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
import { errorMessage } from '../errors.js';
import type { BuiltServer, McpHost } from '../host.js';
import type { Logger } from '../logger.js';
import type { Selection } from '../selection.js';
import { principalOf } from './auth.js';
import { jsonRpcError, JsonRpcCodes, readJsonBody, requestIdOf } from './guards.js';
import { advertiseListChanged } from '../sdk/listChanged.js';
import type { SessionStore } from './sessions.js';
import type { UnknownNameLog } from './unknownNames.js';

/** One MCP request as the endpoint sees it. */
export interface EndpointRequest {
  readonly request: Request;
  readonly tenant: string | undefined;
  readonly authInfo: AuthInfo | undefined;
  /** The request's selection and the toolsets its token may not have, or the refusal to send (403 for a denied toolset named explicitly). Only called when a server is needed. */
  resolveSelection(): { readonly selection: Selection; readonly denied: readonly string[]; readonly readOnly?: boolean } | Response;
  /** Registers a callback for when the HTTP exchange ends (the socket response closed). */
  onFinish(done: () => void): void;
  /** The 403 refusal when this request's token lacks the scopes of toolsets it would be served (an open session's). */
  refuseScopes(toolsets: ReadonlySet<string>): Response | undefined;
  /** Told which toolsets answer this request (a session's, or the selection's once built), for the access log. */
  served?(toolsets: ReadonlySet<string>): void;
}

interface Plan {
  readonly built: BuiltServer;
  readonly selection: Selection;
}

/** Serves the MCP protocol on one endpoint. */
export class McpEndpoint {
  // The SDK hands the factory the very Request passed to fetch (body pre-parsed),
  // so the selection resolved for it travels here without a global.
  private readonly plans = new WeakMap<Request, Plan>();
  private readonly modern;
  private readonly stateless;

  constructor(
    private readonly host: McpHost,
    private readonly sessions: SessionStore | undefined,
    private readonly logger: Logger,
    private readonly unknown: UnknownNameLog,
    maxBodyBytes: number,
    bus: ServerEventBus,
  ) {
    const factory: McpServerFactory = async (ctx) => {
      try {
        const plan = ctx.requestInfo ? this.plans.get(ctx.requestInfo) : undefined;
        if (!plan) throw new Error('no selection was resolved for this request before its server was needed');
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
    }
    const options = { parsedBody, ...(authInfo ? { authInfo } : {}) };

    const sessionId = request.headers.get('mcp-session-id');
    if (sessionId !== null) {
      const session = this.sessions?.find(sessionId, { tenant: r.tenant, principal: principalOf(authInfo) });
      if (!session || !this.sessions) {
        return jsonRpcError(404, JsonRpcCodes.SESSION_NOT_FOUND, 'Session not found: it ended, expired, or was opened by another client; start a new one with initialize', { id: requestIdOf(parsedBody) });
      }
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
        this.plans.set(request, plan);
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
        mint: () => plan.built.createServer({ selection: plan.selection }),
        request,
        parsedBody,
        authInfo,
      });
    }
    this.plans.set(request, plan);
    return await this.stateless(request, options);
  }

  /** Resolves the selection and builds (or finds cached) its blueprint. */
  private async plan(r: EndpointRequest): Promise<Plan | Response> {
    const resolved = r.resolveSelection();
    if (resolved instanceof Response) return resolved;
    const { selection, denied, readOnly } = resolved;
    try {
      const built = await this.host.build(selection, { tenant: r.tenant, denied, readOnly });
      r.served?.(built.toolsets);
      if (built.unknown.size > 0) this.unknown.report(built.unknown, { where: 'mcp', tenant: r.tenant });
      return { built, selection };
    } catch (error) {
      this.logger.error({ err: error instanceof Error ? error : undefined, tenant: r.tenant }, `building the server for a request failed: ${errorMessage(error)}`);
      return jsonRpcError(500, JsonRpcCodes.INTERNAL_ERROR, 'Internal error: the server for this selection could not be built (the cause is logged)', { id: null });
    }
  }

  /** Closes the per-request handler (in-flight 2026 exchanges are torn down). */
  async close(): Promise<void> {
    await this.modern.close();
  }
}
