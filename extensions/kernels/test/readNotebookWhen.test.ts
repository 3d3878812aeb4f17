/**
 * kernels extends spaces' `read_notebook` (cell ids, live kernel state, a
 * description that sends the model to execute_cell) — but only where the
 * kernels toolset is served. Once one client's `?kernels` wakes kernels, a
 * plain `/mcp` client still gets `read_notebook` as spaces made it: it is
 * never told about execute_cell, a tool it does not have.
 *
 * Real clients over real HTTP. No Jupyter Server is needed: the extension
 * only has to be awake (a configured server is connected to lazily).
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { createSpacesExtension } from '@reactor/ext-spaces';
import { buildHost, createMcpApp, silentLogger, type McpApp, type McpHost } from '@reactor/host';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createKernelsExtension } from '../src/index.js';
import { copyLab, type LabCopy } from './helpers/lab.js';

let lab: LabCopy;
let host: McpHost;
let app: McpApp;
let server: http.Server;
let url: string;
const clients: Client[] = [];

beforeAll(async () => {
  lab = copyLab();
  // A port nothing listens on: this test never reaches Jupyter, it only needs kernels awake.
  const kernels = createKernelsExtension({ jupyter: { url: 'http://127.0.0.1:9/', token: 'unused', rootDir: lab.root }, spaces: { roots: [lab.root] }, logger: silentLogger });
  host = await buildHost([createSpacesExtension({ roots: [lab.root] }), kernels], { strict: true, logger: silentLogger });
  app = createMcpApp(host);
  server = http.createServer(app);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`;
});

afterAll(async () => {
  for (const client of clients.splice(0)) await client.close().catch(() => {});
  await app?.close();
  if (server) await new Promise((resolve) => server.close(resolve));
  await host?.stop();
  lab?.remove();
});

async function connect(query: string): Promise<Client> {
  const client = new Client({ name: 'read-notebook-when', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${url}${query}`)));
  clients.push(client);
  return client;
}

describe("kernels' read_notebook extension applies only where kernels is served", () => {
  it('tells a ?kernels client about execute_cell, and a plain /mcp client afterwards nothing of it', async () => {
    const withKernels = await connect('?kernels');
    const extended = (await withKernels.listTools()).tools.find((t) => t.name === 'read_notebook');
    expect(extended?.description).toContain('execute_cell');
    expect(host.report().extensions.find((e) => e.name === 'kernels')?.state).toBe('active');

    const plain = await connect('');
    const tools = (await plain.listTools()).tools;
    expect(tools.map((t) => t.name)).not.toContain('execute_cell');
    const readNotebook = tools.find((t) => t.name === 'read_notebook');
    expect(readNotebook?.description).toBeTypeOf('string');
    expect(readNotebook?.description).not.toContain('execute_cell');
    expect(JSON.stringify(readNotebook?.outputSchema)).not.toContain('live_kernel');
    // Its answers are spaces' own too: no cell ids for a tool it lacks, no live_kernel.
    const read = await plain.callTool({ name: 'read_notebook', arguments: { space: 'lab', path: 'alpha.ipynb' } });
    expect(read.isError).toBeFalsy();
    expect(read.structuredContent).not.toHaveProperty('live_kernel');
  });
});
