/**
 * The HTTP app's access log: one info line per request, carrying what an
 * operator needs (method, path, toolsets, status, duration, Mcp-Method /
 * Mcp-Name, node id, trace and span ids) and never a token, an argument or a
 * result. Real clients over real HTTP; spans from a real SDK (in-memory).
 */
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineExtension } from '../src/contract/extension.js';
import { buildHost } from '../src/host/host.js';
import { createMcpApp } from '../src/serve/http/app.js';
import type { Logger, LogLevel } from '../src/kernel/logger.js';
import { defineTool } from '../src/contract/tool.js';
import { CLIENT_KINDS, connectClient, listen, type Listening, type TestClient } from './helpers/http.js';

const SECRET_ARGUMENT = 'argument-7f3a-never-logged';
const SECRET_RESULT = 'result-91c2-never-logged';
const TOKEN = 'Bearer token-5be1-never-logged';

const notes = defineExtension({
  manifest: { name: 'notes', version: '1.0.0' },
  toolsets: () => [{ name: 'notes', description: 'Notes.' }, { name: 'extra', description: 'More.', default: false }],
  tools: () => [defineTool({ name: 'save_note', description: 'Saves.', toolset: 'notes', inputSchema: z.object({ text: z.string() }), handler: () => SECRET_RESULT })],
});

/**
 * A logger keeping each line's fields and message, with what its children
 * were bound to: every call is kept, whatever `isLevelEnabled` (given by
 * `writes`, when given) answers, so a test sees what the app asked to log.
 */
function recordingLogger(writes?: (level: LogLevel) => boolean) {
  const lines: Array<{ level: string; fields: Record<string, unknown>; msg: string | undefined }> = [];
  const make = (bound: Record<string, unknown>): Logger => {
    const at = (level: string) => (objOrMsg: object | string, msg?: string) =>
      lines.push(typeof objOrMsg === 'string' ? { level, fields: { ...bound }, msg: objOrMsg } : { level, fields: { ...bound, ...(objOrMsg as Record<string, unknown>) }, msg });
    return { trace: at('trace'), debug: at('debug'), info: at('info'), warn: at('warn'), error: at('error'), child: (fields) => make({ ...bound, ...fields }), ...(writes ? { isLevelEnabled: writes } : {}) };
  };
  return { logger: make({}), lines };
}

const exporter = new InMemorySpanExporter();
const tracerProvider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
let server: Listening | undefined;
let client: TestClient | undefined;
afterEach(async () => {
  await client?.close();
  await server?.close();
  client = undefined;
  server = undefined;
  exporter.reset();
});

async function serve(options: { telemetry?: boolean; nodeId?: string; accessLog?: boolean; logPayloads?: boolean; writes?: (level: LogLevel) => boolean } = {}) {
  const { logger, lines } = recordingLogger(options.writes);
  const host = await buildHost([notes], { logger, ...(options.telemetry ? { telemetry: { tracerProvider, propagator: new W3CTraceContextPropagator() } } : {}) });
  server = await listen(
    createMcpApp(host, { ...(options.nodeId ? { nodeId: options.nodeId } : {}), ...(options.accessLog === false ? { accessLog: false } : {}), ...(options.logPayloads ? { logPayloads: true } : {}) }),
  );
  return { lines, access: () => lines.filter((l) => l.level === 'info' && l.fields.component === 'http' && 'durationMs' in l.fields) };
}

