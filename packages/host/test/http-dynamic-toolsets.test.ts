/**
 * Dynamic toolsets over real HTTP, with real clients of both SDK generations:
 * a `?dynamic` session starts with what its URL selects plus
 * `list_available_toolsets`, `get_toolset_tools` and `enable_toolset`; turning
 * a toolset on wakes its held extension, changes that session's tools and
 * sends `notifications/tools/list_changed`. Scopes and read-only bound what
 * can be turned on exactly as they bound a URL. A 2026-07-28 request has no
 * session to change: `enable_toolset` answers the selection to send next.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { Client as V1Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as V1Transport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ToolListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { OAuthError, OAuthErrorCode, type AuthInfo } from '@modelcontextprotocol/server';
import { createMcpApp, defineExtension, defineTool, type CallToolResult, type McpAppOptions } from '../src/index.js';
import { MemoryRegistry, SharedState } from './helpers/memoryRegistry.js';
import { fixtureHost, heldBenchmarks } from './helpers/fixtures.js';
import { connectClient, jsonOf, listen, textOf, type Listening } from './helpers/http.js';

const DYNAMIC_TOOLS = ['enable_toolset', 'get_toolset_tools', 'list_available_toolsets'];

const admin = defineExtension({
  manifest: { name: 'admin', version: '1.0.0' },
  toolsets: () => [{ name: 'admin', default: false, scopes: ['admin'], description: 'Administration.' }],
  tools: () => [defineTool({ name: 'reset_everything', description: 'Reset.', handler: () => 'reset' })],
});

const inAnHour = () => Math.floor(Date.now() / 1000) + 3600;
const tokens: Record<string, Omit<AuthInfo, 'token'>> = {
  alice: { clientId: 'alice', scopes: ['mcp'], expiresAt: inAnHour() },
  bob: { clientId: 'bob', scopes: ['mcp', 'admin'], expiresAt: inAnHour() },
};
const verifier = {
  verifyAccessToken(token: string): Promise<AuthInfo> {
    const info = tokens[token];
    return info ? Promise.resolve({ token, ...info }) : Promise.reject(new OAuthError(OAuthErrorCode.InvalidToken, 'unknown token'));
  },
};

/** A session client of either generation that counts `tools/list_changed`. */
interface Session {
  tools(): Promise<string[]>;
  call(name: string, args?: Record<string, unknown>): Promise<CallToolResult>;
  /** Resolves at the next `notifications/tools/list_changed`. */
  nextListChanged(): Promise<void>;
  close(): Promise<void>;
}

async function openSession(kind: 'v1' | 'v2', url: URL, headers: Record<string, string> = {}): Promise<Session> {
  let waiting: Array<() => void> = [];
  const changed = () => {
    const resolve = waiting;
    waiting = [];
    for (const r of resolve) r();
  };
  const nextListChanged = () => new Promise<void>((resolve) => waiting.push(resolve));
  if (kind === 'v1') {
    const client = new V1Client({ name: 'v1-dynamic', version: '1.0.0' });
    client.setNotificationHandler(ToolListChangedNotificationSchema, () => changed());
    await client.connect(new V1Transport(url, { requestInit: { headers } }));
    return {
      tools: async () => (await client.listTools()).tools.map((t) => t.name).sort(),
      call: async (name, args = {}) => (await client.callTool({ name, arguments: args })) as CallToolResult,
      nextListChanged,
      close: () => client.close(),
    };
  }
  const client = new Client({ name: 'v2-dynamic', version: '1.0.0' });
  client.setNotificationHandler('notifications/tools/list_changed', () => changed());
  await client.connect(new StreamableHTTPClientTransport(url, { requestInit: { headers } }));
  return {
    tools: async () => (await client.listTools()).tools.map((t) => t.name).sort(),
    call: async (name, args = {}) => await client.callTool({ name, arguments: args }),
    nextListChanged,
    close: () => client.close(),
  };
}

const open: Array<{ close(): Promise<void> }> = [];
afterEach(async () => {
  for (const thing of open.splice(0).reverse()) await thing.close();
});

async function serve(appOptions: McpAppOptions = {}, held = heldBenchmarks()): Promise<{ served: Listening; held: ReturnType<typeof heldBenchmarks> }> {
  const host = await fixtureHost({}, [admin], held);
  const served = await listen(createMcpApp(host, appOptions));
  open.push({ close: async () => { await served.close(); await host.stop(); } });
  return { served, held };
}

async function session(kind: 'v1' | 'v2', url: URL, headers?: Record<string, string>): Promise<Session> {
  const s = await openSession(kind, url, headers);
  open.push(s);
  return s;
}

