/**
 * The app's first line: DNS-rebinding protection (Host and Origin checked
 * with the SDK's validators), and the answers for malformed requests — each a
 * JSON-RPC error with the right HTTP status, never a crash.
 */
import type { IncomingHttpHeaders, ServerResponse } from 'node:http';
import { isIP } from 'node:net';
import {
  isJsonContentType,
  localhostAllowedHostnames,
  localhostAllowedOrigins,
  validateHostHeader,
  validateOriginHeader,
} from '@modelcontextprotocol/server';
import { jsonRpcError, JsonRpcCodes } from './jsonRpc.js';

/** Writes a JSON body on a Node response (for answers given before the request is converted). */
export function writeJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  if (res.headersSent) {
    res.destroy();
    return;
  }
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text), 'cache-control': 'no-store', ...headers });
  res.end(text);
}

/** Writes a plain-text answer (a 404 for what is not MCP: a JSON-RPC body there would confuse OAuth clients). */
export function writeText(res: ServerResponse, status: number, text: string): void {
  if (res.headersSent) {
    res.destroy();
    return;
  }
  res.writeHead(status, { 'content-type': 'text/plain; charset=utf-8', 'content-length': Buffer.byteLength(text), 'cache-control': 'no-store' });
  res.end(text);
}

/** True for 127.0.0.0/8, `::1` and IPv4-mapped loopback. */
export function isLoopbackAddress(address: string | undefined): boolean {
  if (address === undefined || address === '') return false;
  const plain = address.toLowerCase().startsWith('::ffff:') ? address.slice(7) : address;
  if (isIP(plain) === 4) return plain.startsWith('127.');
  return plain === '::1' || plain === '0:0:0:0:0:0:0:1';
}

/** Which Host and Origin values a request may carry; `undefined` means "not checked". */
export interface HostPolicy {
  readonly hosts: readonly string[] | undefined;
  readonly origins: readonly string[] | undefined;
}

/**
 * Normalizes an allow-list entry to what the SDK validators compare: a
 * lower-case hostname (IPv6 bracketed), port and scheme dropped — so
 * `Example.com:443` and `https://example.com` both mean `example.com`.
 * `<scheme>://*` entries (browser extensions) are kept as they are.
 */
export function normalizeAllowedHost(entry: string): string {
  const trimmed = entry.trim();
  if (/^[a-z][a-z0-9+.-]*:\/\/\*$/.test(trimmed)) return trimmed;
  try {
    return new URL(trimmed.includes('://') ? trimmed : `http://${trimmed}`).hostname;
  } catch {
    return trimmed.toLowerCase();
  }
}

/**
 * The policy for a request arriving on `localAddress`: explicit lists always
 * apply; without them, a loopback listener allows only localhost names (a
 * public listener checks nothing unless told, since its public names are not
 * knowable). Origins default to the allowed hosts.
 */
export function hostPolicyFor(
  localAddress: string | undefined,
  allowedHosts: readonly string[] | undefined,
  allowedOrigins: readonly string[] | undefined,
): HostPolicy {
  const loopback = isLoopbackAddress(localAddress);
  const hosts = allowedHosts ?? (loopback ? localhostAllowedHostnames() : undefined);
  const origins = allowedOrigins ?? allowedHosts ?? (loopback ? localhostAllowedOrigins() : undefined);
  return { hosts, origins };
}

/** A refusal the app writes itself. */
export interface GuardRefusal {
  readonly status: number;
  readonly message: string;
}

/** Checks Host and Origin against the policy; a malformed Host is refused even when unchecked. */
export function checkHostAndOrigin(headers: IncomingHttpHeaders, policy: HostPolicy): GuardRefusal | undefined {
  const host = headers.host;
  if (policy.hosts !== undefined) {
    const result = validateHostHeader(host, [...policy.hosts]);
    if (!result.ok) return { status: 403, message: `${result.message}; hint: a server behind a proxy or on a public name lists its hosts in allowedHosts` };
  } else if (host !== undefined) {
    try {
      new URL(`http://${host}`);
    } catch {
      return { status: 400, message: `Bad Request: invalid Host header` };
    }
  }
  if (policy.origins !== undefined) {
    const result = validateOriginHeader(headers.origin, [...policy.origins]);
    if (!result.ok) return { status: 403, message: `${result.message}; hint: list browser origins in allowedOrigins, or in corsOrigins (--cors-origin) for cross-origin clients` };
  }
  return undefined;
}

