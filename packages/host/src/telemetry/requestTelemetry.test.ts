/**
 * Request spans by the MCP semantic conventions, recorded by a real
 * OpenTelemetry SDK (in-memory exporter) through a real SDK client.
 */
import type { ServerContext } from '@modelcontextprotocol/server';
import { SpanKind, SpanStatusCode } from '@opentelemetry/api';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor, type ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineExtension } from '../contract/extension.js';
import { buildHost } from '../host/host.js';
import { silentLogger } from '../kernel/logger.js';
import { connect, type TestConnection } from '../testing/index.js';
import { defineTool } from '../contract/tool.js';
import { requestTelemetry } from './requestTelemetry.js';

const runs = defineExtension({
  manifest: { name: 'runs', version: '1.0.0' },
  toolsets: () => [{ name: 'bench' }],
  tools: () => [
    defineTool({ name: 'get_run', description: 'A run.', toolset: 'bench', inputSchema: z.object({ id: z.string() }), handler: (args) => `run ${args.id}` }),
    defineTool({ name: 'refuse', description: 'Answers with an error result.', toolset: 'bench', handler: () => ({ isError: true, content: [{ type: 'text', text: 'no such run' }] }) }),
    defineTool({ name: 'explode', description: 'Throws.', toolset: 'bench', handler: () => { throw new Error('disk on fire'); } }),
    defineTool({
      name: 'hang',
      description: 'Never answers before its time limit.',
      toolset: 'bench',
      timeoutMs: 5,
      handler: (_args, ctx) => new Promise<string>((resolve) => ctx.signal.addEventListener('abort', () => resolve('aborted'))),
    }),
  ],
  resources: () => [{ name: 'readme', uri: 'docs://readme', read: (uri) => ({ contents: [{ uri: uri.href, text: 'hello' }] }) }],
  prompts: () => [{ name: 'greet', description: 'Greet.', get: () => ({ messages: [{ role: 'user', content: { type: 'text', text: 'hi' } }] }) }],
});

const exporter = new InMemorySpanExporter();
const tracerProvider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
let conn: TestConnection | undefined;

async function traced(): Promise<TestConnection> {
  const host = await buildHost([runs], { logger: silentLogger, telemetry: { tracerProvider, propagator: new W3CTraceContextPropagator() } });
  conn = await connect(host);
  return conn;
}

/** The one span recorded, once the request it belongs to has been answered. */
function onlySpan(): ReadableSpan {
  const spans = exporter.getFinishedSpans();
  expect(spans).toHaveLength(1);
  return spans[0]!;
}

afterEach(async () => {
  await conn?.close();
  conn = undefined;
  exporter.reset();
});

