/**
 * The SDK's `EventStore` in memory, for resumable-stream tests: event ids are
 * `<streamId>_<counter>`, as a naive store shared by every session would make them.
 */
import type { EventStore, JSONRPCMessage } from '@modelcontextprotocol/server';

/** A fresh in-memory event store. */
export function memoryEventStore(): EventStore {
  const events = new Map<string, { streamId: string; message: JSONRPCMessage }>();
  let counter = 0;
  return {
    storeEvent(streamId, message) {
      const eventId = `${streamId}_${String(++counter).padStart(10, '0')}`;
      events.set(eventId, { streamId, message });
      return Promise.resolve(eventId);
    },
    getStreamIdForEventId(eventId) {
      return Promise.resolve(events.get(eventId)?.streamId);
    },
    async replayEventsAfter(lastEventId, { send }) {
      const streamId = events.get(lastEventId)?.streamId;
      if (streamId === undefined) return '';
      let after = false;
      for (const [eventId, event] of events) {
        if (event.streamId !== streamId) continue;
        if (after) await send(eventId, event.message);
        if (eventId === lastEventId) after = true;
      }
      return streamId;
    },
  };
}
