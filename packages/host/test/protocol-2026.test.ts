/**
 * The 2026-07-28 protocol end to end, over real HTTP with raw requests (the
 * wire is what is specified): input-required results through stacked tool
 * extensions and from a prompt, with a signed `requestState` that cannot be
 * altered; listen streams that hear what the host changes; and, for 2025
 * sessions, resumable streams that never replay another session's events.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  acceptedContent,
  buildHost,
  createMcpApp,
  defineExtension,
  defineTool,
  inputRequired,
  isInputRequiredResult,
  silentLogger,
  type McpExtension,
  type McpHost,
} from '../src/index.js';
import { initializeBody, listen, messagesOf, post, type Listening } from './helpers/http.js';
import { memoryEventStore } from './helpers/memoryEventStore.js';
import { readSse } from './helpers/sse.js';

const META = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientCapabilities': { elicitation: {} },
  'io.modelcontextprotocol/clientInfo': { name: 'raw-2026', version: '1.0.0' },
};
const KEY = 'a-test-request-state-key-of-more-than-32-bytes';

/** One raw 2026-07-28 request; answers the JSON-RPC response message. */
async function call(url: URL, method: string, params: Record<string, unknown>, name?: string): Promise<Record<string, unknown>> {
  const response = await post(url, { jsonrpc: '2.0', id: 1, method, params: { ...params, _meta: META } }, {
    'mcp-protocol-version': '2026-07-28',
    'mcp-method': method,
    ...(name !== undefined ? { 'mcp-name': name } : {}),
  });
  const messages = await messagesOf(response);
  const answer = messages.find((m) => 'result' in m || 'error' in m);
  if (!answer) throw new Error(`no response to ${method} (HTTP ${response.status})`);
  return answer;
}

const resultOf = (message: Record<string, unknown>) => message['result'] as Record<string, unknown>;

/** What each wrapper saw come back from the handler it wraps, outermost last. */
let seen: string[] = [];

const deleter = defineExtension({
  manifest: { name: 'deleter', version: '1.0.0' },
  tools: () => [
    defineTool({
      name: 'delete_item',
      description: 'Deletes an item once the user confirms.',
      inputSchema: { id: z.string() },
      // An output schema, to show projection is skipped for an input-required result.
      outputSchema: { deleted: z.string() },
      handler: ({ id }, ctx) => {
        const confirmed = acceptedContent<{ ok?: boolean }>(ctx.mcpReq.inputResponses, 'confirm');
        if (ctx.mcpReq.requestState() !== `delete:${id}` || confirmed?.ok !== true) {
          return inputRequired({
            inputRequests: { confirm: inputRequired.elicit({ message: `Delete ${id}?`, requestedSchema: { type: 'object', properties: { ok: { type: 'boolean' } }, required: ['ok'] } }) },
            requestState: `delete:${id}`,
          });
        }
        return { deleted: id };
      },
    }),
  ],
  resources: () => [{ name: 'watched', uri: 'test://watched', subscribe: true, read: (uri) => ({ contents: [{ uri: uri.href, text: 'now' }] }) }],
  prompts: () => [
    {
      name: 'summarize',
      description: 'Asks what to focus on first.',
      get: (_args, ctx) => {
        const focus = acceptedContent<{ focus?: string }>(ctx.mcpReq.inputResponses, 'focus')?.focus;
        if (focus === undefined || ctx.mcpReq.requestState() !== 'asked-focus') {
          return inputRequired({
            inputRequests: { focus: inputRequired.elicit({ message: 'Focus on?', requestedSchema: { type: 'object', properties: { focus: { type: 'string' } }, required: ['focus'] } }) },
            requestState: 'asked-focus',
          });
        }
        return { messages: [{ role: 'user', content: { type: 'text', text: `Summarize, focusing on ${focus}.` } }] };
      },
    },
  ],
});

/** A tool extension that records what it saw and passes it on. */
function observer(name: string, order: number): McpExtension {
  return defineExtension({
    manifest: { name, version: '1.0.0', dependencies: ['deleter'] },
    toolsets: () => [{ name, description: 'Observes delete_item.' }],
    toolExtensions: () => [
      [
        'delete_item',
        {
          order,
          wrap: (original) => async (args, ctx) => {
            const result = await original(args, ctx);
            seen.push(`${name}:${isInputRequiredResult(result) ? 'input_required' : 'complete'}`);
            return result;
          },
        },
      ],
    ],
  });
}

let host: McpHost | undefined;
let served: Listening | undefined;
afterEach(async () => {
  await served?.close();
  await host?.stop();
  served = undefined;
  host = undefined;
  seen = [];
});

