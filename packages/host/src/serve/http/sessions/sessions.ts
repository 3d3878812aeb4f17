/**
 * Stateful 2025-protocol sessions (`Mcp-Session-Id`). Each session keeps the
 * SDK server minted for it — and so its blueprint — until it ends, whatever
 * the host rebuilds meanwhile. Sessions are bounded: a cap (new sessions are
 * refused with 503 at it, nothing grows) and an idle timeout (a session with
 * no request in flight for that long is closed). A session belongs to the
 * tenant and principal that opened it; anyone else is told it does not exist.
 */
import type { OptionKeys } from '../../../kernel/optionKeys.js';
import { randomUUID } from 'node:crypto';
import { WebStandardStreamableHTTPServerTransport, type AuthInfo, type EventStore, type McpServer } from '@modelcontextprotocol/server';
import { errorMessage } from '../../../kernel/errors.js';
import type { Logger } from '../../../kernel/logger.js';
import { jsonRpcError, JsonRpcCodes, requestIdOf } from '../jsonRpc.js';
import { answeringInterruptedRequests } from './interruptedRequests.js';
import { eventStoreForSession, isSessionScoped, type SessionScopedEventStore } from './sessionEventStore.js';
import { isInitializeParams, withSubscriptionChange, type SessionOwner, type SessionRecord, type SessionRegistry } from './sessionRegistry.js';
import { quietWhileRestoring, replayInitialize, replaySubscriptions, untilRestored, type RestoreGate } from './sessionRestore.js';

/** The `sessions` option when given as an object. */
export interface McpAppSessionOptions {
  /** A session with no request in flight for this long is closed, ms. Default 30 min. */
  readonly idleTimeoutMs?: number;
  /** At most this many open sessions; past it `initialize` is answered 503. Default 1000. */
  readonly max?: number;
}

/** Every key of {@link McpAppSessionOptions} (`createMcpApp` refuses others). */
export const SESSION_OPTION_KEYS: OptionKeys<McpAppSessionOptions> = { idleTimeoutMs: true, max: true };

/** Default idle timeout of a session: 30 minutes. */
export const DEFAULT_SESSION_IDLE_MS = 30 * 60_000;
/** Default session cap. */
export const DEFAULT_MAX_SESSIONS = 1000;

/** One open session: its server (and so its blueprint), transport, owner and activity. */
export interface Session extends SessionOwner {
  readonly id: string;
  /** The toolsets the session serves: each request's token is checked against their scopes (dynamic toolsets grow them). */
  toolsets: ReadonlySet<string>;
  readonly server: McpServer;
  readonly transport: WebStandardStreamableHTTPServerTransport;
  inflight: number;
  lastSeen: number;
  /** When it opened (`performance.now()`), for the session-duration metric. */
  readonly openedAt: number;
  timer: NodeJS.Timeout | undefined;
  /** Its record in the session registry, as last written (none without a registry). */
  record?: SessionRecord;
}

/** How a session's server is rebuilt on another replica (see `SessionRecord`). */
export interface SessionRecipe {
  /** The selection as a canonical query string. */
  readonly selection: string;
  readonly denied: readonly string[];
  readonly readOnly: boolean;
}

/** What opening a session needs. */
export interface OpenSession {
  readonly owner: SessionOwner;
  /** The toolsets the session will serve. */
  readonly toolsets: ReadonlySet<string>;
  /** Recorded in the session registry (when there is one), so another replica can rebuild the session. */
  readonly recipe: SessionRecipe;
  /** Mints the session's server (builds the selection first); `changed` is told when dynamic toolsets change what it serves. */
  mint(changed: SurfaceChanged): Promise<McpServer>;
  readonly request: Request;
  readonly parsedBody: unknown;
  readonly authInfo: AuthInfo | undefined;
}

/** Told when dynamic toolsets changed a session's selection (a canonical query string) and toolsets. */
export type SurfaceChanged = (selection: string, toolsets: ReadonlySet<string>) => void;

/** The open sessions of one app. */
export class SessionStore {
  private readonly sessions = new Map<string, Session>();
  /** Sessions being rebuilt here after a claim: concurrent requests for one wait on the same rebuild. */
  private readonly restoring = new Map<string, Promise<Session>>();
  private pending = 0;
  private closed = false;
  readonly idleTimeoutMs: number;
  readonly max: number;

