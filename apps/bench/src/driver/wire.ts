/**
 * The requests the driver sends, as raw JSON-RPC over HTTP, for each way of
 * talking to a server — 2025 stateless, 2025 on a session, 2026-07-28 — and
 * the checks on the answers (right tool count, right call result).
 */
import { CALL_ARGS, answer, toolName } from '../catalogue.js';

/** How a request reaches the server. */
export type Era = '2025-stateless' | '2025-session' | '2026';

/** The method a scenario exercises. */
export type Method = 'tools/list' | 'tools/call';

/** The 2025 protocol version the driver speaks. */
export const LEGACY_VERSION = '2025-11-25';
/** The 2026 protocol version. */
export const MODERN_VERSION = '2026-07-28';

/** One request, ready to send. */
export interface WireRequest {
  readonly headers: Record<string, string>;
  readonly body: string;
}

const MODERN_META = `"_meta":{"io.modelcontextprotocol/protocolVersion":"${MODERN_VERSION}","io.modelcontextprotocol/clientCapabilities":{}}`;

/** The tool a scenario calls: the last one, so a linear lookup would show. */
export const calledTool = (tools: number): string => toolName(tools - 1);

/** Builds request `id` of a scenario. `sessionId` is needed for `2025-session`. */
export function wireRequest(era: Era, method: Method, tools: number, id: number, sessionId?: string): WireRequest {
  const name = calledTool(tools);
  const headers: Record<string, string> = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
  let params = method === 'tools/call' ? `"name":"${name}","arguments":${JSON.stringify(CALL_ARGS)}` : '';
  if (era === '2026') {
    headers['mcp-protocol-version'] = MODERN_VERSION;
    headers['mcp-method'] = method;
    if (method === 'tools/call') headers['mcp-name'] = name;
    params = params === '' ? MODERN_META : `${params},${MODERN_META}`;
  } else {
    headers['mcp-protocol-version'] = LEGACY_VERSION;
    if (era === '2025-session') {
      if (sessionId === undefined) throw new Error('a 2025 session request needs the session id');
      headers['mcp-session-id'] = sessionId;
    }
  }
  return { headers, body: `{"jsonrpc":"2.0","id":${id},"method":"${method}","params":{${params}}}` };
}

/** The `initialize` that opens a 2025 session, and the notification that completes it. */
export function initializeRequests(): { initialize: WireRequest; initialized: (sessionId: string) => WireRequest } {
  const headers = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
  return {
    initialize: {
      headers,
      body: JSON.stringify({ jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: LEGACY_VERSION, capabilities: {}, clientInfo: { name: 'reactor-bench', version: '1.0.0' } } }),
    },
    initialized: (sessionId) => ({
      headers: { ...headers, 'mcp-protocol-version': LEGACY_VERSION, 'mcp-session-id': sessionId },
      body: '{"jsonrpc":"2.0","method":"notifications/initialized"}',
    }),
  };
}

/** The JSON-RPC message in a response body: plain JSON, or the `data:` of an SSE `message` event. */
export function messageOf(body: string, contentType: string | undefined): unknown {
  if (contentType?.includes('text/event-stream')) {
    for (const line of body.split('\n')) {
      if (line.startsWith('data:')) {
        const data = line.slice(5).trim();
        if (data !== '') return JSON.parse(data) as unknown;
      }
    }
    throw new Error(`an SSE response carried no data: ${body.slice(0, 200)}`);
  }
  return JSON.parse(body) as unknown;
}

/**
 * Checks one answer: HTTP 200, the JSON-RPC id asked, and for `tools/list`
 * every tool in order, for `tools/call` the handler's text. Throws with what
 * was wrong.
 */
export function checkAnswer(method: Method, tools: number, id: number, status: number, body: string, contentType: string | undefined): void {
  if (status !== 200) throw new Error(`HTTP ${status}: ${body.slice(0, 300)}`);
  const message = messageOf(body, contentType) as { id?: unknown; result?: Record<string, unknown>; error?: unknown };
  if (message.id !== id) throw new Error(`answer to id ${String(message.id)}, expected ${id}`);
  if (!message.result) throw new Error(`no result: ${JSON.stringify(message.error ?? message).slice(0, 300)}`);
  if (method === 'tools/list') {
    const list = message.result.tools as Array<{ name?: unknown; inputSchema?: { properties?: Record<string, unknown> } }> | undefined;
    if (!Array.isArray(list) || list.length !== tools) throw new Error(`tools/list answered ${Array.isArray(list) ? list.length : 'no'} tools, expected ${tools}`);
    if (list[0]?.name !== toolName(0) || list[tools - 1]?.name !== toolName(tools - 1)) throw new Error('tools/list answered the tools in another order or by other names');
    if (!list[tools - 1]?.inputSchema?.properties?.query) throw new Error('tools/list answered a tool without its input schema');
    return;
  }
  const content = message.result.content as Array<{ type?: unknown; text?: unknown }> | undefined;
  const expected = answer(calledTool(tools), CALL_ARGS);
  if (message.result.isError === true || content?.[0]?.text !== expected) {
    throw new Error(`tools/call answered ${JSON.stringify(message.result).slice(0, 300)}, expected the text "${expected}"`);
  }
}
