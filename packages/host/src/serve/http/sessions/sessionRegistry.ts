/**
 * The seam that lets several replicas serve one set of 2025-protocol
 * sessions: a registry, shared by every replica, of which node holds each
 * session and what it takes to rebuild it elsewhere. The app only talks to
 * this interface; a shared implementation (Redis: `@reactor/redis`) lives in
 * its own package, so the host never depends on a store.
 *
 * A session's SDK server lives in one process's memory. When a request for a
 * session reaches a replica that does not hold it, the app asks the registry
 * to {@link SessionRegistry.claim | claim} it: the registry refuses another
 * tenant or principal (the app answers 404, as for a session that never
 * existed), refuses while the holder is alive (503 with `Retry-After`), and
 * otherwise moves the session to this replica, atomically, so two replicas
 * never both rebuild it. The app then rebuilds the session from its record
 * with the SDK's public API under the same session id — the client never
 * re-initialises.
 */

/** Whose a session is: the interface a shared registry (`@reactor/redis`) compares claims with. */
export interface SessionOwner {
  readonly tenant: string | undefined;
  /** The token's principal, an opaque string compared whole: issuer (or static-token file), client and subject (`kernel/principal.ts`). */
  readonly principal: string | undefined;
}

/** The `initialize` parameters a session was opened with, replayed to rebuild it. */
export interface SessionInitializeParams {
  readonly protocolVersion: string;
  readonly capabilities: Record<string, unknown>;
  readonly clientInfo: Record<string, unknown>;
  readonly [key: string]: unknown;
}

/** What a registry keeps of one session: enough to check who may use it and to rebuild it on another node. */
export interface SessionRecord {
  /** The `Mcp-Session-Id`. */
  readonly id: string;
  /** The node holding it now. */
  readonly node: string;
  readonly tenant: string | undefined;
  /** The owner's principal, opaque: compare it whole (see `SessionOwner`). */
  readonly principal: string | undefined;
  /** The session's selection as a canonical query string (`selectionToQuery`), the default selection applied. */
  readonly selection: string;
  /** The toolsets it serves (what its tokens are checked against). */
  readonly toolsets: readonly string[];
  /** Toolsets its opening token was denied (they stay off after a move). */
  readonly denied: readonly string[];
  /** Served read-only. */
  readonly readOnly: boolean;
  /** The client's `initialize` parameters. */
  readonly initialize: SessionInitializeParams;
  /** Increments each time the session moves to another node (0 when opened). */
  readonly revision: number;
  /** The resources the client subscribed to (`resources/subscribe`): subscribed again when the session moves. */
  readonly subscriptions?: readonly string[];
}

/** What {@link SessionRegistry.claim} decided. */
export type SessionClaim =
  /** This node holds the session now: rebuild it from `record`. */
  | { readonly kind: 'claimed'; readonly record: SessionRecord }
  /**
   * Another node holds it and its heartbeat lasts: the request is relayed to
   * `url` (the holder's advertised address) when there is one; if the holder
   * cannot be reached, the app waits for its heartbeat to expire (`retryAfterMs`)
   * and claims again.
   */
  | { readonly kind: 'held'; readonly node: string; readonly retryAfterSeconds: number; readonly retryAfterMs?: number; readonly url?: string }
  /** No such session for this tenant and principal (ended, expired, or someone else's). */
  | { readonly kind: 'unknown' };

/**
 * Where replicas record their sessions (`createMcpApp({ sessionRegistry })`).
 * Every method may fail (the store is down): the app then serves this
 * replica's own sessions alone, logging a warning, and answers a session it
 * does not hold with 404.
 */
export interface SessionRegistry {
  /** This replica's name in the registry. */
  readonly nodeId: string;
  /** A session opened on this node. */
  record(record: SessionRecord): Promise<void>;
  /**
   * A request for session `sessionId` reached this node, which does not hold
   * it: take it over if `owner` opened it and its holder is gone.
   */
  claim(sessionId: string, owner: SessionOwner): Promise<SessionClaim>;
  /** The session was used: keep its record from expiring (cheap; may be throttled, never awaited). */
  touch(sessionId: string): void;
  /** The session ended (DELETE or idle timeout): drop its record. */
  end(sessionId: string): Promise<void>;
  /**
   * This node is going away: stop saying it is alive, at once, so other nodes
   * may claim its sessions on their next request instead of waiting for its
   * heartbeat to expire.
   */
  release(): Promise<void>;
  /**
   * Where the other replicas reach this one (`http://10.0.0.12:4040`), carried
   * in its heartbeat: a replica that receives a request for a session held
   * here relays it to that address. Optional: a registry without it leaves
   * such requests answered 503 with `Retry-After`.
   */
  advertise?(url: string): void;
}

/** True when `value` has the shape of the `initialize` parameters this app can replay. */
export function isInitializeParams(value: unknown): value is SessionInitializeParams {
  if (typeof value !== 'object' || value === null) return false;
  const v = value as Record<string, unknown>;
  return typeof v['protocolVersion'] === 'string' && typeof v['capabilities'] === 'object' && v['capabilities'] !== null && typeof v['clientInfo'] === 'object' && v['clientInfo'] !== null;
}

/** `record` with the subscription `body` adds or removes (a `resources/subscribe` or `resources/unsubscribe`); undefined when nothing changes. */
export function withSubscriptionChange(record: SessionRecord, body: unknown): SessionRecord | undefined {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return undefined;
  const { method, params } = body as { method?: unknown; params?: { uri?: unknown } };
  const uri = params?.uri;
  if ((method !== 'resources/subscribe' && method !== 'resources/unsubscribe') || typeof uri !== 'string') return undefined;
  const subscribed = method === 'resources/subscribe';
  const current = new Set(record.subscriptions ?? []);
  if (current.has(uri) === subscribed) return undefined;
  if (subscribed) current.add(uri);
  else current.delete(uri);
  return { ...record, subscriptions: [...current] };
}
