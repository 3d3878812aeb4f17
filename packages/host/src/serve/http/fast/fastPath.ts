/**
 * The fast path: the requests that dominate hosted traffic — `tools/list`,
 * `tools/call`, `resources/list`, `resources/read`, `prompts/list`,
 * `prompts/get` (and 2026-07-28's `server/discover`) on POST without a
 * session, in the 2026-07-28 protocol or as 2025 stateless requests —
 * answered from the Node request directly: the body read once, the era
 * decided from it as the SDK's classifier would decide it, the blueprint's shared server
 * (`serve/http/fast/sharedServers.ts`) asked for the answer, which is written once with
 * `res.end` (2025 answers as the one-event stream the SDK's stateless
 * transport sends) at the end of the event loop's turn, with the turn's other
 * answers (`turnEndWrites.ts`). `tools/list` answers are encoded once per shared server
 * and replayed as bytes — compressed once, too, for a 2026-07-28 client
 * that accepts gzip or Brotli (`encodedAnswer.ts`).
 *
 * The SDK's per-request path stays the truth: anything the fast path is not
 * sure of falls through to it unchanged, before anything ran — another
 * protocol version or era, a header the SDK would refuse or check further,
 * a progress token (streamed progress), a chunked or oversized body, an
 * unknown tool, a blueprint with `onServer` hooks (they may register tools
 * with scope challenges or header declarations), an `x-mcp-header`
 * declaration, and every refusal the SDK's 2026-07-28 server makes before a
 * handler runs. `fastPath.differential.test.ts` sends the same generated
 * requests to an app with the fast path and one without and compares the
 * answers.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { CLIENT_CAPABILITIES_META_KEY as CLIENT_CAPABILITIES_KEY, CLIENT_INFO_META_KEY as CLIENT_INFO_KEY, PROTOCOL_VERSION_META_KEY as PROTOCOL_VERSION_KEY, classifyInboundRequest, isJsonContentType, type AuthInfo, type JSONRPCMessage, type JSONRPCRequest } from '@modelcontextprotocol/server';
import type { Blueprint } from '../../../host/build/blueprint.js';
import type { HostBuiltServer } from '../../../host/build/builtServer.js';
import { BUILT_BLUEPRINT } from '../../../host/internals.js';
import type { Selection } from '../../../selection/selection.js';
import { requestRecordCarrier, type RequestRecord } from '../../../telemetry/requestRecord.js';
import type { HostStats } from '../../../kernel/stats.js';
import { LEGACY_STATELESS, type SharedServer, type SharedServers } from './sharedServers.js';
import type { LegacyExchangeTransport } from './legacyExchange.js';
import { acceptedEncoding, COMPRESS_MIN_BYTES, EncodedAnswer } from './encodedAnswer.js';
import { ENVELOPE_META_KEYS, EnvelopeVerdicts } from './envelopeVerdicts.js';
import { lazyRequest, type LazyRequest } from './lazyRequest.js';
import { isJsonRpcRequest } from './jsonRpcRequest.js';
import { turnEndWrites } from './turnEndWrites.js';

/** The one 2026-era revision the fast path serves (others fall through to the SDK, which knows them all); any other version header is 2025's to classify. */
export const FAST_REVISION = '2026-07-28';

const LEGACY_METHODS: ReadonlySet<string> = new Set(['tools/list', 'tools/call', 'resources/list', 'resources/read', 'prompts/list', 'prompts/get']);
const FAST_METHODS: ReadonlySet<string> = new Set([...LEGACY_METHODS, 'server/discover']);
/** The members a request may have for the fast path: a 2025 transport parses (and strips) a message before its server sees it; no response member is among them. */
const REQUEST_MEMBERS: ReadonlySet<string> = new Set(['jsonrpc', 'id', 'method', 'params']);
/** The SDK's 2025 stateless transport keeps a quiet event stream alive with a comment this often. */
const SSE_KEEP_ALIVE_MS = 15_000;
/** Where `Mcp-Name` comes from, per method (the SDK cross-checks it against the body). */
const NAME_FIELD: Readonly<Record<string, string>> = { 'tools/call': 'name', 'prompts/get': 'name', 'resources/read': 'uri' };
/** Encoded `tools/list` answers kept per shared server (one per distinct params object). */
const MAX_ENCODED_LISTS = 16;
/**
 * Params longer than this (as JSON) are not kept as an encoded answer's key:
 * the key is the client's text, and a body may be megabytes. Real `tools/list`
 * params are an envelope and perhaps a cursor, well under it.
 */
