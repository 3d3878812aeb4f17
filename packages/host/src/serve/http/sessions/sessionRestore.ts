/**
 * Rebuilding a session on another replica with the SDK's public API only: a
 * fresh transport whose session id generator answers the recorded id is
 * handed the client's original `initialize` (and `initialized`), exactly as
 * the client once sent them. The SDK then holds the negotiated protocol
 * version, the client's capabilities and its info, and accepts the client's
 * next request under the same `Mcp-Session-Id` — no private fields touched,
 * so an SDK upgrade cannot silently break takeover.
 */
import type { AuthInfo, EventStore, WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/server';
import type { SessionRecord } from './sessionRegistry.js';

/** Whether the rebuild is over: until it is, the replayed exchange is kept out of the event store. */
export interface RestoreGate {
  readonly active: boolean;
  done(): void;
}

/** A gate that opens once {@link RestoreGate.done} is called. */
export function untilRestored(): RestoreGate {
  let active = false;
  return {
    get active() {
      return active;
    },
    done() {
      active = true;
    },
  };
}

/** `store`, except that until `gate` opens nothing is stored: the replayed exchange is no event the client missed. */
export function quietWhileRestoring(store: EventStore, sessionId: string, gate: RestoreGate): EventStore {
  return {
    storeEvent: (streamId, message) => (gate.active ? store.storeEvent(streamId, message) : Promise.resolve(`${sessionId}/replayed-initialize`)),
    replayEventsAfter: (eventId, options) => store.replayEventsAfter(eventId, options),
    ...(store.getStreamIdForEventId ? { getStreamIdForEventId: (eventId: string) => store.getStreamIdForEventId!(eventId) } : {}),
  };
}

/** Never reaches a network: the transport only reads the method, headers and body. */
const INTERNAL_URL = 'http://session-restore.invalid/mcp';
const HEADERS = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };

/** Replays `record`'s `initialize` and `notifications/initialized` into `transport`; throws if the SDK refuses either. */
export async function replayInitialize(transport: WebStandardStreamableHTTPServerTransport, record: SessionRecord, authInfo: AuthInfo | undefined): Promise<void> {
  const auth = authInfo ? { authInfo } : {};
  const initialize = { jsonrpc: '2.0', id: `restore-${record.id}`, method: 'initialize', params: record.initialize };
  const answered = await transport.handleRequest(new Request(INTERNAL_URL, { method: 'POST', headers: HEADERS, body: JSON.stringify(initialize) }), { parsedBody: initialize, ...auth });
  const body = await answered.text();
  if (answered.status !== 200 || answered.headers.get('mcp-session-id') !== record.id) {
    throw new Error(`the SDK refused the replayed initialize of session ${record.id} (HTTP ${answered.status}: ${body.slice(0, 200)})`);
  }
  // No MCP-Protocol-Version header: the transport then takes the version it just negotiated.
  const initialized = { jsonrpc: '2.0', method: 'notifications/initialized' };
  const notified = await transport.handleRequest(
    new Request(INTERNAL_URL, { method: 'POST', headers: { ...HEADERS, 'mcp-session-id': record.id }, body: JSON.stringify(initialized) }),
    { parsedBody: initialized, ...auth },
  );
  await notified.text();
  if (notified.status !== 202) throw new Error(`the SDK refused the replayed initialized notification of session ${record.id} (HTTP ${notified.status})`);
}

/** Subscribes the rebuilt session to `record`'s resources again; answers the URIs the SDK refused. */
export async function replaySubscriptions(transport: WebStandardStreamableHTTPServerTransport, record: SessionRecord, authInfo: AuthInfo | undefined): Promise<string[]> {
  const lost: string[] = [];
  for (const [index, uri] of (record.subscriptions ?? []).entries()) {
    const subscribe = { jsonrpc: '2.0', id: `restore-${record.id}-subscribe-${index}`, method: 'resources/subscribe', params: { uri } };
    const answered = await transport.handleRequest(
      new Request(INTERNAL_URL, { method: 'POST', headers: { ...HEADERS, 'mcp-session-id': record.id }, body: JSON.stringify(subscribe) }),
      { parsedBody: subscribe, ...(authInfo ? { authInfo } : {}) },
    );
    const body = await answered.text();
    if (answered.status !== 200 || !body.includes('"result"')) lost.push(uri);
  }
  return lost;
}
