/**
 * The access log: one `info` line per HTTP request, written when the response
 * closes. What it carries is chosen, never copied wholesale: no header but
 * `Mcp-Method`/`Mcp-Name`, no query string (a proxy may put a token there),
 * no body — so tokens, arguments and results never reach the log, unless the
 * app's `logPayloads` (a debugging flag) adds the request and response bodies,
 * cut at {@link MAX_PAYLOAD_CHARS}; tokens and the query string stay out even then.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { infoLineWriterOf, type Logger } from '../../kernel/logger.js';
import type { RequestRecord } from '../../telemetry/requestRecord.js';

/** Header values longer than this are cut: a client chooses them. */
const MAX_HEADER_CHARS = 200;
/** With `logPayloads`, each body is logged up to this many characters (then `…[cut]`). */
export const MAX_PAYLOAD_CHARS = 16 * 1024;

/** The W3C trace context headers a request span may continue. */
function traceHeadersOf(req: IncomingMessage): Record<string, string> | undefined {
  const traceparent = req.headers.traceparent;
  if (typeof traceparent !== 'string') return undefined;
  const tracestate = req.headers.tracestate;
  return typeof tracestate === 'string' ? { traceparent, tracestate } : { traceparent };
}

function capped(value: string): string {
  return value.length > MAX_HEADER_CHARS ? value.slice(0, MAX_HEADER_CHARS) : value;
}

/** The request target's path: the query string may carry a proxy's token, so it never reaches the log. */
function pathOf(url: string | undefined): string {
  if (url === undefined) return '/';
  const query = url.indexOf('?');
  return query < 0 ? url : url.slice(0, query);
}

/** What an access line carries (with `logPayloads`, the bodies too). */
type AccessFields = {
  method: string;
  target: string;
  status: number;
  durationMs: number;
  toolsets?: string;
  mcpMethod?: string;
  mcpName?: string;
  node?: string;
  trace_id?: string;
  span_id?: string | undefined;
  request?: string;
  response?: string;
};

function cut(text: string): string {
  return text.length > MAX_PAYLOAD_CHARS ? `${text.slice(0, MAX_PAYLOAD_CHARS)}…[cut]` : text;
}

/** Keeps the first {@link MAX_PAYLOAD_CHARS} characters of what is written to `res` (bodies of any framing: JSON or SSE). */
function captureResponse(res: ServerResponse): () => string {
  const chunks: string[] = [];
  let kept = 0;
  const keep = (chunk: unknown, encoding: unknown) => {
    if (kept > MAX_PAYLOAD_CHARS || chunk === undefined || chunk === null || typeof chunk === 'function') return;
    const text = typeof chunk === 'string' ? chunk : Buffer.isBuffer(chunk) || chunk instanceof Uint8Array ? Buffer.from(chunk).toString(typeof encoding === 'string' ? (encoding as BufferEncoding) : 'utf8') : '';
    chunks.push(text);
    kept += text.length;
  };
  const write = res.write.bind(res) as (...args: unknown[]) => boolean;
  const end = res.end.bind(res) as (...args: unknown[]) => ServerResponse;
  res.write = ((...args: unknown[]) => (keep(args[0], args[1]), write(...args))) as ServerResponse['write'];
  res.end = ((...args: unknown[]) => (keep(args[0], args[1]), end(...args))) as ServerResponse['end'];
  return () => cut(chunks.join(''));
}

/** Whether `logger` would write the access log's `info` lines (a logger that cannot say is taken to). */
export function writesAccessLines(logger: Logger): boolean {
  return logger.isLevelEnabled?.('info') !== false;
}

/**
 * The record of an HTTP request: the trace context its headers carry, over
 * TCP. Alone (no listener on the response), it is what spans need of a
 * request whose access line will not be written (the log is off, or its
 * logger writes no `info`); {@link startAccessLog} starts from it.
 */
export function httpRequestRecord(req: IncomingMessage): RequestRecord {
  return { traceHeaders: traceHeadersOf(req), transport: 'tcp' };
}

/**
 * Starts the record of one request; its line is logged when `res` closes.
 * With `payloads` (the app's `logPayloads`), the line also carries the bodies.
 */
export function startAccessLog(req: IncomingMessage, res: ServerResponse, logger: Logger, nodeId: string | undefined, payloads = false): RequestRecord {
  let requestBody: string | undefined;
  const record: RequestRecord = payloads
    ? { ...httpRequestRecord(req), receivedBody: (body: unknown) => void (requestBody = body === undefined ? undefined : cut(JSON.stringify(body))) }
    : httpRequestRecord(req);
  const responseBody = payloads ? captureResponse(res) : undefined;
  const started = performance.now();
  // The logger's fast way to write this fixed-shape line, if it has one (the command's does): the same line as `info`'s.
  const writeLine = infoLineWriterOf(logger);
  // `on`, not `once`: a response emits 'close' once, and `once` would wrap the listener on every request.
  res.on('close', () => {
    const durationMs = Math.round((performance.now() - started) * 100) / 100;
    const method = req.method ?? 'GET';
    // The path is the client's choice too (up to the header size limit): capped like a header.
    const target = capped(pathOf(req.url));
    const status = res.headersSent ? res.statusCode : 0;
    // One object of one shape, its optional fields filled only when present: pino serializes it as it stands.
    const fields: AccessFields = { method, target, status, durationMs };
    if (record.toolsets !== undefined) fields.toolsets = record.toolsets;
    const { 'mcp-method': mcpMethod, 'mcp-name': mcpName } = req.headers;
    if (typeof mcpMethod === 'string') fields.mcpMethod = capped(mcpMethod);
    if (typeof mcpName === 'string') fields.mcpName = capped(mcpName);
    if (nodeId !== undefined) fields.node = nodeId;
    if (record.traceId !== undefined) {
      fields.trace_id = record.traceId;
      fields.span_id = record.spanId;
    }
    if (requestBody !== undefined) fields.request = requestBody;
    if (responseBody !== undefined) fields.response = responseBody();
    const msg = `${method} ${target} ${status} ${durationMs} ms`;
    if (writeLine) writeLine.call(logger, fields, msg);
    else logger.info(fields, msg);
  });
  return record;
}
