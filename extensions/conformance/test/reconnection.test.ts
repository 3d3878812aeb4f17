import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { buildHost, createMcpApp, silentLogger, type McpApp, type McpHost } from '@reactor/host';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { conformance } from '../src/conformance.js';
import { conformancePassthrough } from '../src/passthrough.js';
import { memoryEventStore } from './memoryEventStore.js';

// test_reconnection over real Streamable HTTP: a session with an event store,
// a 2025-11-25 client speaking raw HTTP so the stream's events are visible.
let host: McpHost;
let app: McpApp;
let server: http.Server;
let url: string;

beforeAll(async () => {
  host = await buildHost([conformance, conformancePassthrough], { logger: silentLogger, strict: true });
  app = createMcpApp(host, { eventStore: memoryEventStore(), retryInterval: 500 });
  server = http.createServer(app);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`;
});

afterAll(async () => {
  await app.close();
  await new Promise((resolve) => server.close(resolve));
  await host.stop();
});

const JSON_AND_SSE = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };

async function openSession(protocolVersion: string): Promise<Record<string, string>> {
  const init = await fetch(url, {
    method: 'POST',
    headers: JSON_AND_SSE,
    body: JSON.stringify({ jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion, capabilities: {}, clientInfo: { name: 'raw', version: '1' } } }),
  });
  await init.text();
  const headers = { ...JSON_AND_SSE, 'mcp-session-id': init.headers.get('mcp-session-id') ?? '', 'mcp-protocol-version': protocolVersion };
  await (await fetch(url, { method: 'POST', headers, body: JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }) })).text();
  return headers;
}

function callReconnection(headers: Record<string, string>): Promise<Response> {
  return fetch(url, { method: 'POST', headers, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'test_reconnection', arguments: {} } }) });
}

describe('test_reconnection over Streamable HTTP with an event store (SEP-1699)', () => {
  it('closes its stream after the priming event, and the result arrives when the client resumes with Last-Event-ID', async () => {
    const headers = await openSession('2025-11-25');
    const stream = await (await callReconnection(headers)).text();
    // Only the priming event: an id, the retry hint, empty data — no result.
    expect(stream).toMatch(/^id: \S+\nretry: 500\ndata: \n\n$/);
    const lastEventId = /id: (\S+)/.exec(stream)?.[1] ?? '';

    const resumed = await fetch(url, {
      headers: { accept: 'text/event-stream', 'mcp-session-id': headers['mcp-session-id']!, 'mcp-protocol-version': '2025-11-25', 'last-event-id': lastEventId },
    });
    expect(resumed.status).toBe(200);
    const reader = resumed.body!.getReader();
    const decoder = new TextDecoder();
    let received = '';
    while (!received.includes('"id":1')) {
      const { value, done } = await reader.read();
      if (done) break;
      received += decoder.decode(value, { stream: true });
    }
    await reader.cancel();
    expect(received).toContain('the stream was closed mid-call and the result delivered on resumption');
  });

  it('answers on the open stream for a client older than 2025-11-25, which cannot resume', async () => {
    const headers = await openSession('2025-06-18');
    const stream = await (await callReconnection(headers)).text();
    expect(stream).toContain('without closing the stream');
  });
});
