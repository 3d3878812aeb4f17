/**
 * CORS for browser-based MCP clients. Off unless `corsOrigins` names the
 * origins allowed: then a preflight (`OPTIONS` with
 * `Access-Control-Request-Method`) is answered 204 with the headers an MCP
 * client sends, and every answer to an allowed origin exposes the headers it
 * must read (`Mcp-Session-Id`, `WWW-Authenticate`). DNS-rebinding protection
 * is not loosened: the Host check stays, and only the listed origins are
 * added to the Origin check.
 */
import type { IncomingHttpHeaders } from 'node:http';

/** Request headers a browser MCP client may send (the 2026-07-28 protocol adds `Mcp-Method` and `Mcp-Name`). */
export const CORS_ALLOWED_HEADERS = [
  'Authorization',
  'Content-Type',
  'Mcp-Session-Id',
  'Mcp-Protocol-Version',
  'Last-Event-ID',
  'X-MCP-Toolsets',
  'Mcp-Method',
  'Mcp-Name',
] as const;

/** Response headers a browser MCP client must be able to read. */
export const CORS_EXPOSED_HEADERS = ['Mcp-Session-Id', 'WWW-Authenticate'] as const;

/** How long a browser may cache a preflight answer, seconds. */
export const CORS_MAX_AGE_SECONDS = 600;

/** The allowed origins, normalized (`scheme://host[:port]`, lower case, default port dropped); `*` allows any. */
export interface CorsPolicy {
  readonly origins: ReadonlySet<string>;
  readonly any: boolean;
}

/** Normalizes one `corsOrigins` entry; undefined when it is not an origin. */
export function normalizeOrigin(entry: string): string | undefined {
  const trimmed = entry.trim();
  if (trimmed === '*') return '*';
  try {
    const url = new URL(trimmed);
    if (url.origin === 'null' || (url.pathname !== '/' && url.pathname !== '') || url.search !== '' || url.hash !== '') return undefined;
    return url.origin;
  } catch {
    return undefined;
  }
}

/** The policy for a list of normalized origins. */
export function corsPolicy(origins: readonly string[]): CorsPolicy {
  return { origins: new Set(origins.filter((o) => o !== '*')), any: origins.includes('*') };
}

/** The request's `Origin` when the policy allows it. */
export function allowedOrigin(headers: IncomingHttpHeaders, policy: CorsPolicy): string | undefined {
  const origin = headers.origin;
  if (typeof origin !== 'string' || origin === '' || origin === 'null') return undefined;
  const normalized = normalizeOrigin(origin);
  if (normalized === undefined) return undefined;
  return policy.any || policy.origins.has(normalized) ? origin : undefined;
}

/** True for a CORS preflight: `OPTIONS` with `Access-Control-Request-Method`. */
export function isPreflight(method: string, headers: IncomingHttpHeaders): boolean {
  return method === 'OPTIONS' && typeof headers['access-control-request-method'] === 'string';
}

/** Headers on every answer to an allowed origin. */
export function corsHeaders(origin: string): Record<string, string> {
  return {
    'access-control-allow-origin': origin,
    'access-control-expose-headers': CORS_EXPOSED_HEADERS.join(', '),
    vary: 'Origin',
  };
}

/** Headers of the 204 answer to an allowed preflight. */
export function preflightHeaders(origin: string, methods: string): Record<string, string> {
  return {
    ...corsHeaders(origin),
    'access-control-allow-methods': methods,
    'access-control-allow-headers': CORS_ALLOWED_HEADERS.join(', '),
    'access-control-max-age': String(CORS_MAX_AGE_SECONDS),
  };
}