  constructor(
    limits: McpAppSessionOptions,
    private readonly transportOptions: { readonly eventStore?: EventStore | SessionScopedEventStore | undefined; readonly retryInterval?: number | undefined },
    private readonly logger: Logger,
    /** Told when a session ends (the host's session-duration metric); absent: nothing recorded. */
    private readonly onSessionEnded?: (seconds: number, protocolVersion: string | undefined) => void,
    /** Shared with other replicas: sessions opened here are recorded, and sessions held elsewhere can be claimed. */
    readonly registry?: SessionRegistry,
  ) {
    this.idleTimeoutMs = limits.idleTimeoutMs ?? DEFAULT_SESSION_IDLE_MS;
    this.max = limits.max ?? DEFAULT_MAX_SESSIONS;
  }

  /** How many sessions are open. */
  get size(): number {
    return this.sessions.size;
  }

  /** False at the cap or once closed: no session may be opened or taken over. */
  get hasRoom(): boolean {
    return !this.closed && this.sessions.size + this.pending + this.restoring.size < this.max;
  }

  /**
   * Answers an `initialize` by opening a session: 503 at the cap (nothing is
   * built), else mints the server, connects a Streamable HTTP transport and
   * lets it answer. A session is registered only once the SDK initialized it.
   */
  async open(init: OpenSession): Promise<Response> {
    if (this.closed) return jsonRpcError(503, JsonRpcCodes.SERVER_ERROR, 'Service Unavailable: the server is shutting down', { id: requestIdOf(init.parsedBody) });
    if (this.sessions.size + this.pending >= this.max) {
      this.logger.warn({ sessions: this.sessions.size, max: this.max }, `session limit reached (${this.max}); an initialize was refused with 503`);
      return jsonRpcError(
        503,
        JsonRpcCodes.SERVER_ERROR,
        `Service Unavailable: this server already holds its maximum of ${this.max} sessions; retry later, and end unused sessions with DELETE`,
        { id: requestIdOf(init.parsedBody), headers: { 'retry-after': '30' } },
      );
    }
    this.pending++;
    let server: McpServer | undefined;
    let registered = false;
    try {
      // Chosen here, not by the transport, so the session's view of the event store can name it.
      const sessionId = randomUUID();
      server = await init.mint((selection, toolsets) => this.surfaceChanged(sessionId, selection, toolsets));
      const minted = server;
      const transport = await this.connect(minted, sessionId, () => {
        registered = true;
        this.register({ id: sessionId, server: minted, transport, ...init.owner, toolsets: init.toolsets, inflight: 0, lastSeen: Date.now(), openedAt: performance.now(), timer: undefined });
      });
      const response = await transport.handleRequest(init.request, { parsedBody: init.parsedBody, ...(init.authInfo ? { authInfo: init.authInfo } : {}) });
      if (registered) this.recordOpened(sessionId, init);
      return response;
    } finally {
      this.pending--;
      // An initialize the SDK refused (malformed) leaves nothing behind.
      if (!registered && server) void server.close().catch(() => undefined);
    }
  }

  /**
   * Rebuilds a session this replica just claimed from the registry, under its
   * own id: mints its server (`mint`), connects a transport whose session id
   * is the recorded one, and replays the client's `initialize` and
   * `initialized` into it — the SDK's public API, no private state — so the
   * client's next request is served as if nothing moved. Concurrent requests
   * for one session share one rebuild.
   */
  async restore(record: SessionRecord, mint: (changed: SurfaceChanged) => Promise<McpServer>, authInfo: AuthInfo | undefined): Promise<Session> {
    const existing = this.sessions.get(record.id);
    if (existing) return existing;
    const running = this.restoring.get(record.id);
    if (running) return await running;
    const rebuilding = (async () => {
      const server = await mint((selection, toolsets) => this.surfaceChanged(record.id, selection, toolsets));
      let session: Session | undefined;
      const restored = untilRestored();
      try {
        const transport = await this.connect(server, record.id, () => {
          session = { id: record.id, server, transport, tenant: record.tenant, principal: record.principal, toolsets: new Set(record.toolsets), inflight: 0, lastSeen: Date.now(), openedAt: performance.now(), timer: undefined, record };
        }, restored);
        await replayInitialize(transport, record, authInfo);
        const lost = await replaySubscriptions(transport, record, authInfo);
        if (lost.length > 0) this.logger.warn({ session: record.id, resources: lost }, `session ${record.id} moved here but ${lost.length} resource subscription(s) could not be renewed: ${lost.join(', ')}`);
        restored.done();
        if (!session) throw new Error('the SDK did not initialize the rebuilt session');
        this.register(session);
        if (this.closed) throw new Error('the app closed while the session was being rebuilt');
        this.logger.info({ session: record.id, revision: record.revision }, `session ${record.id} taken over by this node (its previous node is gone)`);
        return session;
      } catch (error) {
        void server.close().catch(() => undefined);
        throw error;
      }
    })();
    this.restoring.set(record.id, rebuilding);
    try {
      return await rebuilding;
    } finally {
      this.restoring.delete(record.id);
    }
  }

