/**
 * One event store, many sessions, no crossing: `createMcpApp({ eventStore })`
 * hands one store to every session's transport, and every session's
 * standalone GET stream has the same stream id (the SDK's `_GET_stream`). So
 * each session sees the store through a view whose stream ids and event ids
 * name the session: a `Last-Event-ID` minted for another session (or made up)
 * resolves to no stream, and the SDK answers 400 without replaying anything.
 * (FastMCP fixed the same defect in PR 4402; FrontMCP's advisory is
 * GHSA-84j6-jc92-77jm.)
 */
import type { EventStore, JSONRPCMessage } from '@modelcontextprotocol/server';

/**
 * An event store that keeps sessions apart itself (a Redis stream per
 * session, say): `createMcpApp({ eventStore })` asks it for each session's
 * store instead of wrapping a shared one, and tells it when a session ended
 * (DELETE or idle timeout) so it can drop that session's events at once.
 * Not called when the app closes: the events outlive the process (their
 * store's own expiry ends them), so another replica can still replay them.
 */
export interface SessionScopedEventStore {
  /** The store of session `sessionId`: its event ids must resolve to nothing in any other session's store. */
  forSession(sessionId: string): EventStore;
  /** Session `sessionId` ended: its events may go. */
  endSession(sessionId: string): Promise<void>;
}

/** True when `store` scopes sessions itself. */
export function isSessionScoped(store: EventStore | SessionScopedEventStore): store is SessionScopedEventStore {
  return typeof (store as Partial<SessionScopedEventStore>).forSession === 'function' && typeof (store as Partial<SessionScopedEventStore>).endSession === 'function';
}

/** The store session `sessionId` uses: its own from a scoped store, else the prefixed view of a shared one. */
export function eventStoreForSession(store: EventStore | SessionScopedEventStore, sessionId: string): EventStore {
  return isSessionScoped(store) ? store.forSession(sessionId) : sessionEventStore(store, sessionId);
}

/** Separates the session from the rest of an id; session ids are UUIDs, so it never occurs in one. */
const SEPARATOR = '~';

/** The view of `store` for session `sessionId`. */
export function sessionEventStore(store: EventStore, sessionId: string): EventStore {
  const prefix = `${sessionId}${SEPARATOR}`;
  const own = (id: string): string | undefined => (id.startsWith(prefix) ? id.slice(prefix.length) : undefined);
  const inner = store.getStreamIdForEventId?.bind(store);

  const view: EventStore = {
    async storeEvent(streamId: string, message: JSONRPCMessage): Promise<string> {
      return prefix + (await store.storeEvent(prefix + streamId, message));
    },
    async replayEventsAfter(lastEventId, { send }) {
      const innerId = own(lastEventId);
      if (innerId === undefined) throw new Error('the event id belongs to no stream of this session');
      if (inner) {
        // Checked before anything is sent: the inner id may be another session's under our prefix.
        const stream = own((await inner(innerId)) ?? '');
        if (stream === undefined) throw new Error('the event id belongs to no stream of this session');
        return own(await store.replayEventsAfter(innerId, { send: (eventId, message) => send(prefix + eventId, message) })) ?? '';
      }
      // Without a lookup, hold the events until the store says whose stream they were.
      const held: Array<[string, JSONRPCMessage]> = [];
      const hold = (eventId: string, message: JSONRPCMessage) => {
        held.push([prefix + eventId, message]);
        return Promise.resolve();
      };
      const stream = own(await store.replayEventsAfter(innerId, { send: hold }));
      if (stream === undefined) throw new Error('the event id belongs to no stream of this session');
      for (const [eventId, message] of held) await send(eventId, message);
      return stream;
    },
    async getStreamIdForEventId(eventId) {
      const innerId = own(eventId);
      if (innerId === undefined) return undefined;
      if (!inner) return SEPARATOR; // unknown until replayed; replayEventsAfter checks ownership
      return own((await inner(innerId)) ?? '');
    },
  };
  return view;
}
