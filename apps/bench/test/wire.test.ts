/**
 * The driver's requests and checks: the raw JSON-RPC it sends for each era,
 * and the checks that refuse a wrong answer.
 */
import { describe, expect, it } from 'vitest';
import { withoutId } from '../src/driver/load.js';
import { calledTool, checkAnswer, messageOf, wireRequest } from '../src/driver/wire.js';

const list = (count: number) => ({ tools: Array.from({ length: count }, (_, i) => ({ name: `tool_${i}`, inputSchema: { type: 'object', properties: { query: { type: 'string' } } } })) });
const json = (id: number, result: unknown) => JSON.stringify({ jsonrpc: '2.0', id, result });

describe('wireRequest', () => {
  it('a 2026-07-28 call carries the version, method and name headers and the _meta envelope', () => {
    const request = wireRequest('2026', 'tools/call', 100, 7);
    expect(request.headers).toMatchObject({ 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'tools/call', 'mcp-name': 'tool_99' });
    const body = JSON.parse(request.body);
    expect(body).toMatchObject({ jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name: 'tool_99', arguments: { query: 'x', limit: 5 } } });
    expect(body.params._meta['io.modelcontextprotocol/protocolVersion']).toBe('2026-07-28');
  });
  it('a 2025 request names the 2025 version; on a session it carries the session id', () => {
    expect(wireRequest('2025-stateless', 'tools/list', 10, 1).headers['mcp-protocol-version']).toBe('2025-11-25');
    expect(wireRequest('2025-session', 'tools/list', 10, 1, 'abc').headers['mcp-session-id']).toBe('abc');
    expect(() => wireRequest('2025-session', 'tools/list', 10, 1)).toThrow(/session id/);
    expect(JSON.parse(wireRequest('2025-stateless', 'tools/list', 10, 3).body)).toEqual({ jsonrpc: '2.0', id: 3, method: 'tools/list', params: {} });
  });
  it('calls the last tool, so a lookup that walks the list would show', () => {
    expect(calledTool(1000)).toBe('tool_999');
  });
});

describe('checkAnswer', () => {
  it('accepts the full list in order, as JSON or as an SSE event', () => {
    expect(() => checkAnswer('tools/list', 3, 1, 200, json(1, list(3)), 'application/json')).not.toThrow();
    expect(() => checkAnswer('tools/list', 3, 1, 200, `event: message\ndata: ${json(1, list(3))}\n\n`, 'text/event-stream')).not.toThrow();
  });
  it('refuses a short list, another id, an HTTP error or a JSON-RPC error', () => {
    expect(() => checkAnswer('tools/list', 4, 1, 200, json(1, list(3)), 'application/json')).toThrow(/3 tools, expected 4/);
    expect(() => checkAnswer('tools/list', 3, 2, 200, json(1, list(3)), 'application/json')).toThrow(/id 1, expected 2/);
    expect(() => checkAnswer('tools/list', 3, 1, 404, 'nope', 'text/plain')).toThrow(/HTTP 404/);
    expect(() => checkAnswer('tools/list', 3, 1, 200, JSON.stringify({ jsonrpc: '2.0', id: 1, error: { code: -32602, message: 'bad' } }), 'application/json')).toThrow(/no result/);
  });
  it('accepts the handler\'s text for a call and refuses an isError result', () => {
    const ok = { content: [{ type: 'text', text: 'tool_9: x 5' }] };
    expect(() => checkAnswer('tools/call', 10, 1, 200, json(1, ok), 'application/json')).not.toThrow();
    expect(() => checkAnswer('tools/call', 10, 1, 200, json(1, { ...ok, isError: true }), 'application/json')).toThrow(/expected the text/);
    expect(() => checkAnswer('tools/call', 10, 1, 200, json(1, { content: [{ type: 'text', text: 'tool_8: x 5' }] }), 'application/json')).toThrow(/expected the text/);
  });
  it('finds the message in an SSE stream and complains when there is none', () => {
    expect(messageOf('event: message\ndata: {"a":1}\n\n', 'text/event-stream; charset=utf-8')).toEqual({ a: 1 });
    expect(() => messageOf(': keep-alive\n\n', 'text/event-stream')).toThrow(/no data/);
  });
});

describe('withoutId (the cheap check of an answer identical to a checked one)', () => {
  it('takes out exactly the id asked for', () => {
    expect(withoutId('{"result":{},"jsonrpc":"2.0","id":12}', 12)).toBe('{"result":{},"jsonrpc":"2.0",}');
  });
  it('refuses a body where the id is missing, longer, or present twice', () => {
    expect(withoutId('{"id":123}', 12)).toBeUndefined();
    expect(withoutId('{"id":1}', 12)).toBeUndefined();
    expect(withoutId('{"id":12,"x":{"id":12}}', 12)).toBeUndefined();
  });
});
