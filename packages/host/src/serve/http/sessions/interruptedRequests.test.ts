import { McpServer, WebStandardStreamableHTTPServerTransport, type EventStore } from '@modelcontextprotocol/server';
import { describe, expect, it } from 'vitest';
import { memoryEventStore } from '../../../../test/helpers/memoryEventStore.js';
import { answeringInterruptedRequests, parseLabelledEventId } from './interruptedRequests.js';

const URL_ = 'http://localhost/mcp';
const POST_HEADERS = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
const VERSION = '2025-11-25';
const SESSION = 'session-1';

/**
 * One "node" of a session: its own SDK server and transport over the shared
 * event store (as replicas share Redis). `answer` ends the `wait` tool's calls.
 */
async function node(shared: EventStore, nodeId: string) {
  let answer: (text: string) => void = () => undefined;
  const answered = new Promise<string>((resolve) => (answer = resolve));
  const server = new McpServer({ name: nodeId, version: '1.0.0' }, { capabilities: { tools: {} } });
  server.registerTool('wait', { description: 'Answers when the test says.' }, async () => ({ content: [{ type: 'text', text: await answered }] }));
  const eventStore = answeringInterruptedRequests(shared, { sessionId: SESSION, nodeId });
  const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: () => SESSION, eventStore });
  eventStore.bind(transport);
  await server.connect(transport);
  const initialize = { jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: VERSION, capabilities: {}, clientInfo: { name: 't', version: '1' } } };
  await (await transport.handleRequest(new Request(URL_, { method: 'POST', headers: POST_HEADERS, body: JSON.stringify(initialize) }))).text();
  const session = { 'mcp-session-id': SESSION, 'mcp-protocol-version': VERSION };
  return {
    answer,
    close: () => server.close(),
    post: (body: unknown) => transport.handleRequest(new Request(URL_, { method: 'POST', headers: { ...POST_HEADERS, ...session }, body: JSON.stringify(body) })),
    resume: (lastEventId: string) => transport.handleRequest(new Request(URL_, { method: 'GET', headers: { accept: 'text/event-stream', 'last-event-id': lastEventId, ...session } })),
  };
}

/** Reads SSE events from `response` until `enough` says so (or the stream ends). */
async function events(response: Response, enough: (seen: Array<{ id?: string; data: string }>) => boolean = () => false) {
  const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
  const seen: Array<{ id?: string; data: string }> = [];
  let buffer = '';
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    buffer += value;
    let end: number;
    while ((end = buffer.indexOf('\n\n')) >= 0) {
      const block = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      const id = /^id: (.*)$/m.exec(block)?.[1];
      seen.push({ ...(id !== undefined ? { id } : {}), data: /^data: ?(.*)$/m.exec(block)?.[1] ?? '' });
    }
    if (enough(seen)) {
      await reader.cancel();
      break;
    }
  }
  return seen;
}

const call = { jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name: 'wait', arguments: {} } };

describe('answeringInterruptedRequests', () => {
  it("labels a POST stream's event ids with the request it answers", async () => {
    const a = await node(memoryEventStore(), 'node-a');
    const [priming] = await events(await a.post(call), (seen) => seen.length >= 1);
    expect(parseLabelledEventId(priming!.id!).ids).toEqual([7]);
    await a.close();
  });

  it('answers a resumed stream with an error naming what happened when the node running its request is gone, then refuses that stream', async () => {
    const shared = memoryEventStore();
    const a = await node(shared, 'node-a');
    const [priming] = await events(await a.post(call), (seen) => seen.length >= 1);
    // node-a dies with the call running; the client resumes on node-b, which took the session over.
    const b = await node(shared, 'node-b');
    const resumed = await b.resume(priming!.id!);
    expect(resumed.status).toBe(200);
    const replayed = await events(resumed);
    expect(replayed).toHaveLength(1);
    const error = JSON.parse(replayed[0]!.data) as { id: number; error: { message: string } };
    expect(error.id).toBe(7);
    expect(error.error.message).toMatch(/^Request interrupted: the node that was running request 7 of session session-1 stopped before answering it/);
    expect(error.error.message).toContain('node "node-b" now serves the session');
    // Nothing follows: resuming after the error is refused, so the client's reconnection ends.
    expect((await b.resume(replayed[0]!.id!)).status).toBe(400);
    await a.close();
    await b.close();
  });

  it('replays the answer the dead node stored, and adds nothing', async () => {
    const shared = memoryEventStore();
    const a = await node(shared, 'node-a');
    const stream = await a.post(call);
    a.answer('done');
    const seen = await events(stream);
    expect(JSON.parse(seen.at(-1)!.data)).toMatchObject({ id: 7, result: { content: [{ text: 'done' }] } });
    const b = await node(shared, 'node-b');
    const replayed = await events(await b.resume(seen[0]!.id!));
    expect(replayed.map((e) => JSON.parse(e.data) as unknown)).toEqual([expect.objectContaining({ id: 7, result: expect.anything() as unknown })]);
    await a.close();
    await b.close();
  });

  it('keeps a resumed stream open on the node still running its request, which then answers it', async () => {
    const a = await node(memoryEventStore(), 'node-a');
    const [priming] = await events(await a.post(call), (seen) => seen.length >= 1);
    // The client's connection dropped (its stream was cancelled above); it resumes on the same node.
    const resumed = await a.resume(priming!.id!);
    a.answer('late');
    const seen = await events(resumed, (s) => s.some((e) => e.data.includes('"result"')));
    expect(seen.map((e) => JSON.parse(e.data) as unknown)).toEqual([expect.objectContaining({ id: 7, result: expect.anything() as unknown })]);
    await a.close();
  });

  it('keeps every resumed stream of a live node open, even past the streams it labels at most (1,000 in flight)', async () => {
    const a = await node(memoryEventStore(), 'node-a');
    const calls = Array.from({ length: 1_001 }, (_, i) => ({ ...call, id: 100 + i }));
    // The first call's stream is the oldest: past the bound it is no longer among the labelled open streams.
    const [first] = await events(await a.post(calls[0]), (seen) => seen.length >= 1);
    for (const later of calls.slice(1)) await events(await a.post(later), (seen) => seen.length >= 1);
    const resumed = await a.resume(first!.id!);
    a.answer('late');
    const seen = await events(resumed, (s) => s.some((e) => e.data.includes('"id":100')));
    expect(seen.map((e) => JSON.parse(e.data) as unknown)).toEqual([expect.objectContaining({ id: 100, result: expect.anything() as unknown })]);
    await a.close();
  });
});
