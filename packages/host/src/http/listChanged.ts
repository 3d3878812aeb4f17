/**
 * Change notifications for 2026-07-28 clients: the host's changes published on
 * the app's `ServerEventBus` (which the SDK's listen router turns into
 * notifications on open `subscriptions/listen` streams), and the
 * `listChanged` capabilities that promise them — advertised on the
 * 2026-07-28 servers only, where they are honoured. A 2025 session keeps the
 * server (and so the lists) it opened with, so it is promised nothing.
 */
import type { McpServer, ServerEvent, ServerEventBus } from '@modelcontextprotocol/server';
import type { HostChange } from '../changes.js';
import type { McpHost } from '../host.js';

/** The bus events a host change becomes. */
export function busEventsFor(change: HostChange): ServerEvent[] {
  if (change.kind === 'resource_updated') return [{ kind: 'resource_updated', uri: change.uri }];
  return [{ kind: 'tools_list_changed' }, { kind: 'prompts_list_changed' }, { kind: 'resources_list_changed' }];
}

/** Publishes the host's changes on `bus` until the returned function is called. */
export function publishHostChanges(host: McpHost, bus: ServerEventBus): () => void {
  return host.onChange((change) => {
    for (const event of busEventsFor(change)) bus.publish(event);
  });
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