const MAX_ENCODED_KEY_CHARS = 4096;

const SSE_HEADERS = { 'content-type': 'text/event-stream', 'cache-control': 'no-cache, no-transform', connection: 'keep-alive', 'x-accel-buffering': 'no' };
/**
 * {@link SSE_HEADERS} and a length — by `Object.assign`, not as
 * `{ ...SSE_HEADERS, 'content-length': length }`: on Node 20 (V8 11.3) a
 * literal that begins with a spread and adds a key costs about a
 * microsecond, and every 2025 answer makes one.
 */
const sseHeadersWithLength = (length: number) => Object.assign({}, SSE_HEADERS, { 'content-length': length });
/** The SDK answers this handler-raised error with HTTP 400, every other handler error with 200. */
const MISSING_CLIENT_CAPABILITY = -32021;

/** A request's blueprint and selection, or the refusal to send. */
type Planned = { readonly built: HostBuiltServer; readonly selection: Selection } | Response;

/** How a request the fast path gives up on reaches the per-request path. */
export type FallThrough = { readonly parsed: unknown } | { readonly raw: Buffer } | undefined;

/** What the fast path needs of the app. */
export interface FastPathDeps {
  readonly maxBodyBytes: number;
  readonly servers: SharedServers;
  /** The request's record when spans are recorded: attached to the `Request` handlers see (`ctx.http.req`), as the per-request path does. */
  readonly traced: RequestRecord | undefined;
  /** The host's counters (`fastAnswers`, `fetchRequests`). */
  readonly stats: HostStats;
  /** Told the parsed body once the request is authenticated, as the per-request path tells it (the access log's `logPayloads`). */
  readonly received: ((body: unknown) => void) | undefined;
  /** Verifies the request's token (`undefined`, at once, when auth is off), or the refusal to send; `request` is called only when auth is on. */
  authenticate(request: () => Request): AuthInfo | Response | undefined | Promise<AuthInfo | Response | undefined>;
  /** The request's blueprint and selection, or the refusal (403 for a denied toolset, 500 when it cannot be built) — at once when nothing needs awaiting. */
  plan(authInfo: AuthInfo | undefined): Planned | Promise<Planned>;
  /** Writes a `Response` the app made (a refusal) on the Node response. */
  write(res: ServerResponse, response: Response): Promise<void>;
}

/**
 * Answers one request on the fast path. Resolves `'answered'`, or how to
 * hand it to the per-request path: `undefined` (the body was not read), the
 * parsed body, or the raw bytes read.
 */
