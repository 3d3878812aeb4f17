/**
 * The fast path behaves as the SDK's per-request path in what the
 * differential test cannot see from the wire: the spans and metrics recorded,
 * the access-log line, a tool's `ctx.signal` when its client goes away; and
 * where it differs on purpose: a large `tools/list` is compressed for a client
 * that accepts it. 2025 stateless requests are answered as the SDK's
 * stateless transport answers them. A blueprint with `onServer` hooks falls
 * through.
 */
import { request as httpRequest } from 'node:http';
import { brotliDecompressSync } from 'node:zlib';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import { AggregationTemporality, MeterProvider, MetricReader } from '@opentelemetry/sdk-metrics';
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor, type ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { buildHost, createMcpApp, defineExtension, defineTool, silentLogger, type HostOptions, type McpApp, type McpHost } from '../src/index.js';
import type { Logger } from '../src/kernel/logger.js';
import { listen, type Listening } from './helpers/http.js';
import { HOST_STATS } from '../src/host/internals.js';
import { turnEndWrites } from '../src/serve/http/fast/turnEndWrites.js';

class OnDemandReader extends MetricReader {
  constructor() {
    super({ aggregationTemporalitySelector: () => AggregationTemporality.CUMULATIVE });
  }
  protected onForceFlush(): Promise<void> {
    return Promise.resolve();
  }
  protected onShutdown(): Promise<void> {
    return Promise.resolve();
  }
}

const MODERN_META = { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': {} };
const TRACEPARENT = '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01';

/** Told when the `wait` tool starts, when its signal aborts (with the reason's message), and when its HTTP request's signal does. */
let started: () => void = () => undefined;
let aborted: (reason: string) => void = () => undefined;
let requestAborted: () => void = () => undefined;

const tools = defineExtension({
  manifest: { name: 'tools', version: '1.0.0' },
  toolsets: () => [{ name: 'tools', description: 'Tools.' }],
  tools: () => [
    defineTool({ name: 'echo', description: 'Echoes.', handler: () => 'echoed' }),
    defineTool({ name: 'whoami', description: 'Reads its HTTP request.', handler: (_args, ctx) => `${ctx.http?.req?.headers.get('x-caller') ?? 'nobody'} at ${new URL(ctx.http?.req?.url ?? 'http://none/').pathname}` }),
    defineTool({
      name: 'wait',
      description: 'Waits for its client to go away.',
      handler: (_args, ctx) =>
        new Promise((resolve) => {
          ctx.http?.req?.signal.addEventListener('abort', () => requestAborted());
          ctx.signal.addEventListener('abort', () => {
            aborted(ctx.signal.reason instanceof Error ? ctx.signal.reason.message : String(ctx.signal.reason));
            resolve('gone');
          });
          started();
        }),
    }),
    ...Array.from({ length: 200 }, (_, i) => defineTool({ name: `pad_${i}`, description: `Tool ${i} of a long list.`, handler: () => `pad ${i}` })),
  ],
});

/** A logger keeping its lines; `next(test)` resolves with the first line (from now) that passes `test`. */
function recordingLogger() {
  const lines: Array<Record<string, unknown>> = [];
  let waiting: { test: (line: Record<string, unknown>) => boolean; resolve: (line: Record<string, unknown>) => void } | undefined;
  const make = (bound: Record<string, unknown>): Logger => {
    const at = (level: string) => (objOrMsg: object | string, msg?: string) => {
      const line = { level, ...bound, ...(typeof objOrMsg === 'string' ? { msg: objOrMsg } : { ...(objOrMsg as Record<string, unknown>), msg }) };
      lines.push(line);
      if (waiting?.test(line)) waiting.resolve(line);
    };
    return { trace: at('trace'), debug: at('debug'), info: at('info'), warn: at('warn'), error: at('error'), child: (fields) => make({ ...bound, ...fields }) };
  };
  const next = (test: (line: Record<string, unknown>) => boolean) => new Promise<Record<string, unknown>>((resolve) => (waiting = { test, resolve }));
  return { logger: make({}), lines, next };
}

function call(app: Listening, method: string, params: Record<string, unknown>, headers: Record<string, string> = {}): Promise<{ status: number; headers: Headers; body: Buffer }> {
  const name: Record<string, string> = typeof params.name === 'string' ? { 'mcp-name': params.name } : {};
  return fetch(app.url('/mcp'), {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2026-07-28', 'mcp-method': method, ...name, ...headers },
    body: JSON.stringify({ jsonrpc: '2.0', id: 5, method, params: { ...params, _meta: MODERN_META } }),
  }).then(async (response) => ({ status: response.status, headers: response.headers, body: Buffer.from(await response.arrayBuffer()) }));
}

/** The same as a 2025 stateless request: no envelope, no `Mcp-Method`/`Mcp-Name`. */
function legacyCall(app: Listening, method: string, params: Record<string, unknown>, headers: Record<string, string> = {}): Promise<{ status: number; headers: Headers; body: Buffer }> {
  return fetch(app.url('/mcp'), {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2025-11-25', ...headers },
    body: JSON.stringify({ jsonrpc: '2.0', id: 5, method, params }),
  }).then(async (response) => ({ status: response.status, headers: response.headers, body: Buffer.from(await response.arrayBuffer()) }));
}

/** Calls the `wait` tool at `path` over a raw Node request (so a test can drop the connection): a 2026-07-28 or a 2025 stateless request. */
function callWait(app: Listening, era: '2026-07-28' | '2025 stateless', path: string): ReturnType<typeof httpRequest> {
  const modern = era === '2026-07-28';
  const body = JSON.stringify({ jsonrpc: '2.0', id: 9, method: 'tools/call', params: { name: 'wait', arguments: {}, ...(modern ? { _meta: MODERN_META } : {}) } });
  const headers = modern ? { 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'tools/call', 'mcp-name': 'wait' } : { accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2025-11-25' };
  const req = httpRequest(app.url(path), { method: 'POST', headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body), ...headers } });
  req.on('error', () => undefined);
  req.end(body);
  return req;
}

