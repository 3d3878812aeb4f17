/**
 * For watch mode: servers that advertise `tools.listChanged`, remembered so a
 * reload can tell each open 2025 session that its tool list changed, and the
 * generation's own change bus, so a reload reaches 2026-07-28
 * `subscriptions/listen` streams too. The SDK calls sit here with the rest of
 * the code that touches SDK server APIs.
 */
import { InMemoryServerEventBus, McpServer } from '@modelcontextprotocol/server';
import { busEventsFor } from '../../serve/http/listChanged.js';
import type { ServerFactory } from '../../host/mint/mint.js';

/** A server factory that advertises `tools.listChanged` and keeps every server it makes. */
export interface ListChangedServers {
  readonly serverFactory: ServerFactory;
  /** The generation app's `bus`: its listen streams hear a reload from it. */
  readonly bus: InMemoryServerEventBus;
  /** Sends `notifications/tools/list_changed` on every connected server; resolves once written. Returns how many. */
  notifyToolListChanged(): Promise<number>;
  /**
   * Tells every open 2026-07-28 listen stream that tools, prompts and
   * resources changed (each stream hears what it subscribed to). Returns how
   * many streams were listening.
   */
  notifyListeners(): number;
}

/** Makes the factory of one watch-mode generation; `onerror` hears a listen stream's failing listener. */
export function listChangedServers(version: string, onerror?: (error: Error) => void): ListChangedServers {
  const servers = new Set<McpServer>();
  const bus = new InMemoryServerEventBus(onerror);
  return {
    bus,
    notifyListeners: () => {
      const listening = bus.listenerCount;
      for (const event of busEventsFor({ kind: 'surface' })) bus.publish(event);
      return listening;
    },
    serverFactory: (name, instructions) => {
      const server = new McpServer({ name, version }, { capabilities: { logging: {}, tools: { listChanged: true } }, ...(instructions === '' ? {} : { instructions }) });
      servers.add(server);
      return server;
    },
    notifyToolListChanged: async () => {
      const open = [...servers].filter((s) => s.isConnected());
      // The low-level server's promise settles once the notification is written, before the session is closed.
      await Promise.allSettled(open.map((s) => s.server.sendToolListChanged()));
      return open.length;
    },
  };
}