export async function serveFast(req: IncomingMessage, res: ServerResponse, deps: FastPathDeps): Promise<'answered' | FallThrough> {
  const headers = req.headers;
  if (headers['mcp-session-id'] !== undefined || !isJsonContentType(headers['content-type'])) return undefined;
  const version = headers['mcp-protocol-version'];
  const legacy = version !== FAST_REVISION;
  // The SDK's 2025 transport answers 406 to a client that does not accept both.
  if (legacy && !acceptsEventStream(headers.accept)) return undefined;
  const length = Number(headers['content-length']);
  if (headers['transfer-encoding'] !== undefined || !Number.isSafeInteger(length) || length <= 0 || length > deps.maxBodyBytes) return undefined;

  const raw = await readBody(req, length);
  let body: unknown;
  try {
    body = JSON.parse(raw.toString('utf8'));
  } catch {
    return { raw };
  }
  const message = legacy ? legacyMessage(body, req) : fastMessage(body, req);
  if (!message) return { parsed: body };

  // The request spans find the record from their handler's `ctx.http.req`.
  const lazy = lazyRequest(req, () => deps.stats.fetchRequests++, deps.traced ? requestRecordCarrier(deps.traced) : undefined);
  // Awaited only when there is something to await: with auth off and the blueprint cached, a request takes no turn of the microtask queue for either.
  const verifying = deps.authenticate(() => lazy.request);
  const verified = verifying instanceof Promise ? await verifying : verifying;
  if (verified instanceof Response) return answered(deps.write(res, verified));
  deps.received?.(body);
  const planning = deps.plan(verified);
  const plan = planning instanceof Promise ? await planning : planning;
  if (plan instanceof Response) return answered(deps.write(res, plan));
  const blueprint = plan.built[BUILT_BLUEPRINT];
  if (!servable(blueprint, message)) return { parsed: body };
  const meta = (message.params as { _meta?: Record<string, unknown> } | undefined)?._meta;
  const pending = legacy
    ? deps.servers.serverFor(plan.built, blueprint, plan.selection, LEGACY_STATELESS, NO_IDENTITY)
    : deps.servers.serverFor(plan.built, blueprint, plan.selection, FAST_REVISION, {
        clientInfo: meta?.[CLIENT_INFO_KEY],
        clientCapabilities: meta?.[CLIENT_CAPABILITIES_KEY],
      });
  const shared = pending instanceof Promise ? await pending : pending;
  if (!shared) return { parsed: body };
  // The SDK's 2025 transport answers 400 to a version its server does not speak.
  if (legacy && !(shared.transport as LegacyExchangeTransport).acceptsVersion(typeof version === 'string' ? version : undefined)) return { parsed: body };

  const listKey = message.method === 'tools/list' && !blueprint.middleware['tools/list'] ? JSON.stringify(message.params ?? null) : undefined;
  const encoded = listKey === undefined ? undefined : shared.encoded.get(listKey);
  if (encoded) {
    deps.stats.fastAnswers++;
    turnEndWrites.add(res, () => writeEncoded(req, res, encoded, message.id, legacy));
    return 'answered';
  }
  // Of a tools/call's request signal, only the SDK's dispatch and the host read: a tool's handler gets the call's own signal (blueprint.ts), a middleware layer a real one (middlewareCalls.ts).
  const deferAbort = message.method === 'tools/call';
  if (!(await exchange(req, res, lazy, shared, message, verified, listKey, legacy, deferAbort))) return { parsed: body };
  deps.stats.fastAnswers++;
  return 'answered';
}

/** A 2025 stateless request carries no client identity: one shared server serves all its clients. */
const NO_IDENTITY = { clientInfo: undefined, clientCapabilities: undefined } as const;

/** The SDK 2025 transport's own test: both media types named somewhere in `Accept`. */
function acceptsEventStream(accept: string | undefined): boolean {
  return accept !== undefined && accept.includes('application/json') && accept.includes('text/event-stream');
}

const answered = async (writing: Promise<void>): Promise<'answered'> => {
  await writing;
  return 'answered';
};

/**
 * The body, exactly `length` bytes as announced (a shorter one is what the
 * per-request path would see too). Read with the stream's events: an async
 * iterator over the request costs a few microseconds more per request.
 */