let host: McpHost | undefined;
const apps: Listening[] = [];
afterEach(async () => {
  for (const app of apps.splice(0)) await app.close();
  await host?.stop();
  host = undefined;
});

async function pair(options: { logger?: Logger; telemetry?: HostOptions['telemetry']; extensions?: Parameters<typeof buildHost>[0] } = {}): Promise<{ fast: Listening; sdk: Listening; host: McpHost }> {
  host = await buildHost(options.extensions ?? [tools], { logger: options.logger ?? silentLogger, ...(options.telemetry ? { telemetry: options.telemetry } : {}) });
  const fast = await listen(createMcpApp(host, { sessions: false, fastPath: true, nodeId: 'n1' }));
  const sdk = await listen(createMcpApp(host, { sessions: false, fastPath: false, nodeId: 'n1' }));
  apps.push(fast, sdk);
  return { fast, sdk, host };
}

/** A span as compared: what it says, not its ids or times. */
const shape = (span: ReadableSpan) => ({ name: span.name, kind: span.kind, status: span.status, attributes: span.attributes, parentTrace: span.spanContext().traceId, events: span.events.map((e) => e.name) });

describe('the fast path', () => {
  it.each(['2026-07-28', '2025 stateless'] as const)('records the same spans, metrics and access-log line as the per-request path (%s)', async (era) => {
    const exporter = new InMemorySpanExporter();
    const tracerProvider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
    const reader = new OnDemandReader();
    const meterProvider = new MeterProvider({ readers: [reader] });
    const { logger, next } = recordingLogger();
    const { fast, sdk, host } = await pair({ logger, telemetry: { tracerProvider, meterProvider, propagator: new W3CTraceContextPropagator() } });
    const seen: Record<string, { spans: unknown[]; access: unknown[] }> = {};
    for (const [name, app] of [['sdk', sdk], ['fast', fast]] as const) {
      exporter.reset();
      const accessLine = next((line) => typeof line.msg === 'string' && line.msg.startsWith('POST'));
      const before = host[HOST_STATS].fastAnswers;
      const answer = era === '2026-07-28' ? await call(app, 'tools/call', { name: 'echo', arguments: {} }, { traceparent: TRACEPARENT }) : await legacyCall(app, 'tools/call', { name: 'echo', arguments: {} }, { traceparent: TRACEPARENT });
      expect(answer.status).toBe(200);
      expect(answer.headers.get('x-reactor-node')).toBe('n1');
      expect(host[HOST_STATS].fastAnswers - before).toBe(name === 'fast' ? 1 : 0);
      // The access line is written when the response closes.
      const access = [await accessLine];
      seen[name] = {
        spans: exporter.getFinishedSpans().map(shape),
        access: access.map(({ durationMs: _d, span_id: _s, msg, ...rest }) => ({ ...rest, msg: String(msg).replace(/[\d.]+ ms$/, '… ms') })),
      };
    }
    expect(seen.fast!.spans).toHaveLength(1);
    expect(seen.fast).toEqual(seen.sdk);
    // The span found its request record on the stand-in for ctx.http.req without making the fetch Request.
    expect(host[HOST_STATS].fetchRequests).toBe(0);
    const { resourceMetrics } = await reader.collect();
    const durations = resourceMetrics.scopeMetrics.flatMap((s) => s.metrics).find((m) => m.descriptor.name === 'mcp.server.operation.duration');
    // One point for both requests: the same attributes on both paths.
    expect(durations?.dataPoints).toHaveLength(1);
  });

  it('compresses a large tools/list once for a client accepting br or gzip, the same JSON as the per-request path', async () => {
    const { fast, sdk } = await pair();
    const plain = await call(sdk, 'tools/list', {});
    expect(plain.headers.get('content-encoding')).toBeNull();
    for (const encoding of ['br', 'gzip'] as const) {
      for (let i = 0; i < 2; i++) {
        const answer = await fetch(fast.url('/mcp'), {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'accept-encoding': encoding, 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'tools/list' },
          body: JSON.stringify({ jsonrpc: '2.0', id: 5, method: 'tools/list', params: { _meta: MODERN_META } }),
        });
        // fetch decodes the body itself; the headers say what was on the wire.
        expect(answer.headers.get('content-encoding')).toBe(encoding);
        expect(answer.headers.get('vary')).toBe('Accept-Encoding');
        expect(await answer.json()).toEqual(JSON.parse(plain.body.toString()));
      }
    }
    // Bytes on the wire, read without a decoding client.
    const raw = await new Promise<Buffer>((resolve, reject) => {
      const body = JSON.stringify({ jsonrpc: '2.0', id: 5, method: 'tools/list', params: { _meta: MODERN_META } });
      const req = httpRequest(fast.url('/mcp'), { method: 'POST', headers: { 'content-type': 'application/json', 'content-length': body.length, 'accept-encoding': 'br', 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'tools/list' } }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve(Buffer.concat(chunks)));
      });
      req.on('error', reject);
      req.end(body);
    });
    expect(brotliDecompressSync(raw).equals(plain.body)).toBe(true);
    expect(raw.length / plain.body.length).toBeLessThan(0.15);
  });

  it('answers 2025 stateless requests as the SDK’s stateless transport does: one event stream, the same bytes, the list encoded once', async () => {
    const { fast, sdk, host } = await pair();
    const legacy = (app: Listening, id: number, method: string, params: Record<string, unknown>) =>
      fetch(app.url('/mcp'), {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2025-11-25' },
        body: JSON.stringify({ jsonrpc: '2.0', id, method, params }),
      }).then(async (r) => ({ status: r.status, type: r.headers.get('content-type'), node: r.headers.get('x-reactor-node'), text: await r.text() }));
    const requests: Array<[string, Record<string, unknown>]> = [
      ['tools/list', {}],
      // The second list is replayed from the bytes encoded for the first, under its own id.
      ['tools/list', {}],
      ['tools/call', { name: 'echo', arguments: {} }],
      ['tools/call', { name: 'nosuch', arguments: {} }],
      ['prompts/list', {}],
    ];
    const before = host[HOST_STATS].fastAnswers;
    for (const [i, [method, params]] of requests.entries()) {
      const [viaFast, viaSdk] = [await legacy(fast, i, method, params), await legacy(sdk, i, method, params)];
      expect(viaFast).toEqual(viaSdk);
      expect(viaFast.type).toBe('text/event-stream');
      expect(viaFast.text).toMatch(/^event: message\ndata: \{.*\}\n\n$/);
      expect(viaFast.text).toContain(`"id":${i}`);
    }
    // The unknown tool is the SDK's to refuse: it falls through.
    expect(host[HOST_STATS].fastAnswers - before).toBe(requests.length - 1);
  });

  it.each([
    ['2026-07-28', 'fast'],
    ['2026-07-28', 'sdk'],
    ['2025 stateless', 'fast'],
    ['2025 stateless', 'sdk'],
  ] as const)('aborts a tool’s ctx.signal and its ctx.http.req.signal when its %s client goes away (%s path)', async (era, which) => {
    const apps = await pair();
    const app = apps[which];
    const reason = new Promise<string>((resolve) => (aborted = resolve));
    const requestGone = new Promise<void>((resolve) => (requestAborted = resolve));
    const running = new Promise<void>((resolve) => (started = resolve));
    const req = callWait(app, era, '/mcp');
    await running;
    req.destroy();
    expect(await reason).toBe('Connection closed');
    await requestGone;
  });

  it.each([
    ['2026-07-28', 'fast'],
    ['2026-07-28', 'sdk'],
    ['2025 stateless', 'fast'],
    ['2025 stateless', 'sdk'],
  ] as const)('gives a middleware layer a real AbortSignal that aborts when its %s client goes away (%s path)', async (era, which) => {
    let layerSignal: AbortSignal | undefined;
    let layerAbort: (reason: string) => void = () => undefined;
    const layerAborted = new Promise<string>((resolve) => (layerAbort = resolve));
    const watching = defineExtension({
      manifest: { name: 'watching', version: '1.0.0' },
      toolsets: () => [{ name: 'watching', default: false }],
      middleware: () => [
        {
          name: 'watch',
          handle: (call, next) => {
            const signal = (layerSignal = call.ctx.mcpReq.signal);
            signal.addEventListener('abort', () => layerAbort(signal.reason instanceof Error ? signal.reason.message : String(signal.reason)));
            return next();
          },
        },
      ],
    });
    const apps = await pair({ extensions: [tools, watching] });
    const app = apps[which];
    const running = new Promise<void>((resolve) => (started = resolve));
    const toolAborted = new Promise<string>((resolve) => (aborted = resolve));
    const req = callWait(app, era, '/mcp?toolsets=tools,watching');
    await running;
    expect(layerSignal).toBeInstanceOf(AbortSignal);
    expect(layerSignal?.aborted).toBe(false);
    req.destroy();
    expect(await layerAborted).toBe('Connection closed');
    expect(await toolAborted).toBe('Connection closed');
  });

  it.each(['2026-07-28', '2025 stateless'] as const)('makes a fetch Request only for a handler that reads ctx.http.req (%s)', async (era) => {
    const { fast, sdk, host } = await pair();
    const send = era === '2026-07-28' ? call : legacyCall;
    const before = host[HOST_STATS].fetchRequests;
    expect((await send(fast, 'tools/call', { name: 'echo', arguments: {} })).status).toBe(200);
    expect(host[HOST_STATS].fetchRequests).toBe(before);
    const [viaFast, viaSdk] = [await send(fast, 'tools/call', { name: 'whoami', arguments: {} }, { 'x-caller': 'ada' }), await send(sdk, 'tools/call', { name: 'whoami', arguments: {} }, { 'x-caller': 'ada' })];
    expect(viaFast.body.toString()).toContain('ada at /mcp');
    expect(viaFast.body.equals(viaSdk.body)).toBe(true);
    expect(host[HOST_STATS].fetchRequests).toBe(before + 1);
  });

  it('answers as the per-request path when something in front of the app read the body and kept none (no hang)', async () => {
    host = await buildHost([tools], { logger: silentLogger });
    const behindReader = (fastPath: boolean): McpApp => {
      const app = createMcpApp(host!, { sessions: false, fastPath });
      // A body reader in front that keeps nothing where the app looks (`req.body`).
      return Object.assign((req: Parameters<McpApp>[0], res: Parameters<McpApp>[1]) => {
        req.on('end', () => app(req, res)).resume();
      }, { close: app.close }) as unknown as McpApp;
    };
    const [fast, sdk] = [await listen(behindReader(true)), await listen(behindReader(false))];
    apps.push(fast, sdk);
    const [viaFast, viaSdk] = [await call(fast, 'tools/call', { name: 'echo', arguments: {} }), await call(sdk, 'tools/call', { name: 'echo', arguments: {} })];
    expect(viaFast.status).toBe(viaSdk.status);
    expect(viaFast.body.toString()).toBe(viaSdk.body.toString());
  });

  it('lets a request go whose client left before its body ended: nothing answered, nothing thrown, the next request served', async () => {
    host = await buildHost([tools], { logger: silentLogger });
    const errors: unknown[] = [];
    const onError = (error: unknown) => void errors.push(error);
    process.on('unhandledRejection', onError);
    try {
      const app = await listen(createMcpApp(host, { sessions: false }));
      apps.push(app);
      const { Socket } = await import('node:net');
      const socket = new Socket();
      await new Promise<void>((resolve) => socket.connect(Number(app.url('/mcp').port), '127.0.0.1', resolve));
      const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'echo', arguments: {}, _meta: MODERN_META } });
      const head = ['POST /mcp HTTP/1.1', `host: 127.0.0.1:${app.url('/mcp').port}`, 'content-type: application/json', 'accept: application/json, text/event-stream', 'mcp-protocol-version: 2026-07-28', 'mcp-method: tools/call', 'mcp-name: echo', `content-length: ${body.length + 100}`, '', ''].join('\r\n');
      const answered: Buffer[] = [];
      socket.on('data', (chunk: Buffer) => answered.push(chunk));
      socket.write(head + body.slice(0, 20));
      await new Promise((resolve) => setTimeout(resolve, 50));
      socket.destroy();
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(Buffer.concat(answered).toString()).toBe('');
      const next = await call(app, 'tools/call', { name: 'echo', arguments: {} });
      expect(next.status).toBe(200);
      expect(next.body.toString()).toContain('echoed');
      expect(errors).toEqual([]);
    } finally {
      process.off('unhandledRejection', onError);
    }
  });

  it('writes the answers of a turn together at its end, each to its own client', async () => {
    host = await buildHost([tools], { logger: silentLogger });
    const app = await listen(createMcpApp(host, { sessions: false }));
    apps.push(app);
    const added = vi.spyOn(turnEndWrites, 'add');
    const written = vi.spyOn(turnEndWrites, 'flush');
    try {
      // 24 clients at once, each on its own connection, each asking who it is: an answer sent to another client would show.
      const callers = Array.from({ length: 24 }, (_, i) => `caller-${i}`);
      const answers = await Promise.all(
        callers.map(
          (caller) =>
            new Promise<string>((resolve, reject) => {
              const body = JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name: 'whoami', arguments: {}, _meta: MODERN_META } });
              const req = httpRequest(app.url('/mcp'), {
                method: 'POST',
                agent: false,
                headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body), 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'tools/call', 'mcp-name': 'whoami', 'x-caller': caller },
              });
              req.on('response', (res) => {
                const chunks: Buffer[] = [];
                res.on('data', (chunk: Buffer) => chunks.push(chunk)).on('end', () => resolve(Buffer.concat(chunks).toString()));
              });
              req.on('error', reject);
              req.end(body);
            }),
        ),
      );
      for (const [i, caller] of callers.entries()) expect(JSON.parse(answers[i]!).result.content[0].text).toBe(`${caller} at /mcp`);
      // Every answer went through the turn's queue, which was written out each time (no answer left waiting).
      expect(added).toHaveBeenCalledTimes(24);
      expect(written.mock.calls.length).toBeGreaterThanOrEqual(1);
      expect(turnEndWrites.size).toBe(0);
    } finally {
      added.mockRestore();
      written.mockRestore();
    }
  });

  it('leaves a blueprint with onServer hooks to the per-request path', async () => {
    const hooked = defineExtension({
      manifest: { name: 'hooked', version: '1.0.0' },
      toolsets: () => [{ name: 'hooked', description: 'Hooked.' }],
      tools: () => [defineTool({ name: 'ping', description: 'Ping.', handler: () => 'pong' })],
      onServer: () => undefined,
    });
    const { fast, host } = await pair({ extensions: [hooked] });
    const before = host[HOST_STATS].fastAnswers;
    const answer = await call(fast, 'tools/call', { name: 'ping', arguments: {} });
    expect(JSON.parse(answer.body.toString()).result.content).toEqual([{ type: 'text', text: 'pong' }]);
    expect(host[HOST_STATS].fastAnswers).toBe(before);
  });
});
