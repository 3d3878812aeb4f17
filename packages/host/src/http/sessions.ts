/**
 * Stateful 2025-protocol sessions (`Mcp-Session-Id`). Each session keeps the
 * SDK server minted for it — and so its blueprint — until it ends, whatever
 * the host rebuilds meanwhile. Sessions are bounded: a cap (new sessions are
 * refused with 503 at it, nothing grows) and an idle timeout (a session with
 * no request in flight for that long is closed). A session belongs to the
 * tenant and principal that opened it; anyone else is told it does not exist.
 */
import type { OptionKeys } from '../optionKeys.js';
import { randomUUID } from 'node:crypto';
import { WebStandardStreamableHTTPServerTransport, type AuthInfo, type EventStore, type McpServer } from '@modelcontextprotocol/server';
import { errorMessage } from '../errors.js';
import type { Logger } from '../logger.js';
import { jsonRpcError, JsonRpcCodes, requestIdOf } from './guards.js';
import { eventStoreForSession, isSessionScoped, type SessionScopedEventStore } from './sessionEventStore.js';

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

/** Whose a session is. */
export interface SessionOwner {
  readonly tenant: string | undefined;
  readonly principal: string | undefined;
}

/** One open session: its server (and so its blueprint), transport, owner and activity. */
export interface Session extends SessionOwner {
  readonly id: string;
  /** The toolsets the session serves: each request's token is checked against their scopes. */
  readonly toolsets: ReadonlySet<string>;
  readonly server: McpServer;
  readonly transport: WebStandardStreamableHTTPServerTransport;
  inflight: number;
  lastSeen: number;
  /** When it opened (`performance.now()`), for the session-duration metric. */
  readonly openedAt: number;
  timer: NodeJS.Timeout | undefined;
}

/** What opening a session needs. */
export interface OpenSession {
  readonly owner: SessionOwner;
  /** The toolsets the session will serve. */
  readonly toolsets: ReadonlySet<string>;
  /** Mints the session's server (builds the selection first). */
  mint(): Promise<McpServer>;
  readonly request: Request;
  readonly parsedBody: unknown;
  readonly authInfo: AuthInfo | undefined;
}

/** The open sessions of one app. */
export class SessionStore {
  private readonly sessions = new Map<string, Session>();
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
  ) {
    this.idleTimeoutMs = limits.idleTimeoutMs ?? DEFAULT_SESSION_IDLE_MS;
    this.max = limits.max ?? DEFAULT_MAX_SESSIONS;
  }

  /** How many sessions are open. */
  get size(): number {
    return this.sessions.size;
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
      server = await init.mint();
      const minted = server;
      // Chosen here, not by the transport, so the session's view of the event store can name it.
      const sessionId = randomUUID();
      const eventStore = this.transportOptions.eventStore;
      const transport: WebStandardStreamableHTTPServerTransport = new WebStandardStreamableHTTPServerTransport({
        sessionIdGenerator: () => sessionId,
        ...(eventStore ? { eventStore: eventStoreForSession(eventStore, sessionId) } : {}),
        ...(this.transportOptions.retryInterval !== undefined ? { retryInterval: this.transportOptions.retryInterval } : {}),
        onsessioninitialized: (id) => {
          registered = true;
          this.register({ id, server: minted, transport, ...init.owner, toolsets: init.toolsets, inflight: 0, lastSeen: Date.now(), openedAt: performance.now(), timer: undefined });
        },
      });
      // Set before connect(): the SDK chains an existing onclose, so both run.
      transport.onclose = () => {
        if (transport.sessionId !== undefined) this.forget(transport.sessionId, !this.closed);
      };
      await server.connect(transport);
      return await transport.handleRequest(init.request, { parsedBody: init.parsedBody, ...(init.authInfo ? { authInfo: init.authInfo } : {}) });
    } finally {
      this.pending--;
      // An initialize the SDK refused (malformed) leaves nothing behind.
      if (!registered && server) void server.close().catch(() => undefined);
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
    let finished = false;
    const done = () => {
      if (finished) return;
      finished = true;
      session.inflight--;
      session.lastSeen = Date.now();
    };
    onFinish(done);
    try {
      return await session.transport.handleRequest(request, { ...(parsedBody !== undefined ? { parsedBody } : {}), ...(authInfo ? { authInfo } : {}) });
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
