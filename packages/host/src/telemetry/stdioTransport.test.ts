/**
 * Spans of a stdio connection say how it arrived: `network.transport: pipe`
 * (HTTP requests say `tcp` from their request record; see the access-log tests).
 */
import { PassThrough } from 'node:stream';
import { InMemorySpanExporter, BasicTracerProvider, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { describe, expect, it } from 'vitest';
import { defineExtension } from '../contract/extension.js';
import { buildHost } from '../host/host.js';
import { silentLogger } from '../kernel/logger.js';
import { serveStdio } from '../serve/stdio.js';
import { defineTool } from '../contract/tool.js';

const echo = defineExtension({
  manifest: { name: 'echo', version: '1.0.0' },
  tools: () => [defineTool({ name: 'ping', description: 'Answers pong.', handler: () => 'pong' })],
});

describe('a stdio connection', () => {
  it('records network.transport "pipe" on its request spans', async () => {
    const exporter = new InMemorySpanExporter();
    const tracerProvider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
    const host = await buildHost([echo], { logger: silentLogger, telemetry: { tracerProvider } });
    const stdin = new PassThrough();
    const stdout = new PassThrough();
    const serving = await serveStdio(host, { stdin, stdout, logger: silentLogger });
    const answers = new Map<unknown, (message: Record<string, unknown>) => void>();
    let buffer = '';
    stdout.setEncoding('utf8').on('data', (chunk: string) => {
      buffer += chunk;
      for (let at = buffer.indexOf('\n'); at >= 0; at = buffer.indexOf('\n')) {
        const message = JSON.parse(buffer.slice(0, at)) as Record<string, unknown>;
        buffer = buffer.slice(at + 1);
        answers.get(message['id'])?.(message);
      }
    });
    const request = (id: number, method: string, params: Record<string, unknown>) => {
      const answered = new Promise<Record<string, unknown>>((resolve) => answers.set(id, resolve));
      stdin.write(`${JSON.stringify({ jsonrpc: '2.0', id, method, params })}\n`);
      return answered;
    };
    await request(1, 'initialize', { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'stdio-span-test', version: '1.0.0' } });
    stdin.write(`${JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' })}\n`);
    const called = await request(2, 'tools/call', { name: 'ping', arguments: {} });
    expect(called['result']).toMatchObject({ content: [{ type: 'text', text: 'pong' }] });
    const spans = exporter.getFinishedSpans();
    expect(spans.map((s) => s.name)).toEqual(['tools/call ping']);
    expect(spans[0]!.attributes['network.transport']).toBe('pipe');
    await serving.close();
    await host.stop();
  });
});
