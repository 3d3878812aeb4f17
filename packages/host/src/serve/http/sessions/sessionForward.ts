/**
 * Forwarding a session's request to the replica holding it. A balancer may
 * send a 2025 session's request to any replica (round-robin without
 * stickiness, a redispatch after a failure, a stick table that learnt another
 * replica); the one it reaches, when the holder is alive, relays the request
 * to the holder's advertised address and streams the answer back — a JSON
 * body or an SSE stream alike — instead of bouncing the client with a 503
 * whose `Retry-After` cannot come true (the balancer would send it back to
 * the same wrong replica). The relayed request keeps its headers (its
 * `Authorization`, its `Host`), so the holder authenticates and checks it
 * exactly as it would have checked it first-hand.
 *
 * A holder that refuses the connection (it was killed) or cannot be
 * connected to in time is reported `unreachable` — nothing was sent, so the
 * caller may wait for its heartbeat to expire and take the session over. "In
 * time" is judged after this process has looked at its sockets: an event loop
 * stalled past the timeout (a loaded machine) does not make a live holder
 * unreachable.
 */
import http, { type IncomingHttpHeaders } from 'node:http';
import https from 'node:https';
import { Readable } from 'node:stream';

/** Marks a relayed request: the replica it reaches never relays it again (no loops). Its value names the relaying node. */
export const FORWARDED_BY_HEADER = 'x-reactor-forwarded-by';

/** How long connecting to a holder may take before it counts as unreachable, ms. */
export const FORWARD_CONNECT_TIMEOUT_MS = 1_000;

/** Hop-by-hop headers (RFC 9110 §7.6.1) and those the relay sets itself. */
const NOT_RELAYED = new Set(['connection', 'keep-alive', 'proxy-connection', 'transfer-encoding', 'upgrade', 'te', 'trailer', 'content-length', 'accept-encoding', FORWARDED_BY_HEADER]);

/** Kept-alive connections to the other replicas, shared by every relayed request. */
const agents = { http: new http.Agent({ keepAlive: true }), https: new https.Agent({ keepAlive: true }) };

/** Nothing reached the holder: the caller may retry elsewhere or take the session over once the holder's heartbeat expires. */
export const UNREACHABLE = Symbol('unreachable');

/** What a relay produced: the holder's answer (streamed), or {@link UNREACHABLE}. */
export type Relayed = Response | typeof UNREACHABLE;

/** Where the relay goes and who relays it. */
export interface ForwardTarget {
  /** The holder's advertised base URL (`http://10.0.0.12:4040`): the request's path and query are kept. */
  readonly holderUrl: string;
  /** This node's name, sent in {@link FORWARDED_BY_HEADER}. */
  readonly fromNode: string;
  readonly connectTimeoutMs?: number;
}

/**
 * Relays `request` (its body already parsed: `parsedBody`) to the holder and
 * answers its response, streaming. Rejects only on a programming error;
 * a holder that fails after the request was sent yields a 502.
 */
export function forwardToHolder(request: Request, parsedBody: unknown, target: ForwardTarget): Promise<Relayed> {
  let base: URL;
  try {
    base = new URL(target.holderUrl);
  } catch {
    return Promise.resolve(UNREACHABLE);
  }
  const incoming = new URL(request.url);
  const headers: Record<string, string> = {};
  for (const [name, value] of request.headers) if (!NOT_RELAYED.has(name)) headers[name] = value;
  headers['host'] = request.headers.get('host') ?? incoming.host;
  headers[FORWARDED_BY_HEADER] = target.fromNode;
  const body = request.method === 'POST' && parsedBody !== undefined ? Buffer.from(JSON.stringify(parsedBody)) : undefined;
  if (body) headers['content-length'] = String(body.length);
  const secure = base.protocol === 'https:';
  const signal = request.signal;
  return new Promise<Relayed>((resolve) => {
    let settled = false;
    let connected = false;
    const settle = (answer: Relayed, streaming = false) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      // While the answer streams, the client leaving still ends the relay (and so the holder's stream) at once.
      if (!streaming) signal.removeEventListener('abort', onAbort);
      resolve(answer);
    };
    const outgoing = (secure ? https : http).request({
      protocol: base.protocol,
      hostname: base.hostname.replace(/^\[|\]$/g, ''),
      port: base.port || (secure ? 443 : 80),
      method: request.method,
      path: `${base.pathname.replace(/\/$/, '')}${incoming.pathname}${incoming.search}`,
      headers,
      agent: secure ? agents.https : agents.http,
    });
    const onAbort = () => outgoing.destroy(new Error('the client went away'));
    if (signal.aborted) onAbort();
    else signal.addEventListener('abort', onAbort, { once: true });
    // Checked once more after the next poll phase (setImmediate): a loop stalled past the timeout by other work
    // runs its timers phase before the poll phase that sees the connection made meanwhile, and a live holder
    // must not be taken for unreachable because this process was busy.
    const timer = setTimeout(() => {
      if (!connected) {
        setImmediate(() => {
          if (!connected && !settled) outgoing.destroy(Object.assign(new Error('connect timeout'), { code: 'ETIMEDOUT' }));
        });
      }
    }, target.connectTimeoutMs ?? FORWARD_CONNECT_TIMEOUT_MS);
    timer.unref();
    outgoing.on('socket', (socket) => {
      if (!socket.connecting) connected = true;
      else socket.once('connect', () => (connected = true));
    });
    outgoing.on('error', (error: NodeJS.ErrnoException) => {
      // Refused, timed out or reset on a kept-alive socket the holder had closed: nothing reached it.
      if (!connected || (outgoing.reusedSocket && error.code === 'ECONNRESET')) return settle(UNREACHABLE);
      settle(relayFailed(request, parsedBody, error));
    });
    outgoing.on('response', (answer) => {
      const status = answer.statusCode ?? 502;
      const noBody = request.method === 'HEAD' || status === 204 || status === 304;
      if (noBody) answer.resume();
      answer.once('close', () => signal.removeEventListener('abort', onAbort));
      settle(new Response(noBody ? null : (Readable.toWeb(answer) as ReadableStream<Uint8Array>), { status, headers: relayedHeaders(answer.headers) }), true);
    });
    outgoing.end(body);
  });
}

function relayedHeaders(source: IncomingHttpHeaders): Headers {
  const headers = new Headers();
  for (const [name, value] of Object.entries(source)) {
    if (value === undefined || NOT_RELAYED.has(name)) continue;
    for (const one of Array.isArray(value) ? value : [value]) headers.append(name, one);
  }
  return headers;
}

/** The holder failed after the request reached it: it may or may not have run, so it is not repeated. */
function relayFailed(request: Request, parsedBody: unknown, error: Error): Response {
  const id = typeof parsedBody === 'object' && parsedBody !== null && 'id' in parsedBody ? parsedBody.id : null;
  const message = `Bad Gateway: the node holding this session failed while answering (${error.message}); the request may not have completed — retry it if it is safe to repeat`;
  return Response.json({ jsonrpc: '2.0', error: { code: -32000, message }, id: typeof id === 'string' || typeof id === 'number' ? id : null }, { status: request.signal.aborted ? 499 : 502 });
}
