/**
 * The JSON-RPC error answers of the HTTP endpoint, its sessions and the fast
 * path: a code, the right HTTP status, and the request's id when known.
 */

/** JSON-RPC error codes the app answers with (besides the SDK's own). */
export const JsonRpcCodes = {
  /** Invalid JSON. */
  PARSE_ERROR: -32700,
  /** Internal error. */
  INTERNAL_ERROR: -32603,
  /** The transport-level "server error" the SDK uses for HTTP refusals. */
  SERVER_ERROR: -32000,
  /** The SDK's "session not found". */
  SESSION_NOT_FOUND: -32001,
} as const;

/** A JSON-RPC error response (`id: null` unless the request's id is known). */
export function jsonRpcError(status: number, code: number, message: string, options: { id?: string | number | null; headers?: Record<string, string> } = {}): Response {
  return Response.json(
    { jsonrpc: '2.0', error: { code, message }, id: options.id ?? null },
    { status, headers: { 'cache-control': 'no-store', ...options.headers } },
  );
}

/** The JSON-RPC error body `writeJson` (`guards.ts`) sends. */
export function jsonRpcErrorBody(code: number, message: string): unknown {
  return { jsonrpc: '2.0', error: { code, message }, id: null };
}

/** The id of a single JSON-RPC request body, to echo on an error about it. */
export function requestIdOf(body: unknown): string | number | null {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return null;
  const id = (body as { id?: unknown }).id;
  return typeof id === 'string' || typeof id === 'number' ? id : null;
}