function readBody(req: IncomingMessage, length: number): Promise<Buffer> {
  // Read already (by something in front of the app that kept no body): nothing more will come, as an iterator would find.
  if (req.readableEnded) return Promise.resolve(Buffer.alloc(0));
  if (req.destroyed) return Promise.reject(prematureClose());
  return new Promise<Buffer>((resolve, reject) => {
    const chunks: Buffer[] = [];
    let received = 0;
    // Once the body has ended nothing more comes, so its listeners stay (they go with the request) rather than
    // being taken off one by one on every request: this flag keeps a later 'close' or 'error' from doing anything.
    let settled = false;
    req
      .on('data', (chunk: Buffer) => {
        if (settled) return;
        chunks.push(chunk);
        received += chunk.length;
      })
      .on('end', () => {
        settled = true;
        resolve(chunks.length === 1 && received === length ? chunks[0]! : Buffer.concat(chunks, received));
      })
      // The client went away before the body ended: as an iterator over the request would, this rejects.
      .on('close', () => {
        if (!settled) fail(prematureClose());
      })
      .on('error', (error: Error) => {
        if (!settled) fail(error);
      });
    const fail = (error: Error): void => {
      settled = true;
      // Nothing more is read: the chunks that came are let go, and a body still arriving is not kept.
      chunks.length = 0;
      reject(error);
    };
  });
}

/** The error an iterator over a request that closed before its end throws. */
const prematureClose = (): Error => Object.assign(new Error('Premature close'), { code: 'ERR_STREAM_PREMATURE_CLOSE' });

const isPlainObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * The request when it is one the fast path serves and the SDK's header ladder
 * would pass as it stands; else `undefined`.
 *
 * Era: what the SDK's `classifyInboundRequest` calls a 2026-07-28 request,
 * decided from the body directly. The classifier first tries the body as a
 * response (two zod parses that fail, building their issues) and costs about
 * 20 µs a call, a tenth of a whole answer. Its verdict here is the same by
 * construction: no member but a request's (so no response), a JSON-RPC
 * request by the SDK's own schema (`jsonRpcRequest.ts`), and an envelope claiming this revision, as
 * the header does, that the classifier finds valid (asked once per distinct
 * envelope: `envelopeVerdicts`). The differential test holds the two
 * paths to the same answers.
 */
function fastMessage(body: unknown, req: IncomingMessage): JSONRPCRequest | undefined {
  if (!isPlainObject(body) || body.jsonrpc !== '2.0' || typeof body.method !== 'string' || !FAST_METHODS.has(body.method)) return undefined;
  if (!(typeof body.id === 'number' || typeof body.id === 'string')) return undefined;
  for (const key in body) if (!REQUEST_MEMBERS.has(key)) return undefined;
  const params = body.params;
  if (params !== undefined && !isPlainObject(params)) return undefined;
  const headers = req.headers;
  if (headers['mcp-method'] !== body.method) return undefined;
  const nameField = NAME_FIELD[body.method];
  const name = nameField === undefined ? undefined : params?.[nameField];
  // Exactly the name in plain text (no Base64 sentinel, no padding): anything else the SDK decides.
  if (nameField === undefined ? headers['mcp-name'] !== undefined : typeof name !== 'string' || headers['mcp-name'] !== name || /[^\x21-\x7e]/.test(name)) return undefined;
  const meta = params?._meta;
  if (!isPlainObject(meta) || meta.progressToken !== undefined || meta[PROTOCOL_VERSION_KEY] !== FAST_REVISION) return undefined;
  return isJsonRpcRequest(body) && envelopeVerdicts.verdict(meta) ? body : undefined;
}

/**
 * Whether the SDK's classifier finds this 2026-07-28 envelope valid — asked
 * before anything else answers: the per-request path refuses a bad envelope
 * (400) before the auth gate's or the selection's own refusals (401, 403),
 * so the fast path must not answer such a request at all. The classifier
 * (with a body that is only the envelope) is asked once per distinct
 * envelope, and its verdict kept (`envelopeVerdicts.ts`).
 */
const envelopeVerdicts = new EnvelopeVerdicts(ENVELOPE_META_KEYS, (envelope) => {
  const outcome = classifyInboundRequest({
    httpMethod: 'POST',
    body: { jsonrpc: '2.0', id: 0, method: 'tools/list', params: { _meta: envelope } },
    protocolVersionHeader: FAST_REVISION,
    mcpMethodHeader: 'tools/list',
  });
  return outcome.kind === 'modern' && outcome.messageKind === 'request' && outcome.classification.revision === FAST_REVISION;
});

