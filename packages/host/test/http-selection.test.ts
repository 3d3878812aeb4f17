/**
 * The URL (or header) decides what is served: every selection form, through
 * real clients of both SDK generations and both protocol eras, over real HTTP.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMcpApp, LIST_SERVER_TOOLSETS, type McpHost } from '../src/index.js';
import { fixtureHost } from './helpers/fixtures.js';
import { CLIENT_KINDS, connectClient, listen, textOf, type Listening } from './helpers/http.js';

let host: McpHost;
let served: Listening;

beforeAll(async () => {
  host = await fixtureHost({ instructions: 'Fixture server.' });
  served = await listen(createMcpApp(host));
});
afterAll(async () => {
  await served.close();
  await host.stop();
});

const selections: Array<{ form: string; path: string; headers?: Record<string, string>; tools: string[] }> = [
  { form: 'no selection: always + default toolsets', path: '/mcp', tools: ['list_spaces', 'whoami'] },
  { form: 'a bare name adds an opt-in toolset', path: '/mcp?library', tools: ['find_book', 'list_spaces', 'whoami'] },
  { form: 'toolsets= adds, waking a held extension', path: '/mcp?toolsets=benchmarks,library', tools: ['find_book', 'list_spaces', 'run_benchmark', 'whoami'] },
  { form: 'only= replaces the defaults (always stays)', path: '/mcp?only=library', tools: ['find_book', 'whoami'] },
  { form: 'without= drops a default', path: '/mcp?without=spaces', tools: ['whoami'] },
  { form: 'the path below the endpoint', path: '/mcp/only=library', tools: ['find_book', 'whoami'] },
  { form: 'the path with a name list', path: '/mcp/benchmarks,library', tools: ['find_book', 'list_spaces', 'run_benchmark', 'whoami'] },
  { form: 'the X-MCP-Toolsets header', path: '/mcp', headers: { 'x-mcp-toolsets': 'only=library' }, tools: ['find_book', 'whoami'] },
  { form: 'query, path and header united', path: '/mcp/library?without=spaces', headers: { 'x-mcp-toolsets': 'benchmarks' }, tools: ['find_book', 'run_benchmark', 'whoami'] },
  { form: 'a trailing slash (no redirect)', path: '/mcp/', tools: ['list_spaces', 'whoami'] },
];

describe.each(CLIENT_KINDS)('%s', (kind) => {
  it.each(selections)('serves $form', async ({ path, headers, tools }) => {
    const client = await connectClient(kind, served.url(path), headers);
    try {
      expect((await client.toolNames()).sort()).toEqual(tools);
    } finally {
      await client.close();
    }
  });

  it('negotiates the protocol era it asked for', async () => {
    const client = await connectClient(kind, served.url('/mcp'));
    try {
      expect(client.protocolVersion()).toBe(kind.includes('2026') ? '2026-07-28' : '2025-11-25');
      expect(client.sessionId() !== undefined).toBe(!kind.includes('2026'));
    } finally {
      await client.close();
    }
  });

  it('refuses a tool of an inactive toolset with the SDK protocol error, and calls an active one', async () => {
    const client = await connectClient(kind, served.url('/mcp?only=library'));
    try {
      expect(textOf(await client.callTool('find_book', { title: 'Dune' }))).toBe('found Dune');
      await expect(client.callTool('list_spaces')).rejects.toThrow(/Tool list_spaces not found/);
    } finally {
      await client.close();
    }
  });

  it('sends the instructions of the active toolsets only', async () => {
    const withLibrary = await connectClient(kind, served.url('/mcp?library'));
    const without = await connectClient(kind, served.url('/mcp?only='));
    try {
      expect(withLibrary.instructions()).toContain('Fixture server.');
      expect(withLibrary.instructions()).toContain('Library: search by title.');
      expect(withLibrary.instructions()).toContain('Spaces: list them first.');
      expect(without.instructions()).toBe('Fixture server.');
    } finally {
      await withLibrary.close();
      await without.close();
    }
  });
});

describe('list_server_toolsets over HTTP', () => {
  let toolHost: McpHost;
  let toolServed: Listening;
  beforeAll(async () => {
    toolHost = await fixtureHost({ toolsetsTool: true });
    toolServed = await listen(createMcpApp(toolHost));
  });
  afterAll(async () => {
    await toolServed.close();
    await toolHost.stop();
  });

  it.each(CLIENT_KINDS)('reports the unknown names of this very URL (%s)', async (kind) => {
    const client = await connectClient(kind, toolServed.url('/mcp/Library?nosuch'));
    try {
      const result = await client.callTool(LIST_SERVER_TOOLSETS);
      const body = result.structuredContent as { active: string[]; unknown: string[]; howToSelect: string };
      expect(body.unknown).toEqual(['Library', 'nosuch']);
      expect(body.active).toEqual(['core', 'spaces']);
      expect(body.howToSelect).toContain('?only=');
    } finally {
      await client.close();
    }
  });
});
