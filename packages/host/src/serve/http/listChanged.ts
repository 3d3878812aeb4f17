/**
 * Change notifications for 2026-07-28 clients: the host's changes published on
 * the app's `ServerEventBus`, which the SDK's listen router turns into
 * notifications on open `subscriptions/listen` streams; and the `listChanged`
 * capabilities that promise them, advertised on the servers minted for
 * 2026-07-28 requests only, where they are honoured: each such request is
 * served from the current blueprint and hears changes on its listen stream. A
 * 2025 session keeps the server (and so the lists) it opened with, so it is
 * promised nothing.
 */
import type { McpServer, ServerEvent, ServerEventBus } from '@modelcontextprotocol/server';
import type { HostChange } from '../../host/changes.js';
import type { McpHost } from '../../host/host.js';
import { HOST_NOTIFY_SUBSCRIBED_SESSIONS } from '../../host/internals.js';

/** The bus events a host change becomes. */
export function busEventsFor(change: HostChange): ServerEvent[] {
  if (change.kind === 'resource_updated') return [{ kind: 'resource_updated', uri: change.uri }];
  if (change.kind === 'toggled') return []; // the surface change that follows it is what clients hear
  return [{ kind: 'tools_list_changed' }, { kind: 'prompts_list_changed' }, { kind: 'resources_list_changed' }];
}

/** A bus that can also be heard for the events other replicas published (as `@reactor/redis`'s). */
interface ReplicatedBus extends ServerEventBus {
  subscribeRemote(listener: (event: ServerEvent) => void): () => void;
}

const isReplicated = (bus: ServerEventBus): bus is ReplicatedBus => typeof (bus as Partial<ReplicatedBus>).subscribeRemote === 'function';

/**
 * Publishes the host's changes on `bus` until the returned function is called;
 * on a replicated bus, also passes the resource updates other replicas
 * announced to this replica's subscribed 2025 sessions (its listen streams hear
 * them from the bus itself).
 */
export function publishHostChanges(host: McpHost, bus: ServerEventBus, onError: (error: unknown) => void): () => void {
  const stopPublishing = host.onChange((change) => {
    for (const event of busEventsFor(change)) bus.publish(event);
  });
  const stopHearing = isReplicated(bus)
    ? bus.subscribeRemote((event) => {
        if (event.kind === 'resource_updated') host[HOST_NOTIFY_SUBSCRIBED_SESSIONS](event.uri).catch(onError);
      })
    : undefined;
  return () => {
    stopPublishing();
    stopHearing?.();
  };
}

/** Advertises `listChanged` for the lists this server serves (call before it is connected). */
export function advertiseListChanged(server: McpServer): void {
  const low = server.server;
  const capabilities = low.getCapabilities();
  low.registerCapabilities({
    tools: { ...capabilities.tools, listChanged: true },
    ...(capabilities.prompts ? { prompts: { ...capabilities.prompts, listChanged: true } } : {}),
    ...(capabilities.resources ? { resources: { ...capabilities.resources, listChanged: true } } : {}),
  });
}
