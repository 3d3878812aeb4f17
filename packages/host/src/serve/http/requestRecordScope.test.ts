/**
 * How the access log's request record reaches the spans recorded while
 * answering that request, without an AsyncLocalStorage of our own (on Node 20
 * a store in use turns on promise hooks for every promise of the process):
 * a request span finds it from its handler's `ctx.http.req`; an INTERNAL
 * span (an `onServer` hook) from the OpenTelemetry context, as far as the
 * registered context manager carries it.
 */
import { context } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { BasicTracerProvider } from '@opentelemetry/sdk-trace-base';
import { afterEach, describe, expect, it } from 'vitest';
import { listen, post, type Listening } from '../../../test/helpers/http.js';
import { buildHost, defineExtension, defineTool, silentLogger, type HostOptions } from '../../index.js';
import { currentRequestRecord, requestRecordOf, type RequestRecord } from '../../telemetry/requestRecord.js';
import { createMcpApp } from './app.js';

interface Seen {
  readonly fromRequest: RequestRecord | undefined;
  readonly fromContext: RequestRecord | undefined;
}
let seen: Seen[] = [];
let seenByHook: Array<RequestRecord | undefined> = [];
const probe = defineExtension({
  manifest: { name: 'probe', version: '1.0.0' },
  tools: () => [
    defineTool({
      name: 'where_am_i',
      description: 'Notes the request record its call runs under.',
      handler: (_args, ctx) => {
        seen.push({ fromRequest: requestRecordOf(ctx.http?.req), fromContext: currentRequestRecord() });
        return 'noted';
      },
    }),
  ],
  onServer: () => {
    seenByHook.push(currentRequestRecord());
  },
});

let served: Listening | undefined;
afterEach(async () => {
  await served?.close();
  served = undefined;
  seen = [];
  seenByHook = [];
  context.disable();
});

const MODERN_META = { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': {}, 'io.modelcontextprotocol/clientInfo': { name: 'probe', version: '1.0.0' } };

async function callOnce(hostOptions: Partial<HostOptions>, era: '2026' | '2025' = '2026'): Promise<void> {
  const host = await buildHost([probe], { logger: silentLogger, ...hostOptions });
  served = await listen(createMcpApp(host, { accessLog: true, logger: silentLogger }));
  const response =
    era === '2026'
      ? await post(served.url('/mcp'), { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'where_am_i', arguments: {}, _meta: MODERN_META } }, { 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'tools/call', 'mcp-name': 'where_am_i' })
      : await post(served.url('/mcp'), { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'where_am_i', arguments: {} } }, { 'mcp-protocol-version': '2025-11-25' });
  expect(response.status).toBe(200);
  await response.text();
}

describe('the request record', () => {
  it('is attached to nothing without telemetry, though the access log is on', async () => {
    await callOnce({});
    expect(seen).toEqual([{ fromRequest: undefined, fromContext: undefined }]);
  });

  it.each(['2026', '2025'] as const)('reaches a %s request span through the handler context, with no context manager registered', async (era) => {
    await callOnce({ telemetry: { tracerProvider: new BasicTracerProvider() } }, era);
    expect(seen).toHaveLength(1);
    expect(seen[0]?.fromRequest).toMatchObject({ transport: 'tcp' });
    // The no-op context manager carries nothing: no store of ours runs behind the application's back.
    expect(seen[0]?.fromContext).toBeUndefined();
  });

  it('reaches onServer hooks through the OpenTelemetry context when a context manager is registered (as the Node SDK does)', async () => {
    context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
    await callOnce({ telemetry: { tracerProvider: new BasicTracerProvider() } });
    expect(seenByHook).toHaveLength(1);
    expect(seenByHook[0]).toMatchObject({ transport: 'tcp' });
    expect(seenByHook[0]).toBe(seen[0]?.fromRequest);
  });
});
