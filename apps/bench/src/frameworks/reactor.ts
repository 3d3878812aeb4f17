/**
 * Reactor as the benchmark serves it: `buildHost` with one extension offering
 * the catalogue, served by `createMcpApp`. With `sessions`, 2025 clients get
 * sessions (the memory rows); without, every 2025 request is stateless.
 * 2026-07-28 requests are per-request either way.
 */
import * as current from '@reactor/host';
import type { McpApp, TelemetryOptions } from '@reactor/host';
import { answer, catalogue } from '../catalogue.js';

/** Where `servers/builds.ts` serves the build it was given, beside this workspace's at `/mcp`. */
export const BEFORE_PATH = '/before/mcp';

/** Where `servers/builds.ts`, started with `--telemetry`, says how many spans it exported (a JSON number). */
export const SPANS_PATH = '/telemetry/spans';
/** The query that selects the opt-in toolset whose no-op middleware wraps every call (served with `middleware: true`). */
export const MIDDLEWARE_QUERY = '?toolsets=catalogue,pass-through';

/** A build of `@reactor/host`: this workspace's, or another one loaded from its `dist` (`compare.ts`). */
export type HostModule = Pick<typeof current, 'buildHost' | 'createMcpApp' | 'defineExtension' | 'defineTool' | 'silentLogger'>;

/**
 * The Reactor app serving `count` catalogue tools — at `path` (default `/mcp`),
 * by `host` (default: this workspace's build), with `telemetry` when given.
 */
export async function reactorApp(count: number, options: { sessions: boolean; middleware?: boolean; path?: string; telemetry?: TelemetryOptions }, host: HostModule = current): Promise<McpApp> {
  const { buildHost, createMcpApp, defineExtension, defineTool, silentLogger } = host;
  const tools = catalogue(count);
  const extension = defineExtension({
    manifest: { name: 'catalogue', version: '1.0.0' },
    toolsets: () => [{ name: 'catalogue', description: 'The benchmark catalogue.' }],
    tools: () =>
      tools.map((t) =>
        defineTool({
          name: t.name,
          description: t.description,
          inputSchema: t.schema,
          handler: (args) => answer(t.name, args),
        }),
      ),
  });
  // One layer that only passes the call on: what middleware itself costs per request.
  // Opt-in, so one process serves the call with it (`?toolsets=catalogue,pass-through`) and without (`/mcp`).
  const passThrough = defineExtension({
    manifest: { name: 'pass-through', version: '1.0.0' },
    toolsets: () => [{ name: 'pass-through', default: false }],
    middleware: () => [{ name: 'no-op', handle: (_call, next) => next() }],
  });
  const built = await buildHost(options.middleware === true ? [extension, passThrough] : [extension], { name: 'reactor-bench', logger: silentLogger, ...(options.telemetry ? { telemetry: options.telemetry } : {}) });
  return createMcpApp(built, { sessions: options.sessions ? { max: 100_000 } : false, ...(options.path !== undefined ? { path: options.path } : {}) });
}
