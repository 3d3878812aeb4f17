/**
 * Resource subscriptions: which minted servers (sessions) subscribed to which
 * URIs, so `host.notifyResourceUpdated(uri)` can tell them. Reads the SDK
 * server's `onclose` and `sendResourceUpdated`.
 */
import type { McpServer } from '@modelcontextprotocol/server';

/** Which sessions subscribed to which resource URIs, for `host.notifyResourceUpdated`. */
export class Subscriptions {
  private readonly byServer = new Map<McpServer, Set<string>>();

  add(server: McpServer, uri: string): void {
    let set = this.byServer.get(server);
    if (!set) {
      set = new Set();
      this.byServer.set(server, set);
      const previous = server.server.onclose;
      server.server.onclose = () => {
        this.byServer.delete(server);
        previous?.();
      };
    }
    set.add(uri);
  }

  remove(server: McpServer, uri: string): void {
    this.byServer.get(server)?.delete(uri);
  }

  /** Tells every subscribed session; returns how many were told. */
  async notify(uri: string): Promise<number> {
    let told = 0;
    for (const [server, uris] of this.byServer) {
      if (!uris.has(uri)) continue;
      try {
        await server.server.sendResourceUpdated({ uri });
        told++;
      } catch {
        this.byServer.delete(server); // the session is gone
      }
    }
    return told;
  }
}
