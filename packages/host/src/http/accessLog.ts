/**
 * The access log: one `info` line per HTTP request, written when the response
 * closes. What it carries is chosen, never copied wholesale: no header but
 * `Mcp-Method`/`Mcp-Name`, no query string (a proxy may put a token there),
 * no body — so tokens, arguments and results never reach the log.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Logger } from '../logger.js';
import type { RequestRecord } from '../telemetry/requestRecord.js';

/** Header values longer than this are cut: a client chooses them. */
const MAX_HEADER_CHARS = 200;

/** The W3C trace context headers a request span may continue. */
function traceHeadersOf(req: IncomingMessage): Record<string, string> | undefined {
  const traceparent = req.headers.traceparent;
  if (typeof traceparent !== 'string') return undefined;
  const tracestate = req.headers.tracestate;
  return typeof tracestate === 'string' ? { traceparent, tracestate } : { traceparent };
}

function header(req: IncomingMessage, name: string): string | undefined {
  const value = req.headers[name];
  return typeof value === 'string' ? value.slice(0, MAX_HEADER_CHARS) : undefined;
}

/** Starts the record of one request; its line is logged when `res` closes. */
export function startAccessLog(req: IncomingMessage, res: ServerResponse, logger: Logger, nodeId: string | undefined): RequestRecord {
  const record: RequestRecord = { traceHeaders: traceHeadersOf(req), transport: 'tcp' };
  const started = performance.now();
  res.once('close', () => {
    const durationMs = Math.round((performance.now() - started) * 100) / 100;
    const method = req.method ?? 'GET';
    // The path only: the query string may carry a proxy's token.
    const target = (req.url ?? '/').split('?')[0];
    const status = res.headersSent ? res.statusCode : 0;
    const fields: Record<string, unknown> = { method, target, status, durationMs };
    if (record.toolsets !== undefined) fields.toolsets = record.toolsets;
    const mcpMethod = header(req, 'mcp-method');
    const mcpName = header(req, 'mcp-name');
    if (mcpMethod !== undefined) fields.mcpMethod = mcpMethod;
    if (mcpName !== undefined) fields.mcpName = mcpName;
    if (nodeId !== undefined) fields.node = nodeId;
    if (record.traceId !== undefined) {
      fields.trace_id = record.traceId;
      fields.span_id = record.spanId;
    }
    logger.info(fields, `${method} ${target} ${status} ${durationMs} ms`);
  });
  return record;
}
