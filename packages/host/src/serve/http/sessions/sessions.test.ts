import { McpServer } from '@modelcontextprotocol/server';
import { describe, expect, it } from 'vitest';
import { silentLogger } from '../../../kernel/logger.js';
import type { SessionOwner } from './sessionRegistry.js';
import { SessionStore } from './sessions.js';

const HEADERS = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
const initialize = { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 't', version: '1' } } };
const acme: SessionOwner = { tenant: 'acme', principal: 'alice' };

function mint(): Promise<McpServer> {
  return Promise.resolve(new McpServer({ name: 'unit', version: '1.0.0' }, { capabilities: { tools: {} } }));
}

async function open(store: SessionStore, body: unknown = initialize, owner: SessionOwner = acme): Promise<Response> {
  const request = new Request('http://localhost/mcp', { method: 'POST', headers: HEADERS, body: JSON.stringify(body) });
  const response = await store.open({ owner, toolsets: new Set(['spaces']), recipe: { selection: 'toolsets=spaces', denied: [], readOnly: false }, mint, request, parsedBody: body, authInfo: undefined });
  await response.text();
  return response;
}

describe('SessionStore', () => {
  it('opens a session on initialize and finds it for its owner only', async () => {
    const store = new SessionStore({}, {}, silentLogger);
    const response = await open(store);
    const id = response.headers.get('mcp-session-id')!;
    expect(response.status).toBe(200);
    expect(store.size).toBe(1);
    expect(store.find(id, acme)).toBeDefined();
    expect(store.find(id, { tenant: 'acme', principal: 'bob' })).toBeUndefined();
    expect(store.find(id, { tenant: 'globex', principal: 'alice' })).toBeUndefined();
    expect(store.find('other', acme)).toBeUndefined();
    await store.close();
  });

  it('leaves nothing behind when the SDK refuses a malformed initialize', async () => {
    const store = new SessionStore({}, {}, silentLogger);
    const response = await open(store, { jsonrpc: '2.0', id: 1, method: 'initialize' });
    expect(response.status).toBe(400);
    expect(store.size).toBe(0);
  });

  it('refuses with 503 at the cap, building nothing', async () => {
    const store = new SessionStore({ max: 1 }, {}, silentLogger);
    await open(store);
    let minted = 0;
    const request = new Request('http://localhost/mcp', { method: 'POST', headers: HEADERS, body: JSON.stringify(initialize) });
    const refused = await store.open({ owner: acme, toolsets: new Set(['spaces']), recipe: { selection: '', denied: [], readOnly: false }, mint: () => (minted++, mint()), request, parsedBody: initialize, authInfo: undefined });
    expect(refused.status).toBe(503);
    expect(refused.headers.get('retry-after')).toBe('30');
    expect(minted).toBe(0);
    await store.close();
  });

  it('counts a request in flight until its exchange finishes', async () => {
    const store = new SessionStore({}, {}, silentLogger);
    const id = (await open(store)).headers.get('mcp-session-id')!;
    const session = store.find(id, acme)!;
    let finish: (() => void) | undefined;
    const request = new Request('http://localhost/mcp', { method: 'POST', headers: { ...HEADERS, 'mcp-session-id': id }, body: '{"jsonrpc":"2.0","id":2,"method":"tools/list"}' });
    const response = await store.handle(session, request, { jsonrpc: '2.0', id: 2, method: 'tools/list' }, undefined, (done) => (finish = done));
    expect(session.inflight).toBe(1);
    await response.text();
    finish!();
    finish!();
    expect(session.inflight).toBe(0);
    await store.close();
  });

  it('closes every session on close() and refuses new ones', async () => {
    const store = new SessionStore({}, {}, silentLogger);
    await open(store);
    await open(store);
    await store.close();
    expect(store.size).toBe(0);
    expect((await open(store)).status).toBe(503);
  });

  it('frees a GET stream the moment its client leaves, so the client can open it again at once (no 409 until the next keep-alive)', async () => {
    const store = new SessionStore({}, {}, silentLogger);
    const id = (await open(store)).headers.get('mcp-session-id')!;
    const session = store.find(id, acme)!;
    const stream = () => {
      const left = new AbortController();
      const request = new Request('http://localhost/mcp', { method: 'GET', headers: { accept: 'text/event-stream', 'mcp-session-id': id, 'mcp-protocol-version': '2025-11-25' }, signal: left.signal });
      return { left, answered: store.handle(session, request, undefined, undefined, () => undefined) };
    };
    const first = stream();
    expect((await first.answered).status).toBe(200);
    // While it is open, a second stream is refused, as the protocol says.
    const second = await stream().answered;
    expect(second.status).toBe(409);
    await second.text();
    // The client goes away (its connection closed): the stream is free again, with no write needed to notice.
    first.left.abort();
    const third = stream();
    expect((await third.answered).status).toBe(200);
    third.left.abort();
    await store.close();
  });
});