/** Distinct Host/Origin pairs whose verdicts a {@link HostGuard} keeps; more are checked every time. */
const MAX_KEPT_VERDICTS = 1024;
/** The verdict kept for a pair the guard let through. */
const ALLOWED = 'allowed';

/**
 * The app's Host and Origin check for every request, as
 * {@link checkHostAndOrigin} decides it, with each distinct (listener kind,
 * Host, Origin) verdict kept: the SDK's validator parses the Host header
 * with `new URL` on every call, about 1% of a fast-path answer, and a
 * deployment sees a handful of distinct values. At most
 * {@link MAX_KEPT_VERDICTS} are kept, so a client varying its headers costs
 * what it cost before, never memory.
 */
export class HostGuard {
  readonly #policies: { readonly loopback: HostPolicy; readonly other: HostPolicy };
  readonly #verdicts = new Map<string, GuardRefusal | typeof ALLOWED>();

  /** `extraOrigins` are allowed besides the policy's (CORS origins); `anyOrigin` turns the Origin check off (CORS `*`). */
  constructor(allowedHosts: readonly string[] | undefined, allowedOrigins: readonly string[] | undefined, extraOrigins: readonly string[] | undefined, anyOrigin: boolean) {
    const policy = (localAddress: string): HostPolicy => {
      const { hosts, origins } = hostPolicyFor(localAddress, allowedHosts, allowedOrigins);
      return { hosts, origins: anyOrigin ? undefined : origins && extraOrigins ? [...origins, ...extraOrigins] : origins };
    };
    this.#policies = { loopback: policy('127.0.0.1'), other: policy('') };
  }

  /** The refusal for a request with these headers arriving on `localAddress`, or `undefined`. */
  check(headers: IncomingHttpHeaders, localAddress: string | undefined): GuardRefusal | undefined {
    const loopback = isLoopbackAddress(localAddress);
    const { host, origin } = headers;
    // The Host part is length-prefixed, so no pair of values can make another pair's key, whatever characters they hold.
    const key = `${loopback ? 'l' : 'o'}|${host === undefined ? '' : `${host.length}=${host}`}|${origin === undefined ? '' : `=${origin}`}`;
    const known = this.#verdicts.get(key);
    if (known !== undefined) return known === ALLOWED ? undefined : known;
    const refusal = checkHostAndOrigin(headers, loopback ? this.#policies.loopback : this.#policies.other);
    if (this.#verdicts.size < MAX_KEPT_VERDICTS) this.#verdicts.set(key, refusal ?? ALLOWED);
    return refusal;
  }
}

/** The outcome of reading a JSON-RPC POST body. */
export type BodyResult = { readonly ok: true; readonly body: unknown } | { readonly ok: false; readonly response: Response };

/**
 * Reads a POST body as JSON: 415 for another content type, 400 (-32700) for
 * empty or invalid JSON. The size limit was applied when the body was read
 * from the socket (413).
 */
export async function readJsonBody(request: Request): Promise<BodyResult> {
  if (!isJsonContentType(request.headers.get('content-type'))) {
    return { ok: false, response: jsonRpcError(415, JsonRpcCodes.SERVER_ERROR, 'Unsupported Media Type: Content-Type must be application/json') };
  }
  let text: string;
  try {
    text = await request.text();
  } catch {
    return { ok: false, response: jsonRpcError(400, JsonRpcCodes.PARSE_ERROR, 'Parse error: the request body could not be read') };
  }
  if (text.trim() === '') return { ok: false, response: jsonRpcError(400, JsonRpcCodes.PARSE_ERROR, 'Parse error: empty body; expected a JSON-RPC message') };
  try {
    return { ok: true, body: JSON.parse(text) as unknown };
  } catch {
    return { ok: false, response: jsonRpcError(400, JsonRpcCodes.PARSE_ERROR, 'Parse error: Invalid JSON') };
  }
}