  /** The session `id` if it exists and belongs to `owner`; anyone else is told it does not exist. */
  find(id: string, owner: SessionOwner): Session | undefined {
    const session = this.sessions.get(id);
    if (!session || session.tenant !== owner.tenant || session.principal !== owner.principal) return undefined;
    return session;
  }

  /**
   * Hands a request to its session's transport. `onFinish` must call the
   * given callback when the HTTP exchange ends, so a long-lived stream keeps
   * its session from idling out.
   */
  async handle(session: Session, request: Request, parsedBody: unknown, authInfo: AuthInfo | undefined, onFinish: (done: () => void) => void): Promise<Response> {
    session.inflight++;
    session.lastSeen = Date.now();
    this.registry?.touch(session.id);
    let finished = false;
    const done = () => {
      if (finished) return;
      finished = true;
      session.inflight--;
      session.lastSeen = Date.now();
    };
    onFinish(done);
    try {
      const response = await session.transport.handleRequest(request, { ...(parsedBody !== undefined ? { parsedBody } : {}), ...(authInfo ? { authInfo } : {}) });
      this.noteSubscription(session, parsedBody);
      return releasedWhenClientLeaves(response, request.signal);
    } catch (error) {
      done();
      throw error;
    }
  }

  /** Closes every session (bounded by `timeoutMs`) and refuses new ones. */
  async close(timeoutMs = 5_000): Promise<void> {
    this.closed = true;
    const closing = [...this.sessions.values()].map((s) => this.end(s, 'the app closed', false));
    let timer: NodeJS.Timeout | undefined;
    const bound = new Promise<void>((resolve) => {
      timer = setTimeout(resolve, timeoutMs);
      timer.unref();
    });
    await Promise.race([Promise.allSettled(closing), bound]);
    if (timer) clearTimeout(timer);
    this.sessions.clear();
  }