describe('the access log', () => {
  it.each(CLIENT_KINDS)('logs one info line per request with method, path, toolsets, status and duration (%s)', async (kind) => {
    const { access } = await serve({ nodeId: 'web-1' });
    client = await connectClient(kind, server!.url('/mcp?only=notes'));
    await client.callTool('save_note', { text: 'hello' });
    const lines = access();
    expect(lines.length).toBeGreaterThanOrEqual(2);
    for (const line of lines) {
      expect(line.fields).toMatchObject({ method: expect.stringMatching(/^(GET|POST|DELETE)$/) as unknown, target: '/mcp', status: expect.any(Number) as unknown, durationMs: expect.any(Number) as unknown, node: 'web-1' });
      expect(line.msg).toBe(`${line.fields.method as string} /mcp ${line.fields.status as number} ${line.fields.durationMs as number} ms`);
    }
    const posts = lines.filter((l) => l.fields.method === 'POST');
    expect(posts.map((l) => l.fields.status)).toContain(200);
    // The active toolsets that answered (a session's, or the request's selection).
    expect(posts.every((l) => l.fields.toolsets === 'notes')).toBe(true);
    if (kind === 'v2 client, 2026-07-28 protocol') {
      // The 2026-07-28 protocol names the method and target in headers (SEP-2243): the log carries them.
      expect(posts).toEqual(expect.arrayContaining([expect.objectContaining({ fields: expect.objectContaining({ mcpMethod: 'tools/call', mcpName: 'save_note' }) as unknown })]));
    }
  });

  it('carries the trace and span ids of the request span, continued from the traceparent header', async () => {
    const { access } = await serve({ telemetry: true });
    const traceId = '0af7651916cd43dd8448eb211c80319c';
    client = await connectClient('v2 client, 2025 protocol', server!.url('/mcp'), { traceparent: `00-${traceId}-b7ad6b7169203331-01` });
    await client.callTool('save_note', { text: 'hello' });
    const [span] = exporter.getFinishedSpans();
    expect(span?.name).toBe('tools/call save_note');
    // No traceparent in params._meta: the HTTP request's header is continued.
    expect(span?.spanContext().traceId).toBe(traceId);
    expect(span?.parentSpanContext?.spanId).toBe('b7ad6b7169203331');
    expect(span?.attributes['network.transport']).toBe('tcp');
    const call = access().find((l) => l.fields.span_id !== undefined);
    expect(call?.fields).toMatchObject({ trace_id: traceId, span_id: span?.spanContext().spanId, status: 200 });
  });

  it('never logs a bearer token, the query string, a tool argument or a result, at any level', async () => {
    const { lines } = await serve({ telemetry: true });
    client = await connectClient('v2 client, 2025 protocol', server!.url(`/mcp?only=notes&utm_source=${encodeURIComponent(TOKEN)}`), { authorization: TOKEN });
    await client.callTool('save_note', { text: SECRET_ARGUMENT });
    await client.callTool('nope', { text: SECRET_ARGUMENT }).catch(() => undefined);
    const logged = JSON.stringify(lines);
    expect(lines.length).toBeGreaterThan(2);
    expect(logged).not.toContain('token-5be1');
    expect(logged).not.toContain(SECRET_ARGUMENT);
    expect(logged).not.toContain(SECRET_RESULT);
  });

  it.each(CLIENT_KINDS)('with logPayloads (a debugging flag) carries the request and response bodies, still never the token (%s)', async (kind) => {
    const { lines, access } = await serve({ logPayloads: true });
    client = await connectClient(kind, server!.url(`/mcp?only=notes&utm_source=${encodeURIComponent(TOKEN)}`), { authorization: TOKEN });
    await client.callTool('save_note', { text: SECRET_ARGUMENT });
    const call = access().find((l) => typeof l.fields.request === 'string' && (l.fields.request).includes('"tools/call"'));
    expect(JSON.parse(call?.fields.request as string)).toMatchObject({ method: 'tools/call', params: { name: 'save_note', arguments: { text: SECRET_ARGUMENT } } });
    // The response as written: a JSON body, or the SSE event carrying it.
    expect(call?.fields.response).toContain(SECRET_RESULT);
    expect(JSON.stringify(lines)).not.toContain('token-5be1');
  });

  it('cuts a logged payload at 16 KiB', async () => {
    const { access } = await serve({ logPayloads: true });
    client = await connectClient('v2 client, 2026-07-28 protocol', server!.url('/mcp'));
    const long = 'x'.repeat(40_000);
    await client.callTool('save_note', { text: long });
    const call = access().find((l) => typeof l.fields.request === 'string' && (l.fields.request).includes('"tools/call"'));
    expect(call?.fields.request).toMatch(/…\[cut\]$/);
    expect((call?.fields.request as string).length).toBe(16 * 1024 + '…[cut]'.length);
  });

  it('builds no line for a logger that writes no info (asked per request: a level raised later is followed)', async () => {
    let level: LogLevel = 'warn';
    const { access } = await serve({ writes: (asked) => asked !== 'silent' && ['trace', 'debug', 'info', 'warn', 'error'].indexOf(asked) >= ['trace', 'debug', 'info', 'warn', 'error'].indexOf(level) });
    client = await connectClient('v2 client, 2026-07-28 protocol', server!.url('/mcp'));
    await client.callTool('save_note', { text: 'hello' });
    // The recording logger keeps every call: none was made.
    expect(access()).toEqual([]);
    level = 'info';
    await client.callTool('save_note', { text: 'again' });
    expect(access().filter((l) => l.fields.mcpMethod === 'tools/call')).toHaveLength(1);
  });

  it.each([
    ['accessLog: false', { accessLog: false }],
    ['a logger that writes no info', { writes: (level: LogLevel) => level === 'warn' || level === 'error' }],
  ] as const)('leaves spans continuing the traceparent header with %s', async (_, options) => {
    const { access } = await serve({ telemetry: true, ...options });
    const traceId = '4bf92f3577b34da6a3ce929d0e0e4736';
    client = await connectClient('v2 client, 2026-07-28 protocol', server!.url('/mcp'), { traceparent: `00-${traceId}-00f067aa0ba902b7-01` });
    await client.callTool('save_note', { text: 'hello' });
    const span = exporter.getFinishedSpans().find((s) => s.name === 'tools/call save_note');
    expect(span?.spanContext().traceId).toBe(traceId);
    expect(span?.parentSpanContext?.spanId).toBe('00f067aa0ba902b7');
    expect(span?.attributes['network.transport']).toBe('tcp');
    expect(access()).toEqual([]);
  });

  it('is off with accessLog: false', async () => {
    const { access } = await serve({ accessLog: false });
    client = await connectClient('v2 client, 2025 protocol', server!.url('/mcp'));
    await client.callTool('save_note', { text: 'hello' });
    expect(access()).toEqual([]);
  });
});
