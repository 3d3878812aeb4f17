import type { EventStore, JSONRPCMessage } from '@modelcontextprotocol/server';
import { describe, expect, it } from 'vitest';
import { memoryEventStore } from '../../../../test/helpers/memoryEventStore.js';
import { sessionEventStore } from './sessionEventStore.js';

const message: JSONRPCMessage = { jsonrpc: '2.0', method: 'notifications/message', params: { level: 'info', data: 'x' } };

async function replayed(store: EventStore, lastEventId: string): Promise<string[]> {
  const sent: string[] = [];
  await store.replayEventsAfter(lastEventId, {
    send: (eventId) => {
      sent.push(eventId);
      return Promise.resolve();
    },
  });
  return sent;
}

describe.each([
  ['a store with getStreamIdForEventId', () => memoryEventStore()],
  ['a store without it', () => {
    const { getStreamIdForEventId: _dropped, ...rest } = memoryEventStore();
    const store: EventStore = rest;
    return store;
  }],
])('sessionEventStore over %s', (_what, makeStore) => {
  it("gives each session ids that name it, replays a session's own events, and nothing of another's", async () => {
    const shared = makeStore();
    const a = sessionEventStore(shared, 'session-a');
    const b = sessionEventStore(shared, 'session-b');
    // Both sessions' standalone streams have the SDK's one fixed id.
    const first = await a.storeEvent('_GET_stream', message);
    const second = await a.storeEvent('_GET_stream', message);
    await b.storeEvent('_GET_stream', message);
    expect(first.startsWith('session-a~')).toBe(true);

    expect(await replayed(a, first)).toEqual([second]);
    expect(await b.getStreamIdForEventId?.(first)).toBeUndefined();
    await expect(replayed(b, first)).rejects.toThrow('no stream of this session');
    // A's inner id behind B's prefix is still A's event.
    await expect(replayed(b, `session-b~${first.slice('session-a~'.length)}`)).rejects.toThrow('no stream of this session');
  });
});
