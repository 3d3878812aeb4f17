/**
 * The interop suite: the client libraries people connect agents with, each
 * against the demo over Streamable HTTP with a bearer token from
 * `--auth-tokens-file` — a query selection, the `X-MCP-Toolsets` header, and no
 * token at all. Every tool the server lists must reach the agent through the
 * client's own schema conversion (names asserted); tools are called with
 * arguments, a resource read and a prompt got where the client can.
 *
 * Run it with `pnpm test:interop`. At the end it prints, per client, the
 * version this line runs, the protocol era it negotiated (the
 * `MCP-Protocol-Version` header the server saw) and what else it did.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { aiSdk } from './clients/aiSdk.js';
import { langchain } from './clients/langchain.js';
import { mastra } from './clients/mastra.js';
import { mcpRemote } from './clients/mcpRemote.js';
import { mcpUse } from './clients/mcpUse.js';
import { openaiAgents } from './clients/openaiAgents.js';
import { sdkV1 } from './clients/sdkV1.js';
import { sdkV2 } from './clients/sdkV2.js';
import { clientsRoot, type ClientUnderTest, type Connected } from './clients/types.js';
import { serveDemo, type ServedDemo } from './helpers/demo.js';

const CLIENTS: readonly ClientUnderTest[] = [sdkV1, sdkV2, aiSdk, langchain, openaiAgents, mcpUse, mastra, mcpRemote];

let demo: ServedDemo;
const started = Date.now();
/** What each client noted while converting, for the report. */
const notes = new Map<string, Set<string>>();

beforeAll(async () => {
  demo = await serveDemo();
});

afterAll(async () => {
  await demo?.close();
  if (demo) report();
});

/** The tools the server itself says a selection serves (its /toolsets route), sorted. */
async function served(query: string, headers: Record<string, string> = {}): Promise<string[]> {
  const response = await fetch(`${demo.url.replace(/\/mcp$/, '/toolsets')}${query}`, { headers: { authorization: `Bearer ${demo.token}`, ...headers } });
  expect(response.status).toBe(200);
  return ((await response.json()) as { tools: string[] }).tools.toSorted();
}

const bearer = () => ({ Authorization: `Bearer ${demo.token}` });

describe.each(CLIENTS)('$name', (client) => {
  beforeAll(() => demo.attribute(client.name));
  const named = (served: string) => client.toolName?.(served) ?? served;

  it('with a query selection (?everything): every tool survives the conversion; tools, a resource and a prompt answer', async () => {
    const expected = await served('?everything');
    expect(expected).toEqual(expect.arrayContaining(['echo', 'get-sum', 'list_spaces', 'find_notebooks']));
    const connected = await client.connect({ url: `${demo.url}?everything`, headers: bearer() });
    for (const note of connected.notes ?? []) notes.set(client.name, (notes.get(client.name) ?? new Set()).add(note));
    try {
      expect(connected.toolNames.toSorted()).toEqual(expected.map(named).toSorted());
      expect(await connected.callTool(named('get-sum'), { a: 2, b: 3 })).toContain('The sum of 2 and 3 is 5.');
      expect(await connected.callTool(named('echo'), { message: `hello from ${client.name}` })).toContain(`Echo: hello from ${client.name}`);
      await expectResourceAndPrompt(connected);
    } finally {
      await connected.close();
    }
  });

  it('with the X-MCP-Toolsets header: the toolsets it names, and their tools answer', async () => {
    const expected = await served('', { 'x-mcp-toolsets': 'benchmarks' });
    expect(expected).toEqual(expect.arrayContaining(['best_run', 'list_spaces']));
    const connected = await client.connect({ url: demo.url, headers: { ...bearer(), 'X-MCP-Toolsets': 'benchmarks' } });
    try {
      expect(connected.toolNames.toSorted()).toEqual(expected.map(named).toSorted());
      expect(await connected.callTool('find_notebooks', { query: 'global_temperatures.csv' })).toContain('temperature_trends.ipynb');
      expect(await connected.callTool('best_run', { benchmark: 'gsm8k-mini' })).toContain('gsm8k-mini');
    } finally {
      await connected.close();
    }
  });

  it('is refused without the token (401), and offers no tool', async () => {
    const before = demo.seen.length;
    let connected: Connected | undefined;
    try {
      connected = await client.connect({ url: demo.url, headers: {} });
    } catch {
      // Refused: what most clients do.
    }
    try {
      // Some clients swallow a server that failed to connect and offer its tools as none.
      expect(connected?.toolNames ?? []).toEqual([]);
    } finally {
      await connected?.close();
    }
    const answered = demo.seen.slice(before).filter((r) => r.path === '/mcp');
    expect(answered.length).toBeGreaterThan(0);
    expect(answered.every((r) => r.status === 401)).toBe(true);
  });
});

async function expectResourceAndPrompt(connected: Connected): Promise<void> {
  if (connected.readResource) expect(await connected.readResource('demo://resource/static/document/architecture.md')).toMatch(/\w/);
  if (connected.getPrompt) expect(await connected.getPrompt('args-prompt', { city: 'Lisbon' })).toContain('Lisbon');
}

describe('what the server saw', () => {
  it('answered no client a 5xx, and every discovery probe a 404', () => {
    expect(demo.seen.filter((r) => r.status >= 500)).toEqual([]);
    const probes = demo.seen.filter((r) => r.path.includes('/.well-known/') || r.path === '/register');
    expect(probes.filter((r) => r.status !== 404)).toEqual([]);
  });
});

/** Per client: version, protocol era, and what else it did. Printed, and written to $REACTOR_INTEROP_REPORT when set. */
function report(): void {
  const rows = CLIENTS.map((client) => {
    const seen = demo.seen.filter((r) => r.client === client.name);
    const version = (JSON.parse(readFileSync(join(clientsRoot(), 'node_modules', client.packageName, 'package.json'), 'utf8')) as { version: string }).version;
    return {
      client: client.name,
      package: `${client.packageName}@${version}`,
      protocol: [...new Set(seen.map((r) => r.protocolVersion).filter((v) => v !== undefined))].join(', '),
      requests: seen.length,
      deletes: seen.filter((r) => r.method === 'DELETE').length,
      gets: seen.filter((r) => r.method === 'GET' && r.path === '/mcp').length,
      notes: [...(notes.get(client.name) ?? [])].join('; '),
      probes: [...new Set(seen.filter((r) => r.path !== '/mcp' && !r.path.startsWith('/toolsets')).map((r) => `${r.method} ${r.path} ${r.status}`))].join('; '),
    };
  });
  const summary = { node: process.versions.node, line: process.env.REACTOR_INTEROP_LINE, seconds: Math.round((Date.now() - started) / 100) / 10, clients: rows };
  console.log(`interop on Node ${summary.node} (${summary.line} line), ${summary.seconds}s:`);
  console.table(rows);
  if (process.env.REACTOR_INTEROP_REPORT) writeFileSync(process.env.REACTOR_INTEROP_REPORT, `${JSON.stringify(summary, null, 2)}\n`);
}