describe.each(['v1', 'v2'] as const)('a dynamic 2025 session (%s client)', (kind) => {
  it('starts with its selection plus the three tools; enable_toolset wakes benchmarks, tells the client and serves its tool', async () => {
    const { served, held } = await serve();
    const s = await session(kind, served.url('/mcp?dynamic'));
    expect(await s.tools()).toEqual([...DYNAMIC_TOOLS, 'list_spaces', 'whoami'].sort());
    expect(held.loads()).toBe(0);

    const listed = jsonOf<{ toolsets: Array<{ name: string; enabled: boolean; toolCount: number | null }> }>(await s.call('list_available_toolsets'));
    expect(listed.toolsets.map((t) => [t.name, t.enabled, t.toolCount])).toEqual([
      ['core', true, 1],
      ['spaces', true, 1],
      ['library', false, 1],
      ['benchmarks', false, null],
      // Without auth no scope is checked, as for a URL.
      ['admin', false, 1],
    ]);
    expect(held.loads()).toBe(0);

    const changed = s.nextListChanged();
    const enabled = jsonOf<{ enabled: boolean; tools: string[]; toolsets: string[] }>(await s.call('enable_toolset', { toolset: 'benchmarks' }));
    await changed;
    expect(enabled).toMatchObject({ enabled: true, tools: ['run_benchmark'] });
    expect(held.loads()).toBe(1);
    expect(await s.tools()).toEqual([...DYNAMIC_TOOLS, 'list_spaces', 'run_benchmark', 'whoami'].sort());
    expect(textOf(await s.call('run_benchmark'))).toBe('run 1: ok');
    // The handlers see the session's grown set of toolsets.
    expect(jsonOf<{ toolsets: string[] }>(await s.call('whoami')).toolsets).toEqual(['benchmarks', 'core', 'spaces']);
  });
});

describe('dynamic toolsets: bounds', () => {
  it('an unknown toolset is refused with the names that exist', async () => {
    const { served } = await serve();
    const s = await session('v2', served.url('/mcp?dynamic'));
    const refused = await s.call('enable_toolset', { toolset: 'benchmark' });
    expect(refused.isError).toBe(true);
    expect(textOf(refused)).toContain('"benchmarks"');
    expect(textOf(refused)).toContain('did you mean "benchmarks"?');
    expect(await s.tools()).not.toContain('run_benchmark');
  });

  it('a token without the toolset\'s scope cannot enable it (nor see it listed); one with the scope can', async () => {
    const { served } = await serve({ auth: { verifier } });
    const alice = await session('v2', served.url('/mcp?dynamic'), { authorization: 'Bearer alice' });
    const listed = jsonOf<{ toolsets: Array<{ name: string }> }>(await alice.call('list_available_toolsets'));
    expect(listed.toolsets.map((t) => t.name)).not.toContain('admin');
    const refused = await alice.call('enable_toolset', { toolset: 'admin' });
    expect(refused.isError).toBe(true);
    expect(textOf(refused)).toContain('scope(s) admin');
    expect(await alice.tools()).not.toContain('reset_everything');

    const bob = await session('v1', served.url('/mcp?dynamic'), { authorization: 'Bearer bob' });
    const changed = bob.nextListChanged();
    expect(jsonOf<{ enabled: boolean }>(await bob.call('enable_toolset', { toolset: 'admin' })).enabled).toBe(true);
    await changed;
    expect(await bob.tools()).toContain('reset_everything');
  });

  it('read-only mode never exposes a non-read-only tool through enable_toolset', async () => {
    const { served } = await serve({ readOnly: true });
    const s = await session('v2', served.url('/mcp?dynamic'));
    // find_book has no readOnlyHint: the operator's bound leaves it out.
    const tools = jsonOf<{ tools: unknown[] }>(await s.call('get_toolset_tools', { toolset: 'library' }));
    expect(tools.tools).toEqual([]);
    const enabled = jsonOf<{ enabled: boolean; tools: string[] }>(await s.call('enable_toolset', { toolset: 'library' }));
    expect(enabled).toMatchObject({ enabled: true, tools: [] });
    expect(await s.tools()).not.toContain('find_book');
    expect(await s.tools()).toContain('enable_toolset');
  });
});

describe('dynamic toolsets: the app option and the 2026-07-28 protocol', () => {
  it('dynamicToolsets makes every connection dynamic unless it says dynamic=false', async () => {
    const { served } = await serve({ dynamicToolsets: true });
    const dynamic = await session('v2', served.url('/mcp'));
    expect(await dynamic.tools()).toEqual(expect.arrayContaining(DYNAMIC_TOOLS));
    const plain = await session('v1', served.url('/mcp?dynamic=false'));
    expect(await plain.tools()).toEqual(['list_spaces', 'whoami']);
  });

  it('a 2026-07-28 client has no session to change: enable_toolset answers the selection to use next', async () => {
    const { served, held } = await serve();
    const modern = await connectClient('v2 client, 2026-07-28 protocol', served.url('/mcp?dynamic'));
    open.push(modern);
    expect(modern.protocolVersion()).toBe('2026-07-28');
    const answer = jsonOf<{ enabled: boolean; selection: string; howToUse: string }>(await modern.callTool('enable_toolset', { toolset: 'benchmarks' }));
    expect(answer.enabled).toBe(false);
    expect(answer.selection).toBe('toolsets=benchmarks&dynamic');
    expect(answer.howToUse).toContain(`?${answer.selection}`);
    expect(held.loads()).toBe(1);
    // The request's own surface did not change…
    expect(await modern.toolNames()).not.toContain('run_benchmark');
    // …the selection it was given serves the toolset.
    const next = await connectClient('v2 client, 2026-07-28 protocol', served.url(`/mcp?${answer.selection}`));
    open.push(next);
    expect(await next.toolNames()).toContain('run_benchmark');
    expect(textOf(await next.callTool('run_benchmark'))).toBe('run 1: ok');
  });
});

