/**
 * The two read-only routes beside the protocol: `GET /healthz` (never opens
 * a session, never builds) and `GET /toolsets` (what a connection with this
 * request's selection would get).
 */
import type { ExtensionStatus, HostDescription, McpHost } from '../../host/host.js';
import type { Selection } from '../../selection/selection.js';
import type { TokenCounter } from '../../host/tokens.js';
import type { McpAppHealthCheck } from './options.js';

/** One extension in the `/healthz` body: its status without its name (the key). */
export type HealthzExtension = Omit<ExtensionStatus, 'name'>;

/** The `/healthz` body. */
export interface HealthzBody {
  /** True while the app serves; false once it is closing. */
  ok: boolean;
  /** True when an extension failed and is served around (see `extensions` and `problems`). */
  degraded: boolean;
  /** The server name. */
  name: string;
  version: string;
  /** The host revision (increments whenever blueprints are dropped). */
  revision: number;
  /** Each extension's status, by name. */
  extensions: Record<string, HealthzExtension>;
  /** How many problems the host contained (details in `host.report()`). */
  problems: number;
  /** True once `close()` started. */
  closing?: true;
  /** The app's `healthChecks`, by name (absent when it has none). */
  checks?: Record<string, { ok: boolean; detail?: string }>;
  /** Tasks (2026-07-28 extension): the task store's name and how many tasks this node runs now (absent when tasks are off). */
  tasks?: { store: string; running: number };
}

/**
 * `GET /healthz`. The status is 200 and `ok: true` while the app serves — also
 * when an extension failed, since one plugin never breaks the rest: the body then
 * says `degraded: true` and which extension is `failed`, and a restart would not
 * fix it. It is 503 once `close()` started, so a load balancer drains the
 * instance.
 */
export function healthzResponse(host: McpHost, closing: boolean, healthChecks: readonly McpAppHealthCheck[] = [], tasks?: { store: string; running: number }): Response {
  const report = host.report();
  const checks: Record<string, { ok: boolean; detail?: string }> = {};
  for (const c of healthChecks) {
    const result = c.check();
    checks[c.name] = { ok: result.ok, ...(result.detail !== undefined ? { detail: result.detail } : {}) };
  }
  const checksOk = Object.values(checks).every((c) => c.ok);
  const extensions: Record<string, HealthzExtension> = {};
  for (const { name, ...status } of report.extensions) extensions[name] = status;
  const body: HealthzBody = {
    // Up and serving: one failed extension does not make the server unhealthy (it serves
    // around it); `degraded` and each extension's state say what is missing.
    ok: !closing,
    degraded: !report.ok || !checksOk,
    name: report.name,
    version: report.version,
    revision: report.revision,
    extensions,
    problems: report.problems.length,
    ...(closing ? { closing: true as const } : {}),
    ...(healthChecks.length > 0 ? { checks } : {}),
    ...(tasks ? { tasks } : {}),
  };
  return Response.json(body, { status: closing ? 503 : 200, headers: { 'cache-control': 'no-store' } });
}

/** The `/toolsets` body: `describe()`, whose `denied` lists the toolsets the token may not have. */
export type ToolsetsBody = HostDescription;

/**
 * `GET /toolsets`: `host.describe()` for the request's selection, plus `denied`
 * when the token lacks some toolsets' scopes, and `tokens` when the app counts them.
 */
export async function toolsetsBody(host: McpHost, selection: Selection, tenant: string | undefined, denied: readonly string[], readOnly = false, tokenCounter?: TokenCounter): Promise<ToolsetsBody> {
  return await host.describe(selection, { tenant, denied, readOnly, tokenCounter });
}
