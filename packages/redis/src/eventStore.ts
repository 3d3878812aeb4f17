/**
 * Resumable SSE streams kept in Redis, so a `Last-Event-ID` can be replayed
 * by whichever replica the client reaches. One Redis stream per session,
 * holding the events of all that session's SDK streams, trimmed on every write
 * to what a client can still ask to replay: the last `maxEventsPerSession`
 * events (`XADD … MAXLEN`) no older than `maxEventAgeMs` (`XTRIM … MINID`);
 * each write refreshes the key's TTL to the session idle timeout, so an
 * abandoned session's events expire with it, and `endSession` deletes them at
 * once on DELETE. Event ids name their session and SDK stream
 * (`<session>/<stream>/<redis entry id>`): an id from another session, or
 * whose entry expired or was trimmed, resolves to nothing.
 */
import type { EventStore, JSONRPCMessage } from '@modelcontextprotocol/server';
import type { Logger, SessionScopedEventStore } from '@reactor/host';
import type { RedisClientType } from '@redis/client';
import { DEFAULT_KEY_PREFIX, sessionEventsKey } from './keys.js';

/** Options of {@link RedisEventStore}. */
export interface RedisEventStoreOptions {
  /** How long a session's events outlive its last event, ms: use the session idle timeout. */
  readonly ttlMs: number;
  /** How many events a session keeps for replay (`MAXLEN`); older ones cannot be replayed. Default {@link DEFAULT_EVENT_REPLAY_MAX}. */
  readonly maxEventsPerSession?: number;
  /** How long an event can be replayed, ms (`XTRIM … MINID` on each write). Default {@link DEFAULT_EVENT_REPLAY_AGE_MS}. */
  readonly maxEventAgeMs?: number;
  /** Prefix of every key. Default `reactor:mcp`. */
  readonly keyPrefix?: string;
  /** Told (once per outage) when events cannot be stored. Default: nowhere. */
  readonly logger?: Logger;
}

/**
 * Default replay window by count: a client resuming a stream asks for the
 * events after the last one it saw — seconds' worth, even on a session busy
 * with calls; 100 events of ~1 KB keep a busy session near 100 KB in Redis.
 */
export const DEFAULT_EVENT_REPLAY_MAX = 100;
/** Default replay window by age, ms: five minutes, far beyond the SDK clients' reconnection backoff. */
export const DEFAULT_EVENT_REPLAY_AGE_MS = 5 * 60_000;

/** The connection the store writes through (any connected node-redis client). */
export type RedisConnection = RedisClientType;

/** Entries read per `XRANGE` while replaying. */
const REPLAY_BATCH = 200;

/** A parsed event id. */
interface EventRef {
  readonly sessionId: string;
  readonly streamId: string;
  readonly entryId: string;
}

/** Splits `<session>/<stream>/<entry>`; session ids are UUIDs and entry ids `ms-seq`, so neither holds a `/`. */
export function parseEventId(eventId: string): EventRef | undefined {
  const first = eventId.indexOf('/');
  const last = eventId.lastIndexOf('/');
  if (first <= 0 || last <= first + 1) return undefined;
  const entryId = eventId.slice(last + 1);
  if (!/^\d+-\d+$/.test(entryId)) return undefined;
  return { sessionId: eventId.slice(0, first), streamId: eventId.slice(first + 1, last), entryId };
}

/**
 * A `SessionScopedEventStore` over Redis: pass it as `createMcpApp({ eventStore })`.
 *
 * @example
 * ```ts
 * const store = new RedisEventStore(client, { ttlMs: 30 * 60_000 });
 * const app = createMcpApp(host, { eventStore: store });
 * ```
 */
export class RedisEventStore implements SessionScopedEventStore {
  private readonly ttlMs: number;
  private readonly maxEvents: number;
  private readonly maxAgeMs: number;
  private readonly prefix: string;
  private readonly logger: Logger | undefined;
  /** True while storing fails: warned once, until a store succeeds again. */
  private failing = false;
  private unstored = 0;