describe('dynamic toolsets across replicas', () => {
  it('the enabled set is part of the session\'s record: another replica taking the session over keeps it', async () => {
    const shared = new SharedState();
    const a = await serve({ sessionRegistry: new MemoryRegistry('a', shared), nodeId: 'a' });
    const b = await serve({ sessionRegistry: new MemoryRegistry('b', shared), nodeId: 'b' });
    const route = { to: a.served.origin };
    const transport = new StreamableHTTPClientTransport(a.served.url('/mcp?dynamic'), {
      fetch: (input, init) => {
        const url = new URL(input instanceof Request ? input.url : input);
        return fetch(new URL(url.pathname + url.search, route.to), init);
      },
    });
    const client = new Client({ name: 'moving', version: '1.0.0' });
    open.push(client);
    await client.connect(transport);
    const id = transport.sessionId!;
    await client.callTool({ name: 'enable_toolset', arguments: { toolset: 'benchmarks' } });
    expect(shared.records.get(id)).toMatchObject({ node: 'a', selection: 'toolsets=benchmarks&dynamic', toolsets: ['core', 'spaces', 'benchmarks'] });

    await a.served.close();
    route.to = b.served.origin;
    const names = (await client.listTools()).tools.map((t) => t.name).sort();
    expect(names).toEqual([...DYNAMIC_TOOLS, 'list_spaces', 'run_benchmark', 'whoami'].sort());
    expect(shared.records.get(id)).toMatchObject({ node: 'b', revision: 1 });
    expect(b.held.loads()).toBe(1);
    expect((await client.callTool({ name: 'run_benchmark', arguments: {} })).content).toEqual([{ type: 'text', text: 'run 1: ok' }]);
  });
});

/** An opt-in toolset that brings a resource and a prompt, not only a tool. */
const notes = defineExtension({
  manifest: { name: 'notes', version: '1.0.0' },
  toolsets: () => [{ name: 'notes', default: false, description: 'Notes: a tool, a resource and a prompt.' }],
  tools: () => [defineTool({ name: 'add_note', description: 'Add a note.', handler: () => 'added' })],
  resources: () => [{ name: 'notes-index', uri: 'notes://index', toolset: 'notes', read: (uri: URL) => ({ contents: [{ uri: uri.href, text: 'the notes' }] }) }],
  prompts: () => [{ name: 'summarize_notes', toolset: 'notes', description: 'Summarize the notes.', get: () => ({ messages: [{ role: 'user' as const, content: { type: 'text' as const, text: 'Summarize them.' } }] }) }],
});

describe('a dynamic session whose enabled toolset brings resources and prompts', () => {
  it('serves them at once and tells the client the resource and prompt lists changed (v2 client)', async () => {
    const host = await fixtureHost({}, [notes]);
    const served = await listen(createMcpApp(host));
    open.push({ close: async () => { await served.close(); await host.stop(); } });
    const client = new Client({ name: 'v2-dynamic-content', version: '1.0.0' });
    const heard: string[] = [];
    client.setNotificationHandler('notifications/resources/list_changed', () => void heard.push('resources'));
    client.setNotificationHandler('notifications/prompts/list_changed', () => void heard.push('prompts'));
    await client.connect(new StreamableHTTPClientTransport(served.url('/mcp?dynamic')));
    open.push(client);
    // Advertised up front: a toolset enabled later may bring the first of either.
    expect(client.getServerCapabilities()?.resources?.listChanged).toBe(true);
    expect(client.getServerCapabilities()?.prompts?.listChanged).toBe(true);
    expect((await client.listResources()).resources.map((r) => r.uri)).not.toContain('notes://index');
    expect((await client.listPrompts()).prompts.map((p) => p.name)).not.toContain('summarize_notes');

    await client.callTool({ name: 'enable_toolset', arguments: { toolset: 'notes' } });
    expect((await client.listResources()).resources.map((r) => r.uri)).toContain('notes://index');
    expect((await client.listPrompts()).prompts.map((p) => p.name)).toContain('summarize_notes');
    expect((await client.readResource({ uri: 'notes://index' })).contents).toEqual([{ uri: 'notes://index', text: 'the notes' }]);
    expect((await client.getPrompt({ name: 'summarize_notes' })).messages[0]?.content).toEqual({ type: 'text', text: 'Summarize them.' });
    await vi.waitFor(() => expect(heard.sort()).toEqual(['prompts', 'resources']));
  });
});
