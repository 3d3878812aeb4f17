/**
 * The tasks client of `@modelcontextprotocol/ext-tasks` (a client nobody here
 * wrote) on a real SDK v2 client, connected over HTTP with the 2026-07-28
 * protocol — wired the way its "Adapters and schemas" page documents for a
 * 2026-07-28 server: the SDK client's wire codecs refuse task traffic
 * (`resultType: "task"`, `tasks/*`), so the session needs a **raw request
 * coordinator** (`rawDispatch`: it owns the request ids and matches the
 * responses) and the **framing** the SDK client sends with every modern
 * request (`v2RequestFraming`: protocol version, client info, client
 * capabilities — the adapter adds the tasks extension to the capabilities,
 * which is the per-request opt-in).
 *
 * The coordinator is a plain Streamable HTTP POST per request, with the
 * routing headers the specification asks for (`Mcp-Method`, and `Mcp-Name`:
 * the tool's name on `tools/call`, the task id on `tasks/*`), reading the
 * answer whether it comes as JSON or as an SSE stream.
 */
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { createTaskSessionFromClient, type CreateTaskSessionFromClientOptions, type RawClientDispatch } from '@modelcontextprotocol/ext-tasks/client';

const PROTOCOL_VERSION = '2026-07-28';

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type JsonObject = { [key: string]: Json };

const isObject = (value: unknown): value is JsonObject => typeof value === 'object' && value !== null && !Array.isArray(value);

/** The JSON-RPC messages of an HTTP answer, whether JSON or SSE. */
async function messagesOf(response: Response): Promise<JsonObject[]> {
  const text = await response.text();
  if ((response.headers.get('content-type') ?? '').includes('text/event-stream')) {
    return text
      .split('\n')
      .filter((line) => line.startsWith('data:') && line.slice(5).trim() !== '')
      .map((line) => JSON.parse(line.slice(5)) as JsonObject);
  }
  return text === '' ? [] : [JSON.parse(text) as JsonObject];
}

/** One request id space per coordinator, so responses match their requests. */
export function httpRequestCoordinator(url: URL, headers: Record<string, string> = {}): { dispatch: RawClientDispatch; sent: Array<{ method: string; name: string | undefined }> } {
  let nextId = 1;
  const sent: Array<{ method: string; name: string | undefined }> = [];
  const dispatch: RawClientDispatch = async (request, options) => {
    if (!isObject(request) || typeof request['method'] !== 'string') throw new TypeError('a JSON-RPC request object with a method');
    const method = request['method'];
    const params = isObject(request['params']) ? request['params'] : {};
    const name = method === 'tools/call' ? params['name'] : method.startsWith('tasks/') ? params['taskId'] : undefined;
    const id = nextId++;
    sent.push({ method, name: typeof name === 'string' ? name : undefined });
    const sentHeaders = new Headers({ 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': PROTOCOL_VERSION, 'mcp-method': method });
    if (typeof name === 'string') sentHeaders.set('mcp-name', name);
    // Headers are case-insensitive: the session's own (it sets Mcp-Name on task follow-ups too) replace ours, never join them.
    for (const [key, value] of Object.entries({ ...headers, ...(options?.context?.headers ?? {}) })) sentHeaders.set(key, value);
    const response = await fetch(url, {
      method: 'POST',
      headers: sentHeaders,
      body: JSON.stringify({ ...request, jsonrpc: '2.0', id }),
      ...(options?.signal !== undefined ? { signal: options.signal } : {}),
    });
    const answer = (await messagesOf(response)).find((m) => m['id'] === id && ('result' in m || 'error' in m));
    if (answer === undefined) throw new Error(`no JSON-RPC answer to ${method} (HTTP ${response.status})`);
    if (isObject(answer['error'])) {
      const error = answer['error'];
      const message = typeof error['message'] === 'string' ? error['message'] : `JSON-RPC error ${JSON.stringify(error['code'])}`;
      return { kind: 'error', error: { code: Number(error['code']), message, ...(error['data'] !== undefined ? { data: error['data'] } : {}) } };
    }
    return { kind: 'result', result: answer['result'] ?? null };
  };
  return { dispatch, sent };
}

/** What the e2e tests hold: the SDK client, the ext-tasks session on it, and the requests it sent raw. */
export interface TasksClient {
  readonly client: Client;
  readonly session: ReturnType<typeof createTaskSessionFromClient>;
  readonly sent: Array<{ method: string; name: string | undefined }>;
  close(): Promise<void>;
}

/** Connects a v2 client to `url` with the 2026-07-28 protocol and opens an ext-tasks session on it. */
export async function connectTasksClient(url: URL, name: string, options: Omit<CreateTaskSessionFromClientOptions, 'endpointId' | 'rawDispatch' | 'v2RequestFraming'> = {}): Promise<TasksClient> {
  const clientInfo = { name, version: '1.0.0' };
  const clientCapabilities = { elicitation: { form: {} } };
  const client = new Client(clientInfo, { capabilities: clientCapabilities, versionNegotiation: { mode: { pin: PROTOCOL_VERSION } } });
  await client.connect(new StreamableHTTPClientTransport(url));
  if (client.getProtocolEra() !== 'modern') throw new Error(`the client did not negotiate ${PROTOCOL_VERSION} (era ${String(client.getProtocolEra())})`);
  const coordinator = httpRequestCoordinator(url);
  const session = createTaskSessionFromClient(client, {
    ...options,
    endpointId: url.href,
    rawDispatch: coordinator.dispatch,
    v2RequestFraming: { protocolVersion: PROTOCOL_VERSION, clientInfo, clientCapabilities },
  });
  return {
    client,
    session,
    sent: coordinator.sent,
    close: async () => {
      await session.close();
      await client.close();
    },
  };
}