  constructor(
    private readonly redis: RedisConnection,
    options: RedisEventStoreOptions,
  ) {
    if (!Number.isFinite(options.ttlMs) || options.ttlMs <= 0) throw new RangeError(`@reactor/redis: RedisEventStore option "ttlMs" must be a positive number of ms (the session idle timeout); received ${String(options.ttlMs)}`);
    this.ttlMs = Math.ceil(options.ttlMs);
    this.maxEvents = options.maxEventsPerSession ?? DEFAULT_EVENT_REPLAY_MAX;
    this.maxAgeMs = options.maxEventAgeMs ?? DEFAULT_EVENT_REPLAY_AGE_MS;
    if (!Number.isInteger(this.maxEvents) || this.maxEvents < 1) throw new RangeError(`@reactor/redis: RedisEventStore option "maxEventsPerSession" must be a whole number of events, at least 1; received ${String(options.maxEventsPerSession)}`);
    if (!Number.isFinite(this.maxAgeMs) || this.maxAgeMs <= 0) throw new RangeError(`@reactor/redis: RedisEventStore option "maxEventAgeMs" must be a positive number of ms; received ${String(options.maxEventAgeMs)}`);
    this.prefix = options.keyPrefix ?? DEFAULT_KEY_PREFIX;
    this.logger = options.logger;
  }

  /** The Redis key of session `sessionId`'s events (for operators and tests). */
  keyOf(sessionId: string): string {
    return sessionEventsKey(this.prefix, sessionId);
  }

  forSession(sessionId: string): EventStore {
    const key = this.keyOf(sessionId);
    const redis = this.redis;
    const { ttlMs, maxEvents, maxAgeMs } = this;
    // Arrows keep this store's outage state (the methods below belong to the returned object).
    const stored = () => void (this.failing = false);
    const unstored = (streamId: string, error: unknown) => this.unstoredId(sessionId, streamId, error);
    /** The event `eventId` names, if it is this session's and still stored. */
    const ownEntry = async (eventId: string): Promise<EventRef | undefined> => {
      const ref = parseEventId(eventId);
      if (!ref || ref.sessionId !== sessionId) return undefined;
      const [entry] = (await redis.xRange(key, ref.entryId, ref.entryId)) ?? [];
      return entry?.message['stream'] === ref.streamId ? ref : undefined;
    };
    return {
      async storeEvent(streamId: string, message: JSONRPCMessage): Promise<string> {
        let reply: unknown;
        try {
          [reply] = await redis
            .multi()
            .xAdd(key, '*', { stream: streamId, message: JSON.stringify(message) }, { TRIM: { strategy: 'MAXLEN', strategyModifier: '=', threshold: maxEvents } })
            // Entry ids start with their time in ms: everything older than the window goes.
            .xTrim(key, 'MINID', String(Date.now() - maxAgeMs), { strategyModifier: '=' })
            .pExpire(key, ttlMs)
            .exec();
          stored();
        } catch (error) {
          return unstored(streamId, error);
        }
        // Typed as node-redis's reply wrapper; on the wire (RESP2 and 3) it is a plain string.
        const added: unknown = reply;
        if (typeof added !== 'string') throw new Error(`@reactor/redis: XADD to ${key} answered ${JSON.stringify(added)}, expected an entry id`);
        return `${sessionId}/${streamId}/${added}`;
      },
      async getStreamIdForEventId(eventId: string): Promise<string | undefined> {
        return (await ownEntry(eventId))?.streamId;
      },
      async replayEventsAfter(lastEventId, { send }) {
        const ref = await ownEntry(lastEventId);
        if (!ref) throw new Error(`@reactor/redis: event id "${lastEventId}" names no stored event of session ${sessionId}`);
        let after = ref.entryId;
        for (;;) {
          const batch = (await redis.xRange(key, `(${after}`, '+', { COUNT: REPLAY_BATCH })) ?? [];
          for (const entry of batch) {
            if (entry.message['stream'] !== ref.streamId) continue;
            await send(`${sessionId}/${ref.streamId}/${entry.id}`, JSON.parse(String(entry.message['message'])) as JSONRPCMessage);
          }
          if (batch.length < REPLAY_BATCH) return ref.streamId;
          after = batch[batch.length - 1]!.id;
        }
      },
    };
  }

  /** Redis is down: the session goes on, its events just cannot be replayed (the id names no entry, so a resume with it gets 400). */
  private unstoredId(sessionId: string, streamId: string, error: unknown): string {
    if (!this.failing) this.logger?.warn({ session: sessionId }, `storing SSE events in Redis failed (${error instanceof Error ? error.message : String(error)}); sessions go on, but events sent meanwhile cannot be replayed`);
    this.failing = true;
    return `${sessionId}/${streamId}/unstored${++this.unstored}`;
  }

  async endSession(sessionId: string): Promise<void> {
    await this.redis.del(this.keyOf(sessionId));
  }
}
