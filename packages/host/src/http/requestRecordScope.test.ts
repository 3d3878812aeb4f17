/**
 * The access log's request record reaches the spans through an
 * AsyncLocalStorage only when the host records spans: on Node 20 a store in
 * use turns on promise hooks for every promise of the process, a cost that
 * requests without telemetry must not pay (counted here, timed in `pnpm bench`).
 */
import { BasicTracerProvider } from '@opentelemetry/sdk-trace-base';
import { afterEach, describe, expect, it } from 'vitest';
import { listen, post, type Listening } from '../../test/helpers/http.js';
import { buildHost, defineExtension, defineTool, silentLogger, type HostOptions } from '../index.js';
import { currentRequestRecord } from '../telemetry/requestRecord.js';
import { createMcpApp } from './app.js';

let seen: Array<ReturnType<typeof currentRequestRecord>> = [];
const probe = defineExtension({
  manifest: { name: 'probe', version: '1.0.0' },
  tools: () => [
    defineTool({
      name: 'where_am_i',
      description: 'Notes the request record its call runs under.',
      handler: () => {
        seen.push(currentRequestRecord());
        return 'noted';
      },
    }),
  ],
});

let served: Listening | undefined;
afterEach(async () => {
  await served?.close();
  served = undefined;
  seen = [];
});

async function callOnce(hostOptions: Partial<HostOptions>): Promise<void> {
  const host = await buildHost([probe], { logger: silentLogger, ...hostOptions });
  served = await listen(createMcpApp(host, { accessLog: true, logger: silentLogger }));
  const response = await post(served.url('/mcp'), { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'where_am_i', arguments: {}, _meta: { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': {}, 'io.modelcontextprotocol/clientInfo': { name: 'probe', version: '1.0.0' } } } }, { 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'tools/call', 'mcp-name': 'where_am_i' });
  expect(response.status).toBe(200);
  await response.text();
}

describe('the request record in async context', () => {
  it('is not there without telemetry, though the access log is on', async () => {
    await callOnce({});
    expect(seen).toEqual([undefined]);
  });

  it('travels with the request when the host records spans', async () => {
    await callOnce({ telemetry: { tracerProvider: new BasicTracerProvider() } });
    expect(seen).toHaveLength(1);
    expect(seen[0]).toMatchObject({ transport: 'tcp' });
  });
});
