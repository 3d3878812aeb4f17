/**
 * Adopted servers over real HTTP, with real clients of both SDK lines and both
 * protocol eras: a recorded v1 module and a proxied process served side by
 * side, and a Reactor app adopted as a remote server.
 */
import { fileURLToPath } from 'node:url';
import { dirname, join } from 'node:path';
import { buildHost, createMcpApp, silentLogger, type McpHost } from '@reactor/host';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLIENT_KINDS, connectClient, listen, textOf, type Listening } from '../../host/test/helpers/http.js';
import { adoptProcess, adoptRemote, adoptServer, type AdoptedProxy } from '../src/index.js';
import { register as registerV1Zod3 } from './fixtures/v1-zod3.js';

const crashy = join(dirname(fileURLToPath(import.meta.url)), 'fixtures', 'crashy-server.mjs');

let host: McpHost;
let served: Listening;
let proxied: AdoptedProxy;
beforeAll(async () => {
  proxied = await adoptProcess({ name: 'crashy', command: process.execPath, args: [crashy], toolset: { name: 'crashy', default: false }, logger: silentLogger });
  host = await buildHost([await adoptServer(registerV1Zod3, { name: 'legacy', from: 'fixture@1.0.0', logger: silentLogger }), proxied], { logger: silentLogger, strict: true });
  served = await listen(createMcpApp(host, { sessions: true }));
});
afterAll(async () => {
  await served?.close();
  await host?.stop();
});

describe.each(CLIENT_KINDS)('adopted servers over HTTP with a %s', (kind) => {
  it('serves the recorded module by default and the proxied process when asked', async () => {
    const client = await connectClient(kind, served.url('/mcp'));
    try {
      expect(await client.toolNames()).toEqual(['repeat', 'whoami', 'bad_name_']);
      expect(textOf(await client.callTool('repeat', { word: 'http', times: 2 }))).toBe('HTTP HTTP');
    } finally {
      await client.close();
    }
    const both = await connectClient(kind, served.url('/mcp?crashy'));
    try {
      expect(await both.toolNames()).toEqual(expect.arrayContaining(['repeat', 'pid', 'progress']));
      expect(textOf(await both.callTool('progress', { steps: 2 }))).toBe('2 steps');
    } finally {
      await both.close();
    }
  });
});

describe('GET /toolsets', () => {
  it('shows what was adopted, from where and how', async () => {
    const body = (await (await fetch(served.url('/toolsets?crashy'))).json()) as { toolsets: Array<{ name: string; description: string }>; provenance: Record<string, { offeredBy: string }> };
    expect(body.toolsets).toEqual(expect.arrayContaining([
      expect.objectContaining({ name: 'legacy', description: 'Tools adopted from fixture@1.0.0 (recorded).' }),
      expect.objectContaining({ name: 'crashy', description: `Tools adopted from ${process.execPath} ${crashy} (process).` }),
    ]));
    expect(body.provenance.repeat).toEqual({ offeredBy: 'legacy', extendedBy: [] });
    expect(body.provenance.pid).toEqual({ offeredBy: 'crashy', extendedBy: [] });
  });
});

describe('a Reactor app adopted as a remote server (adoptRemote)', () => {
  it('lists and forwards over Streamable HTTP, headers included', async () => {
    const remote = await adoptRemote({ name: 'remote', url: served.url('/mcp'), headers: { 'X-MCP-Toolsets': 'crashy' }, prefix: 'r_', logger: silentLogger });
    expect(remote.adoption.tools.map((t) => t.name)).toEqual(expect.arrayContaining(['r_repeat', 'r_pid']));
    const front = await buildHost([remote], { logger: silentLogger, strict: true });
    const app = await listen(createMcpApp(front));
    try {
      const client = await connectClient('v1 client (sdk 1.32)', app.url('/mcp'));
      expect(textOf(await client.callTool('r_repeat', { word: 'far' }))).toBe('FAR FAR');
      await client.close();
    } finally {
      await app.close();
      await front.stop();
    }
    expect(remote.connection.state).toBe('stopped');
  });
});