async function serve(options: Parameters<typeof createMcpApp>[1] = {}, requestStateKey = KEY): Promise<URL> {
  host = await buildHost([deleter, observer('audit', 1), observer('guard', 2)], { logger: silentLogger, strict: true, requestStateKey });
  served = await listen(createMcpApp(host, options));
  return served.url('/mcp');
}

describe('input-required results (2026-07-28)', () => {
  it('reach the client unchanged through two stacked tool extensions, with the requestState signed, and complete on the retry', async () => {
    const url = await serve();
    const first = resultOf(await call(url, 'tools/call', { name: 'delete_item', arguments: { id: '42' } }, 'delete_item'));
    expect(first['resultType']).toBe('input_required');
    expect(first['structuredContent']).toBeUndefined(); // not projected through the output schema
    expect(first['isError']).toBeUndefined();
    expect(Object.keys(first['inputRequests'] as object)).toEqual(['confirm']);
    const state = first['requestState'] as string;
    expect(state).not.toBe('delete:42'); // sealed by the host, not the handler's own string
    expect(state.startsWith('v1.')).toBe(true);
    // Both wrappers saw the input-required result, innermost first, and passed it on.
    expect(seen).toEqual(['audit:input_required', 'guard:input_required']);

    const second = resultOf(
      await call(url, 'tools/call', { name: 'delete_item', arguments: { id: '42' }, inputResponses: { confirm: { action: 'accept', content: { ok: true } } }, requestState: state }, 'delete_item'),
    );
    expect(second['structuredContent']).toEqual({ deleted: '42' });
    expect(second['isError']).toBeUndefined();
    expect(seen.slice(2)).toEqual(['audit:complete', 'guard:complete']);
  });

  it('work for a prompt: prompts/get answers input_required, then the prompt', async () => {
    const url = await serve();
    const first = resultOf(await call(url, 'prompts/get', { name: 'summarize' }, 'summarize'));
    expect(first['resultType']).toBe('input_required');
    const second = resultOf(
      await call(url, 'prompts/get', { name: 'summarize', inputResponses: { focus: { action: 'accept', content: { focus: 'costs' } } }, requestState: first['requestState'] }, 'summarize'),
    );
    expect(second['messages']).toEqual([{ role: 'user', content: { type: 'text', text: 'Summarize, focusing on costs.' } }]);
  });

  it('refuse a tampered requestState, one minted for another request, and one signed with another key, with -32602', async () => {
    const url = await serve();
    const first = resultOf(await call(url, 'tools/call', { name: 'delete_item', arguments: { id: '42' } }, 'delete_item'));
    const state = first['requestState'] as string;
    const [version, body, mac] = state.split('.') as [string, string, string];
    // Re-encode the body with another id: the MAC no longer matches.
    const decoded = JSON.parse(Buffer.from(body, 'base64url').toString('utf8')) as { p: { s: string } };
    decoded.p.s = 'delete:43';
    const forged = `${version}.${Buffer.from(JSON.stringify(decoded)).toString('base64url')}.${mac}`;
    const promptState = resultOf(await call(url, 'prompts/get', { name: 'summarize' }, 'summarize'))['requestState'];
    const retry = (requestState: unknown) =>
      call(url, 'tools/call', { name: 'delete_item', arguments: { id: '43' }, inputResponses: { confirm: { action: 'accept', content: { ok: true } } }, requestState }, 'delete_item');

    for (const requestState of [forged, promptState, `${state}x`]) {
      const refused = await retry(requestState);
      expect(refused['error']).toMatchObject({ code: -32602, message: 'Invalid or expired requestState' });
    }
    expect(seen.filter((s) => s.endsWith('complete'))).toEqual([]); // no handler ran on a refused state

    // A replica with another key cannot read this one's state: replicas need a shared key.
    await served?.close();
    await host?.stop();
    const other = await serve({}, 'another-key-of-more-than-32-bytes-for-replica-2');
    expect((await call(other, 'tools/call', { name: 'delete_item', arguments: { id: '42' }, requestState: state }, 'delete_item'))['error']).toMatchObject({ code: -32602 });
  });
});