/**
 * The request when it is a 2025 stateless one the fast path serves as the
 * SDK's stateless transport would: a single request (no batch) of a served
 * method, valid by the SDK's JSON-RPC schema, with no member the transport's
 * parse would strip, no progress token, and what `classifyInboundRequest`
 * calls a 2025 request with no claim — no envelope claim in `_meta`, and no
 * `MCP-Protocol-Version` header naming a 2026-era revision (compared as the
 * SDK compares them). Decided directly, for the cost the 2026-07-28 check
 * above explains.
 */
function legacyMessage(body: unknown, req: IncomingMessage): JSONRPCRequest | undefined {
  if (!isPlainObject(body) || typeof body.method !== 'string' || !LEGACY_METHODS.has(body.method)) return undefined;
  for (const key in body) if (!REQUEST_MEMBERS.has(key)) return undefined;
  if (!isJsonRpcRequest(body)) return undefined;
  const meta = (body.params as { _meta?: unknown } | undefined)?._meta;
  if (meta !== undefined && (!isPlainObject(meta) || meta.progressToken !== undefined || PROTOCOL_VERSION_KEY in meta)) return undefined;
  const version = req.headers['mcp-protocol-version'];
  return version === undefined || version < FAST_REVISION ? body : undefined;
}

/** Whether the shared server answers this request as a per-request server would. */
function servable(blueprint: Blueprint, message: JSONRPCRequest): boolean {
  // A hook may register tools, resources or prompts on its server with scope challenges or header declarations the SDK acts on per request.
  if (blueprint.participants.some((p) => typeof p.extension.onServer === 'function')) return false;
  if (message.method !== 'tools/call') return true;
  const tool = blueprint.toolIndex.get(String((message.params as { name?: unknown }).name));
  // An unknown tool is the SDK's to refuse; a declared `x-mcp-header` its to check against the headers.
  return tool !== undefined && !declaresMcpHeaders(tool.input?.json);
}

const declared = new WeakMap<object, boolean>();
function declaresMcpHeaders(schema: object | undefined): boolean {
  if (!schema) return false;
  let known = declared.get(schema);
  if (known === undefined) declared.set(schema, (known = JSON.stringify(schema).includes('x-mcp-header')));
  return known;
}

/**
 * Delivers the request to the shared server and writes its answer; false
 * when the server refused it before any handler ran. A 2025 (`legacy`)
 * answer is an event stream, as the SDK's stateless transport sends it:
 * anything related first, then the answer, each a `message` event, and a
 * keep-alive comment while a slow handler works.
 */