  /**
   * A transport for session `sessionId`, connected to `server`. `restored`
   * (when rebuilding) keeps the replayed `initialize` out of the event store.
   */
  private async connect(server: McpServer, sessionId: string, onInitialized: () => void, restored?: RestoreGate): Promise<WebStandardStreamableHTTPServerTransport> {
    const store = this.transportOptions.eventStore;
    const sessionStore = store ? eventStoreForSession(store, sessionId) : undefined;
    const quiet: EventStore | undefined = sessionStore && restored ? quietWhileRestoring(sessionStore, sessionId, restored) : sessionStore;
    // Outermost, so it sees the SDK's stream ids: a request whose node died is answered on resumption, not left to time out.
    const eventStore = quiet ? answeringInterruptedRequests(quiet, { sessionId, nodeId: this.registry?.nodeId }) : undefined;
    const transport: WebStandardStreamableHTTPServerTransport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: () => sessionId,
      ...(eventStore ? { eventStore } : {}),
      ...(this.transportOptions.retryInterval !== undefined ? { retryInterval: this.transportOptions.retryInterval } : {}),
      onsessioninitialized: onInitialized,
    });
    eventStore?.bind(transport);
    // Set before connect(): the SDK chains an existing onclose, so both run.
    transport.onclose = () => {
      if (transport.sessionId !== undefined) this.forget(transport.sessionId, !this.closed);
    };
    await server.connect(transport);
    return transport;
  }

  /** Keeps the registry's record of `session`'s resource subscriptions current, so a move renews them. */
  private noteSubscription(session: Session, body: unknown): void {
    const updated = this.registry && session.record ? withSubscriptionChange(session.record, body) : undefined;
    if (!updated || !this.registry) return;
    session.record = updated;
    this.registry.record(updated).catch((error: unknown) => this.logger.warn({ session: session.id }, `updating the subscriptions of session ${session.id} in the session registry failed (${errorMessage(error)}); a move would not renew them`));
  }

  /** Dynamic toolsets changed a session: its tokens are checked against the new toolsets, and its record follows, so a move keeps them. */
  private surfaceChanged(id: string, selection: string, toolsets: ReadonlySet<string>): void {
    const session = this.sessions.get(id);
    if (!session) return;
    session.toolsets = toolsets;
    if (!this.registry || !session.record) return;
    session.record = { ...session.record, selection, toolsets: [...toolsets] };
    this.registry.record(session.record).catch((error: unknown) => this.logger.warn({ session: id }, `updating the toolsets of session ${id} in the session registry failed (${errorMessage(error)}); a move would serve its first ones`));
  }

  /** Records a session opened here in the registry; if that fails it is served by this replica alone. */
  private recordOpened(id: string, init: OpenSession): void {
    const registry = this.registry;
    if (!registry) return;
    const params = (init.parsedBody as { params?: unknown } | undefined)?.params;
    if (!isInitializeParams(params)) return; // the SDK accepted it, so this does not happen; without params there is nothing to replay
    const record: SessionRecord = { id, node: registry.nodeId, ...init.owner, ...init.recipe, toolsets: [...init.toolsets], initialize: params, revision: 0 };
    const session = this.sessions.get(id);
    if (session) session.record = record;
    registry.record(record).catch((error: unknown) =>
      this.logger.warn({ session: id }, `recording session ${id} in the session registry failed (${errorMessage(error)}); only this node can serve it`),
    );
  }

  private register(session: Session): void {
    if (this.closed) {
      void session.server.close().catch(() => undefined);
      return;
    }
    this.sessions.set(session.id, session);
    this.schedule(session, this.idleTimeoutMs);
    this.logger.debug({ session: session.id, sessions: this.sessions.size, tenant: session.tenant }, 'session opened');
  }

  /** Drops session `id`; `ended` (DELETE, idle — not the app closing) also drops its stored events. */
  private forget(id: string, ended: boolean): void {
    const session = this.sessions.get(id);
    if (!session) return;
    if (session.timer) clearTimeout(session.timer);
    this.sessions.delete(id);
    this.onSessionEnded?.((performance.now() - session.openedAt) / 1000, session.server.server.getNegotiatedProtocolVersion());
    const store = this.transportOptions.eventStore;
    if (ended && store && isSessionScoped(store)) {
      store.endSession(id).catch((error: unknown) => this.logger.warn({ session: id }, `dropping the events of ended session ${id} failed: ${errorMessage(error)}; they expire with the idle timeout`));
    }
    // Not when the app closes: the record outlives this process, so another replica can take the session over.
    if (ended) this.registry?.end(id).catch((error: unknown) => this.logger.warn({ session: id }, `dropping the registry record of ended session ${id} failed: ${errorMessage(error)}; it expires with the idle timeout`));
    this.logger.debug({ session: id, sessions: this.sessions.size }, 'session ended');
  }

  private schedule(session: Session, delay: number): void {
    session.timer = setTimeout(() => this.checkIdle(session), Math.max(1, delay));
    session.timer.unref();
  }

  private checkIdle(session: Session): void {
    if (this.sessions.get(session.id) !== session) return;
    const idleFor = Date.now() - session.lastSeen;
    if (session.inflight > 0 || idleFor < this.idleTimeoutMs) {
      this.schedule(session, session.inflight > 0 ? this.idleTimeoutMs : this.idleTimeoutMs - idleFor);
      return;
    }
    this.logger.info({ session: session.id, idleMs: idleFor }, `session closed after ${this.idleTimeoutMs} ms idle`);
    void this.end(session, 'idle');
  }

  private async end(session: Session, why: string, ended = true): Promise<void> {
    this.forget(session.id, ended);
    try {
      await session.server.close();
    } catch (error) {
      this.logger.debug({ session: session.id }, `closing a session (${why}) failed: ${errorMessage(error)}`);
    }
  }
}

/**
 * `response`, whose SSE stream is cancelled the moment the client's connection
 * closes (`signal`), not at the next write: cancelling is what frees the SDK's
 * registration of the stream, and until it is freed the SDK refuses the
 * client's reconnection with 409 ("Only one SSE stream is allowed per
 * session"). A v1 SDK client re-opens its GET stream twice and then never
 * again, so a refusal there loses the session's notifications for good.
 */
export function releasedWhenClientLeaves(response: Response, signal: AbortSignal): Response {
  const body = response.body;
  if (!body || !(response.headers.get('content-type') ?? '').startsWith('text/event-stream')) return response;
  const reader: ReadableStreamDefaultReader<Uint8Array> = (body as ReadableStream<Uint8Array>).getReader();
  const onAbort = () => void reader.cancel(new Error('the client closed the connection')).catch(() => undefined);
  const released = new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        const { value, done } = await reader.read();
        if (done) {
          signal.removeEventListener('abort', onAbort);
          controller.close();
        } else controller.enqueue(value);
      } catch (error) {
        signal.removeEventListener('abort', onAbort);
        controller.error(error);
      }
    },
    cancel(reason) {
      signal.removeEventListener('abort', onAbort);
      return reader.cancel(reason);
    },
  });
  if (signal.aborted) onAbort();
  else signal.addEventListener('abort', onAbort, { once: true });
  return new Response(released, { status: response.status, statusText: response.statusText, headers: response.headers });
}