describe('requestState is bound to the selection it was minted for', () => {
  it('refuses a state minted under one selection when echoed under another (-32602), and accepts it under the same one however written', async () => {
    const url = await serve();
    const first = resultOf(await call(url, 'tools/call', { name: 'delete_item', arguments: { id: '42' } }, 'delete_item'));
    const state = first['requestState'] as string;
    const retry = async (at: URL) =>
      await call(at, 'tools/call', { name: 'delete_item', arguments: { id: '42' }, inputResponses: { confirm: { action: 'accept', content: { ok: true } } }, requestState: state }, 'delete_item');
    // The tool is served in both, but without the audit wrapper: another surface, another state.
    const elsewhere = new URL(url);
    elsewhere.search = '?without=audit';
    expect((await retry(elsewhere))['error']).toMatchObject({ code: -32602, message: 'Invalid or expired requestState' });
    // A narrower tool filter is another selection too.
    const narrowed = new URL(url);
    narrowed.search = '?tools=delete_item';
    expect((await retry(narrowed))['error']).toMatchObject({ code: -32602 });
    expect(seen.filter((s) => s.endsWith('complete'))).toEqual([]);
    // The same active set written another way is the same selection.
    const same = new URL(url);
    same.search = '?audit,guard';
    expect(resultOf(await retry(same))['structuredContent']).toEqual({ deleted: '42' });
  });
});

describe('listen streams (2026-07-28)', () => {
  it('advertise listChanged in server/discover and hear toolsListChanged after host.disable()', async () => {
    const url = await serve();
    const discovered = resultOf(await call(url, 'server/discover', {}));
    expect(discovered['capabilities']).toMatchObject({ tools: { listChanged: true }, prompts: { listChanged: true } });

    const abort = new AbortController();
    const response = await post(url, { jsonrpc: '2.0', id: 7, method: 'subscriptions/listen', params: { notifications: { toolsListChanged: true }, _meta: META } }, {
      'mcp-protocol-version': '2026-07-28',
      'mcp-method': 'subscriptions/listen',
    });
    const stream = readSse(response, abort.signal);
    expect((await stream.next()).method).toBe('notifications/subscriptions/acknowledged');
    await host?.disable('guard');
    const change = await stream.next();
    expect(change.method).toBe('notifications/tools/list_changed');
    abort.abort();
  });

  it('hear resource_updated from host.notifyResourceUpdated for a subscribed URI', async () => {
    const url = await serve();
    const response = await post(url, { jsonrpc: '2.0', id: 8, method: 'subscriptions/listen', params: { notifications: { resourceSubscriptions: ['test://watched'] }, _meta: META } }, {
      'mcp-protocol-version': '2026-07-28',
      'mcp-method': 'subscriptions/listen',
    });
    const abort = new AbortController();
    const stream = readSse(response, abort.signal);
    await stream.next(); // the acknowledgement
    await host?.notifyResourceUpdated('test://other'); // not subscribed: filtered out
    await host?.notifyResourceUpdated('test://watched');
    const updated = await stream.next();
    expect(updated).toMatchObject({ method: 'notifications/resources/updated', params: { uri: 'test://watched' } });
    abort.abort();
  });
});

describe('resumable 2025 sessions share one event store', () => {
  it("refuse a Last-Event-ID from another session (400) and replay a session's own", async () => {
    const url = await serve({ eventStore: memoryEventStore(), sessions: true });
    const open = async () => {
      const response = await post(url, initializeBody());
      const id = response.headers.get('mcp-session-id');
      if (!id) throw new Error('no session id');
      await response.text();
      const headers = { 'mcp-session-id': id, 'mcp-protocol-version': '2025-11-25' };
      await post(url, { jsonrpc: '2.0', method: 'notifications/initialized' }, headers);
      return headers;
    };
    const a = await open();
    const b = await open();
    // A's call answers over SSE; with an event store, each event carries an id.
    const called = await post(url, { jsonrpc: '2.0', id: 2, method: 'tools/list' }, a);
    const eventId = /^id: (.+)$/m.exec(await called.text())?.[1];
    expect(eventId).toBeDefined();
    expect(eventId?.startsWith(a['mcp-session-id'])).toBe(true);

    const replay = (headers: Record<string, string>, lastEventId: string) =>
      fetch(url, { method: 'GET', headers: { ...headers, accept: 'text/event-stream', 'last-event-id': lastEventId } });
    const foreign = await replay(b, eventId ?? '');
    expect(foreign.status).toBe(400);
    await foreign.body?.cancel();
    // The same id with B's prefix put in front is still A's event underneath: refused too.
    const disguised = await replay(b, `${b['mcp-session-id']}~${(eventId ?? '').slice(a['mcp-session-id'].length + 1)}`);
    expect(disguised.status).toBe(400);
    await disguised.body?.cancel();
    const own = await replay(a, eventId ?? '');
    expect(own.status).toBe(200);
    await own.body?.cancel();
  });
});