function exchange(req: IncomingMessage, res: ServerResponse, lazy: LazyRequest, shared: SharedServer, message: JSONRPCRequest, authInfo: AuthInfo | undefined, listKey: string | undefined, legacy: boolean, deferAbort: boolean): Promise<boolean> {
  const request = lazy.request;
  return new Promise<boolean>((resolve) => {
    let streaming = false;
    let done = false;
    const stream = (): void => {
      if (!streaming) res.writeHead(200, SSE_HEADERS);
      streaming = true;
    };
    const keepAlive = legacy ? setInterval(() => (stream(), res.write(': keepalive\n\n')), SSE_KEEP_ALIVE_MS) : undefined;
    keepAlive?.unref();
    const finish = (): void => {
      done = true;
      if (keepAlive) clearInterval(keepAlive);
    };
    const outcome = shared.transport.exchange(
      message,
      { request, authInfo },
      {
        related(related: JSONRPCMessage) {
          stream();
          res.write(`event: message\ndata: ${JSON.stringify(related)}\n\n`);
        },
        answer(answer: JSONRPCMessage) {
          finish();
          const text = JSON.stringify(answer);
          const head = !streaming && listKey !== undefined && listKey.length <= MAX_ENCODED_KEY_CHARS && 'result' in answer && shared.encoded.size < MAX_ENCODED_LISTS ? headOf(text, message.id, legacy) : undefined;
          if (head) {
            // Params that change nothing (another cursor, more `_meta`) share the answer already kept: its bytes are kept once per server.
            const encoded = keptAnswer(shared.encoded, head) ?? new EncodedAnswer(head, legacy ? '}\n\n' : '}');
            shared.encoded.set(listKey!, encoded);
            turnEndWrites.add(res, () => writeEncoded(req, res, encoded, message.id, legacy));
          } else if (streaming) {
            turnEndWrites.add(res, () => res.end(`event: message\ndata: ${text}\n\n`));
          } else if (legacy) {
            // The one-event stream, whole: sent with its length, not chunked.
            turnEndWrites.add(res, () => {
              const event = `event: message\ndata: ${text}\n\n`;
              res.writeHead(200, sseHeadersWithLength(Buffer.byteLength(event)));
              res.end(event);
            });
          } else {
            const status = 'error' in answer && answer.error.code === MISSING_CLIENT_CAPABILITY ? 400 : 200;
            // Written as text: Node sends the head and a string body in one write, with no Buffer made for it.
            turnEndWrites.add(res, () => {
              res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
              res.end(text);
            });
          }
          resolve(true);
        },
        closed() {
          finish();
          // As the per-request paths: a 2026-07-28 exchange closed before its answer is answered 499 with no body; a 2025 stream just ends.
          if (streaming) res.end();
          else if (legacy) res.writeHead(200, SSE_HEADERS).end();
          else res.writeHead(499).end();
          resolve(true);
        },
      },
      shared.abort,
      deferAbort,
    );
    if (outcome.kind === 'refused') {
      finish();
      return resolve(false);
    }
    // `on`, not `once`: a response emits 'close' once (Node marks it closed first), and `once` wraps each listener per request.
    res.on('close', () => {
      if (done) return;
      finish();
      lazy.gone();
      outcome.cancel();
      resolve(true);
    });
  });
}

/** The encoded answer already kept with these bytes, if any. */
function keptAnswer(encoded: ReadonlyMap<string, EncodedAnswer>, head: Buffer): EncodedAnswer | undefined {
  for (const kept of encoded.values()) if (kept.head.equals(head)) return kept;
  return undefined;
}

/**
 * An answer's bytes without its id: `{"result":…,"jsonrpc":"2.0","id":` —
 * the id and `}` are added per request; for a 2025 answer, inside its event.
 */
function headOf(text: string, id: string | number, legacy: boolean): Buffer | undefined {
  const tail = `${JSON.stringify(id)}}`;
  if (!text.endsWith(`"id":${tail}`)) return undefined;
  const head = text.slice(0, -tail.length);
  return Buffer.from(legacy ? `event: message\ndata: ${head}` : head);
}

/**
 * Writes an encoded answer, compressed when it is large and the client
 * accepts gzip or Brotli. A 2025 answer is an event stream, sent plain: some
 * event-stream readers do not decode a compressed stream.
 */
function writeEncoded(req: IncomingMessage, res: ServerResponse, encoded: EncodedAnswer, id: string | number, legacy: boolean): void {
  if (legacy) {
    const [head, tail] = encoded.chunks(id, undefined) as [Buffer, Buffer];
    // The whole stream is known: sent with its length, not chunked (framing is not the answer).
    res.writeHead(200, sseHeadersWithLength(head.length + tail.length));
    res.write(head);
    res.end(tail);
    return;
  }
  const large = encoded.head.length >= COMPRESS_MIN_BYTES;
  const encoding = large ? acceptedEncoding(req.headers['accept-encoding']) : undefined;
  const chunks = encoded.chunks(id, encoding);
  const headers: Record<string, string | number> = { 'content-type': 'application/json', 'content-length': chunks.reduce((n, c) => n + c.length, 0) };
  if (large) headers.vary = 'Accept-Encoding';
  if (encoding) headers['content-encoding'] = encoding;
  res.writeHead(200, headers);
  for (const chunk of chunks.slice(0, -1)) res.write(chunk);
  res.end(chunks.at(-1));
}
