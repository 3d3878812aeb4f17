/**
 * For watch mode: servers that advertise `tools.listChanged`, remembered so a
 * reload can tell each open one that its tool list changed. The SDK calls sit
 * here with the rest of the code that touches SDK server APIs.
 */
import { McpServer } from '@modelcontextprotocol/server';
import type { ServerFactory } from './mint.js';

/** A server factory that advertises `tools.listChanged` and keeps every server it makes. */
export interface ListChangedServers {
  readonly serverFactory: ServerFactory;
  /** Sends `notifications/tools/list_changed` on every connected server; resolves once written. Returns how many. */
  notifyToolListChanged(): Promise<number>;
}

/** Makes the factory of one watch-mode generation. */
export function listChangedServers(version: string): ListChangedServers {
  const servers = new Set<McpServer>();
  return {
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
