/**
 * Test helper: the smallest `EventStore` (the SDK's resumability interface)
 * that keeps every event in memory, so a closed SSE stream can be resumed
 * with `Last-Event-ID`. Test-only: lives outside src/.
 */
import type { McpAppOptions } from '@reactor/host';

type EventStore = NonNullable<McpAppOptions['eventStore']>;

/** An in-memory event store: event ids are `<streamId>_<counter>`, replayed in order. */
export function memoryEventStore(): EventStore {
  const events = new Map<string, { streamId: string; message: unknown }>();
  let counter = 0;
  return {
    storeEvent: (streamId, message) => {
      const eventId = `${streamId}_${String(++counter).padStart(10, '0')}`;
      events.set(eventId, { streamId, message });
      return Promise.resolve(eventId);
    },
    getStreamIdForEventId: (eventId) => Promise.resolve(events.get(eventId)?.streamId),
    replayEventsAfter: async (lastEventId, { send }) => {
      const streamId = events.get(lastEventId)?.streamId;
      if (streamId === undefined) return '';
      let after = false;
      for (const [eventId, event] of events) {
        if (event.streamId !== streamId) continue;
        if (after) await send(eventId, event.message as Parameters<typeof send>[1]);
        if (eventId === lastEventId) after = true;
      }
      return streamId;
    },
  };
}
