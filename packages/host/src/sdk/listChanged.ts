/**
 * The `listChanged` capabilities, advertised on the servers minted for
 * 2026-07-28 requests only, where they are honoured: each such request is
 * served from the current blueprint and hears changes on its listen stream
 * (`http/listChanged.ts`). A 2025 session keeps the server (and so the lists)
 * it opened with, so it is promised nothing.
 */
import type { McpServer } from '@modelcontextprotocol/server';

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
