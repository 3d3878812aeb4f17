/**
 * `OTEL_EXPORTER_OTLP_ENDPOINT=… reactor-mcp-server`: the built command, run
 * as a user runs it, turns the OpenTelemetry Node SDK on and exports the spans
 * and metrics of a real tools/call over OTLP/HTTP to a receiver.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { extensionSource, layoutApp, type FixtureApp } from './fixtures/packages.js';
import { killCommand, startCommand, type CommandChild } from './helpers/commandChild.js';
import { attributesOf, startOtlpReceiver, type OtlpReceiver } from './helpers/otlpReceiver.js';

const hostDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const cli = path.join(hostDir, 'dist', 'cli.js');

let app: FixtureApp;
let receiver: OtlpReceiver | undefined;
let child: CommandChild | undefined;

beforeAll(async () => {
  if (!existsSync(cli)) throw new Error(`${cli} is missing: run pnpm build (pnpm test does) before this test`);
  app = await layoutApp('pnpm', [
    {
      name: '@acme/ext-spaces',
      reactorMcp: { extensions: { spaces: { module: './index.js', toolsets: [{ name: 'spaces', description: 'Spaces.' }] } } },
      files: { 'index.js': extensionSource({ name: 'spaces', toolsets: [{ name: 'spaces', description: 'Spaces.' }], tools: ['list_spaces'] }) },
    },
  ]);
});
afterEach(async () => {
  if (child) await killCommand(child);
  await receiver?.close();
  child = undefined;
  receiver = undefined;
});
afterAll(() => app.remove());

const isSummary = (l: Record<string, unknown>) => typeof l.url === 'string' && 'loaded' in l;

/** Starts a receiver and the command exporting to it over OTLP/HTTP (JSON), with these variables too; a client connected to its /mcp. */
async function exportingTo(env: Record<string, string>): Promise<{ command: CommandChild; receiver: OtlpReceiver; client: Client }> {
  const started = await startOtlpReceiver();
  receiver = started;
  const command = startCommand(cli, app.root, ['--port', '0'], { OTEL_EXPORTER_OTLP_ENDPOINT: started.endpoint, OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json', ...env });
  child = command;
  const summary = await command.line(isSummary);
  const client = new Client({ name: 'otel-test', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(summary.url as string)));
  return { command, receiver: started, client };
}

describe('the command with OTEL_* variables', () => {
  it('exports the tools/call server span and the operation histogram over OTLP/HTTP, flushed on SIGTERM', async () => {
    const { command, receiver: otlp, client } = await exportingTo({ OTEL_SERVICE_NAME: 'mcp-under-test' });
    expect(await command.line((l) => Array.isArray(l.otel))).toMatchObject({ otel: ['OTEL_EXPORTER_OTLP_ENDPOINT'] });

    const traceId = '4bf92f3577b34da6a3ce929d0e0e4736';
    await client.callTool({ name: 'list_spaces', _meta: { traceparent: `00-${traceId}-00f067aa0ba902b7-01` } });
    const protocolVersion = client.getNegotiatedProtocolVersion();
    // The access log line of the call carries the trace it continued.
    expect((await command.line((l) => l.trace_id === traceId)).msg).toMatch(/^POST \/mcp 200 /);
    await client.close();

    // A graceful stop flushes the SDK's batches.
    command.process.kill('SIGTERM');
    const span = await otlp.span((s) => s.name === 'tools/call list_spaces');
    expect(await command.exited).toBe(0);
    expect(span.traceId).toBe(traceId);
    expect(span.parentSpanId).toBe('00f067aa0ba902b7');
    expect(span.kind).toBe(2); // SPAN_KIND_SERVER
    expect(attributesOf(span.attributes)).toMatchObject({
      'mcp.method.name': 'tools/call',
      'gen_ai.tool.name': 'list_spaces',
      'gen_ai.operation.name': 'execute_tool',
      'reactor.extension': 'spaces',
      'reactor.toolset': 'spaces',
      'mcp.protocol.version': protocolVersion,
    });
    expect(otlp.services).toContain('mcp-under-test');

    const duration = await otlp.metric('mcp.server.operation.duration');
    expect(duration.unit).toBe('s');
    const point = duration.histogram!.dataPoints.find((p) => attributesOf(p.attributes)['gen_ai.tool.name'] === 'list_spaces');
    expect(Number(point?.count)).toBe(1);
  });

  it('samples traces as the standard variables say (the lever docs/observability.md gives for overhead): a dropped span is not exported, the histogram still counts every call', async () => {
    // No root span is sampled; a caller's sampled trace is followed.
    const { command, receiver: otlp, client } = await exportingTo({ OTEL_TRACES_SAMPLER: 'parentbased_traceidratio', OTEL_TRACES_SAMPLER_ARG: '0' });
    await client.callTool({ name: 'list_spaces' });
    await client.callTool({ name: 'list_spaces' });
    const sampled = '5bf92f3577b34da6a3ce929d0e0e4737';
    await client.callTool({ name: 'list_spaces', _meta: { traceparent: `00-${sampled}-00f067aa0ba902b7-01` } });
    await client.callTool({ name: 'list_spaces', _meta: { traceparent: `00-6bf92f3577b34da6a3ce929d0e0e4738-00f067aa0ba902b7-00` } });
    await client.close();

    command.process.kill('SIGTERM');
    const span = await otlp.span((s) => s.name === 'tools/call list_spaces');
    expect(await command.exited).toBe(0);
    expect(span.traceId).toBe(sampled);
    // The exit flushed every batch: the sampled call's span is the only one.
    expect(otlp.spans.filter((s) => s.name === 'tools/call list_spaces')).toHaveLength(1);
    const duration = await otlp.metric('mcp.server.operation.duration');
    const point = duration.histogram!.dataPoints.find((p) => attributesOf(p.attributes)['gen_ai.tool.name'] === 'list_spaces');
    expect(Number(point?.count)).toBe(4);
  });

  it('stays off without OTEL_* variables asking, and with OTEL_SDK_DISABLED=true', async () => {
    receiver = await startOtlpReceiver();
    child = startCommand(cli, app.root, ['--port', '0'], { OTEL_EXPORTER_OTLP_ENDPOINT: receiver.endpoint, OTEL_SDK_DISABLED: 'true' });
    await child.line(isSummary);
    expect(child.stderr).not.toContain('OpenTelemetry');
  });
});