describe('request spans (host option telemetry)', () => {
  it('records a tools/call as a SERVER span named "tools/call {tool}" carrying the convention attributes and ours', async () => {
    const c = await traced();
    expect((await c.callTool('get_run', { id: 'r1' })).content).toEqual([{ type: 'text', text: 'run r1' }]);
    const span = onlySpan();
    expect(span.name).toBe('tools/call get_run');
    expect(span.kind).toBe(SpanKind.SERVER);
    expect(span.instrumentationScope.name).toBe('@reactor/host');
    expect(c.client.getNegotiatedProtocolVersion()).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(span.attributes).toMatchObject({
      'mcp.method.name': 'tools/call',
      'gen_ai.tool.name': 'get_run',
      'gen_ai.operation.name': 'execute_tool',
      'reactor.extension': 'runs',
      'reactor.toolset': 'bench',
      'mcp.protocol.version': c.client.getNegotiatedProtocolVersion(),
    });
    expect(span.attributes['jsonrpc.request.id']).toMatch(/^\d+$/);
    expect(span.attributes['error.type']).toBeUndefined();
    expect(span.status.code).toBe(SpanStatusCode.UNSET);
    expect(span.parentSpanContext).toBeUndefined();
  });

  it('marks an isError result with error.type "tool_error" and an error status carrying its text', async () => {
    const c = await traced();
    expect((await c.callTool('refuse')).isError).toBe(true);
    const span = onlySpan();
    expect(span.attributes['error.type']).toBe('tool_error');
    expect(span.status).toEqual({ code: SpanStatusCode.ERROR, message: 'no such run' });
  });

  it('marks a tool that threw as a tool_error (the client gets an error result, not a protocol error)', async () => {
    const c = await traced();
    expect((await c.callTool('explode')).isError).toBe(true);
    const span = onlySpan();
    expect(span.name).toBe('tools/call explode');
    expect(span.attributes['error.type']).toBe('tool_error');
    expect(span.status.message).toBe('disk on fire');
  });

  it('marks a timed-out tool as a tool_error naming the time limit', async () => {
    const c = await traced();
    expect((await c.callTool('hang')).isError).toBe(true);
    const span = onlySpan();
    expect(span.attributes['error.type']).toBe('tool_error');
    expect(span.status.message).toMatch(/timed out after 5 ms/);
  });

  it('marks an unknown tool with the JSON-RPC error code and records the exception; no extension is named', async () => {
    const c = await traced();
    await expect(c.callTool('nope')).rejects.toThrow(/nope/);
    const span = onlySpan();
    expect(span.name).toBe('tools/call nope');
    expect(span.attributes['error.type']).toBe('-32602');
    expect(span.attributes['reactor.extension']).toBeUndefined();
    expect(span.events.map((e) => e.name)).toEqual(['exception']);
  });

  it('records prompts/get with gen_ai.prompt.name and resources/read with mcp.resource.uri', async () => {
    const c = await traced();
    await c.client.getPrompt({ name: 'greet' });
    await c.client.readResource({ uri: 'docs://readme' });
    const [prompt, resource] = exporter.getFinishedSpans();
    expect(prompt!.name).toBe('prompts/get greet');
    expect(prompt!.attributes).toMatchObject({ 'mcp.method.name': 'prompts/get', 'gen_ai.prompt.name': 'greet', 'reactor.extension': 'runs' });
    expect(resource!.name).toBe('resources/read docs://readme');
    expect(resource!.attributes).toMatchObject({ 'mcp.method.name': 'resources/read', 'mcp.resource.uri': 'docs://readme', 'reactor.extension': 'runs' });
    expect(resource!.attributes['reactor.toolset']).toBeUndefined();
  });

  it("continues the caller's trace from params._meta.traceparent and tracestate", async () => {
    const c = await traced();
    const traceId = '4bf92f3577b34da6a3ce929d0e0e4736';
    const parentId = '00f067aa0ba902b7';
    await c.client.callTool({ name: 'get_run', arguments: { id: 'r2' }, _meta: { traceparent: `00-${traceId}-${parentId}-01`, tracestate: 'vendor=abc' } });
    const span = onlySpan();
    expect(span.spanContext().traceId).toBe(traceId);
    expect(span.parentSpanContext?.spanId).toBe(parentId);
    expect(span.parentSpanContext?.isRemote).toBe(true);
    expect(span.parentSpanContext?.traceState?.get('vendor')).toBe('abc');
  });

  it('names the chain of tool extensions applied to the tool, in order (reactor.tool_extensions), and only where there is one', async () => {
    const audit = defineExtension({ manifest: { name: 'audit', version: '1.0.0' }, toolExtensions: () => [['get_run', { wrap: (original) => original }]] });
    const redact = defineExtension({ manifest: { name: 'redact', version: '1.0.0' }, toolExtensions: () => [['get_run', { order: 10, wrap: (original) => original }]] });
    const host = await buildHost([runs, audit, redact], { logger: silentLogger, telemetry: { tracerProvider } });
    conn = await connect(host);
    await conn.callTool('get_run', { id: 'r1' });
    expect(onlySpan().attributes['reactor.tool_extensions']).toEqual(['audit', 'redact']);
    exporter.reset();
    await conn.callTool('refuse');
    expect(onlySpan().attributes['reactor.tool_extensions']).toBeUndefined();
  });

  it('records nothing when the host has no telemetry option, even with a provider at hand', async () => {
    const host = await buildHost([runs]);
    conn = await connect(host);
    await conn.callTool('get_run', { id: 'r3' });
    expect(exporter.getFinishedSpans()).toEqual([]);
  });

  it('carries the transport session id as mcp.session.id (HTTP sessions have one; in-memory connections do not)', async () => {
    const telemetry = requestTelemetry({ tracerProvider })!;
    const ctx = { sessionId: 'sess-42', mcpReq: { id: 7, method: 'tools/call' } } as unknown as ServerContext;
    const answer = await telemetry.around('tools/call', 'get_run', ctx, '2026-07-28', (notes) => {
      notes.offeredBy('runs', 'bench');
      return Promise.resolve('ok');
    });
    expect(answer).toBe('ok');
    expect(onlySpan().attributes).toEqual({
      'mcp.method.name': 'tools/call',
      'gen_ai.tool.name': 'get_run',
      'gen_ai.operation.name': 'execute_tool',
      'jsonrpc.request.id': '7',
      'mcp.session.id': 'sess-42',
      'mcp.protocol.version': '2026-07-28',
      'reactor.extension': 'runs',
      'reactor.toolset': 'bench',
    });
  });

  it('starts the span with the offering when it is known up front, and then the notes record nothing more', async () => {
    const telemetry = requestTelemetry({ tracerProvider })!;
    const ctx = { mcpReq: { id: 'a1', method: 'tools/call' } } as unknown as ServerContext;
    const answer = await telemetry.around(
      'tools/call',
      'get_run',
      ctx,
      undefined,
      (notes) => {
        // Told again while answering, the notes change nothing: the span started with the offering.
        notes.offeredBy('someone-else', 'elsewhere');
        return Promise.resolve('ok');
      },
      'pipe',
      { extension: 'runs', toolset: 'bench', extendedBy: ['audit'] },
    );
    expect(answer).toBe('ok');
    expect(onlySpan().attributes).toEqual({
      'mcp.method.name': 'tools/call',
      'gen_ai.tool.name': 'get_run',
      'gen_ai.operation.name': 'execute_tool',
      'jsonrpc.request.id': 'a1',
      'network.transport': 'pipe',
      'reactor.extension': 'runs',
      'reactor.toolset': 'bench',
      'reactor.tool_extensions': ['audit'],
    });
  });

  it('is undefined without options, so minted servers install their handlers unwrapped', () => {
    expect(requestTelemetry(undefined)).toBeUndefined();
  });
});
