/**
 * Finer control over HTTP, with real clients of both SDK generations and both
 * protocol eras: single tools (`tools=`, `exclude_tools=`), read-only mode
 * (asked by the URL or imposed by the operator), host-wide middleware, and
 * deprecated tool names — in every selection form (query, path tail, headers).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  buildHost,
  createMcpApp,
  defineExtension,
  defineTool,
  DEPRECATED_NAME_META,
  LIST_SERVER_TOOLSETS,
  silentLogger,
  type HostDescription,
  type McpHost,
  type MiddlewareCall,
} from '../src/index.js';
import { CLIENT_KINDS, connectClient, jsonOf, listen, textOf, type Listening } from './helpers/http.js';

const readOnly = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false };
const writes = { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false };

/** What the middleware saw, in order, across the whole file. */
const audit: string[] = [];

const runs = defineExtension({
  manifest: { name: 'runs', version: '1.0.0' },
  toolsets: () => [{ name: 'runs', description: 'Benchmark runs.' }],
  tools: () => [
    defineTool({ name: 'list_runs', description: 'List runs.', annotations: readOnly, handler: () => ['r1', 'r2'] }),
    defineTool({ name: 'get_run', description: 'Get one run.', aliases: ['fetch_run'], annotations: readOnly, handler: (args: Record<string, unknown>) => `run ${String(args.id)}` }),
    defineTool({ name: 'delete_run', description: 'Delete a run.', annotations: writes, handler: () => 'deleted' }),
    defineTool({ name: 'tag_run', description: 'Tag a run (no annotations).', handler: () => 'tagged' }),
  ],
});

const policy = defineExtension({
  manifest: { name: 'policy', version: '1.0.0' },
  toolsets: () => [{ name: 'policy', description: 'Audit and policy layers.', always: true }],
  middleware: () => [
    {
      name: 'audit',
      order: 10,
      handle: async (call: MiddlewareCall, next) => {
        audit.push(`${call.method} ${call.name ?? ''} by ${call.tool?.extension ?? '?'}`);
        return await next();
      },
    },
    {
      name: 'no-delete-on-fridays',
      handle: (call: MiddlewareCall, next) =>
        call.arguments?.['day'] === 'friday' ? { isError: true, content: [{ type: 'text', text: 'no deletes on Fridays' }] } : next(),
    },
    {
      name: 'flaky',
      order: -1,
      handle: (call: MiddlewareCall, next) => {
        if (call.arguments?.['boom'] === true) throw new Error('flaky layer exploded');
        return next();
      },
    },
  ],
});

let host: McpHost;
let served: Listening;
let readOnlyServed: Listening;

beforeAll(async () => {
  host = await buildHost([runs, policy], { logger: silentLogger, toolsetsTool: true, strict: true });
  served = await listen(createMcpApp(host));
  readOnlyServed = await listen(createMcpApp(host, { readOnly: true }));
});
afterAll(async () => {
  await served.close();
  await readOnlyServed.close();
  await host.stop();
});

const forms: Array<{ form: string; path: string; headers?: Record<string, string>; tools: string[] }> = [
  { form: 'tools= in the query', path: '/mcp?tools=get_run,list_runs', tools: ['get_run', 'list_runs'] },
  { form: 'tools= repeated, with + and %2C separators', path: '/mcp?tools=get_run&tools=list_runs+delete_run%2Ctag_run', tools: ['delete_run', 'get_run', 'list_runs', 'tag_run'] },
  { form: 'exclude_tools= in the query', path: '/mcp?exclude_tools=delete_run,tag_run', tools: ['get_run', 'list_runs'] },
  { form: 'tools= in the path tail', path: '/mcp/runs&tools=get_run', tools: ['get_run'] },
  { form: 'the X-MCP-Tools header', path: '/mcp', headers: { 'x-mcp-tools': 'list_runs' }, tools: ['list_runs'] },
  { form: 'the X-MCP-Exclude-Tools header', path: '/mcp', headers: { 'x-mcp-exclude-tools': 'delete_run, tag_run' }, tools: ['get_run', 'list_runs'] },
  { form: 'readonly in the query', path: '/mcp?readonly', tools: ['get_run', 'list_runs'] },
  { form: 'readonly=true in the path tail', path: '/mcp/readonly=true', tools: ['get_run', 'list_runs'] },
  { form: 'the X-MCP-Readonly header', path: '/mcp', headers: { 'x-mcp-readonly': 'true' }, tools: ['get_run', 'list_runs'] },
  { form: 'tools named by an alias', path: '/mcp?tools=fetch_run', tools: ['get_run'] },
  { form: 'an unknown tool name is served around', path: '/mcp?tools=get_run,nosuch', tools: ['get_run'] },
];

describe.each(CLIENT_KINDS)('%s', (kind) => {
  it.each(forms)('narrows by $form (list_server_toolsets always stays)', async ({ path, headers, tools }) => {
    const client = await connectClient(kind, served.url(path), headers);
    try {
      expect((await client.toolNames()).sort()).toEqual([...tools, LIST_SERVER_TOOLSETS].sort());
    } finally {
      await client.close();
    }
  });

  it('refuses a tool narrowed away, as it refuses a tool of an inactive toolset', async () => {
    const client = await connectClient(kind, served.url('/mcp?readonly'));
    try {
      await expect(client.callTool('delete_run')).rejects.toThrow(/Tool delete_run not found/);
      expect(textOf(await client.callTool('get_run', { id: 7 }))).toBe('run 7');
    } finally {
      await client.close();
    }
  });

  it('answers a deprecated name (never listed) with a hint in _meta', async () => {
    const client = await connectClient(kind, served.url('/mcp'));
    try {
      expect(await client.toolNames()).not.toContain('fetch_run');
      const result = await client.callTool('fetch_run', { id: 3 });
      expect(textOf(result)).toBe('run 3');
      expect(result._meta?.[DEPRECATED_NAME_META]).toMatchObject({ calledAs: 'fetch_run', use: 'get_run' });
    } finally {
      await client.close();
    }
  });

  it('runs middleware around calls: a short-circuit answers, a throwing layer fails that call closed', async () => {
    const client = await connectClient(kind, served.url('/mcp'));
    try {
      const denied = await client.callTool('delete_run', { day: 'friday' });
      expect(denied.isError).toBe(true);
      expect(textOf(denied)).toBe('no deletes on Fridays');
      const failed = await client.callTool('list_runs', { boom: true });
      expect(failed.isError).toBe(true);
      expect(textOf(failed)).toBe('Middleware "flaky" of extension "policy" failed, so this call is refused: flaky layer exploded');
      expect(textOf(await client.callTool('delete_run'))).toBe('deleted');
    } finally {
      await client.close();
    }
  });
});

describe('the operator\'s read-only bound (createMcpApp({ readOnly: true }))', () => {
  it.each(CLIENT_KINDS)('serves only read-only tools to %s, whatever the URL or header says', async (kind) => {
    for (const [path, headers] of [
      ['/mcp', {}],
      ['/mcp?readonly=false', {}],
      ['/mcp/readonly=0', {}],
      ['/mcp?tools=delete_run,get_run', {}],
      ['/mcp', { 'x-mcp-readonly': 'false' }],
    ] as const) {
      const client = await connectClient(kind, readOnlyServed.url(path), headers);
      try {
        const names = await client.toolNames();
        expect(names.every((n) => n === LIST_SERVER_TOOLSETS || n === 'get_run' || n === 'list_runs'), `${path} ${JSON.stringify(headers)}: ${names.join(',')}`).toBe(true);
        await expect(client.callTool('delete_run')).rejects.toThrow(/Tool delete_run not found/);
      } finally {
        await client.close();
      }
    }
  });

  it('reports readonly=false as not obeyed, in /toolsets and in list_server_toolsets', async () => {
    const body = (await (await fetch(readOnlyServed.url('/toolsets?readonly=false'))).json()) as HostDescription;
    expect(body.tools).toEqual(['get_run', 'list_runs', LIST_SERVER_TOOLSETS]);
    expect(body.filter).toEqual({ readOnly: true, readOnlyBy: 'operator', ignored: ['readonly=false'] });
    const client = await connectClient('v2 client, 2026-07-28 protocol', readOnlyServed.url('/mcp?readonly=false'));
    try {
      const listed = jsonOf<HostDescription>(await client.callTool(LIST_SERVER_TOOLSETS));
      expect(listed.filter).toEqual({ readOnly: true, readOnlyBy: 'operator', ignored: ['readonly=false'] });
      expect(listed.tools).not.toContain('delete_run');
    } finally {
      await client.close();
    }
  });
});

describe('/toolsets and list_server_toolsets with tool filters', () => {
  it('shows the narrowed list, the filter, unknown tool names and aliases', async () => {
    const body = (await (await fetch(served.url('/toolsets?tools=fetch_run,nosuch&exclude_tools=tag_run'))).json()) as HostDescription;
    expect(body.tools).toEqual(['get_run', LIST_SERVER_TOOLSETS]);
    expect(body.unknown).toEqual(['nosuch']);
    expect(body.filter).toEqual({ tools: ['fetch_run', 'nosuch'], excludeTools: ['tag_run'], readOnly: false });
    expect(body.provenance['get_run']).toEqual({ offeredBy: 'runs', extendedBy: [], aliases: ['fetch_run'] });
  });

  it('reports unknown tool names in list_server_toolsets too', async () => {
    const client = await connectClient('v2 client, 2025 protocol', served.url('/mcp?tools=list_runs,gone'));
    try {
      expect(jsonOf<HostDescription>(await client.callTool(LIST_SERVER_TOOLSETS)).unknown).toEqual(['gone']);
    } finally {
      await client.close();
    }
  });

  it('says nothing new when no filter is used (the spec\'s shape)', async () => {
    const body = (await (await fetch(served.url('/toolsets'))).json()) as HostDescription;
    expect(body.filter).toBeUndefined();
    expect(body.provenance['list_runs']).toEqual({ offeredBy: 'runs', extendedBy: [] });
  });
});

describe('middleware sees what it wraps', () => {
  it('names the method, the tool, its offering extension, in outermost-first order', async () => {
    audit.length = 0;
    const client = await connectClient('v2 client, 2026-07-28 protocol', served.url('/mcp'));
    try {
      await client.callTool('get_run', { id: 1 });
      await client.callTool('fetch_run', { id: 1 });
    } finally {
      await client.close();
    }
    expect(audit).toEqual(['tools/call get_run by runs', 'tools/call fetch_run by runs']);
  });

  it('reports a failing middleware with its extension in host.report()', () => {
    const problem = host.report().problems.find((p) => p.code === 'REACTOR_MIDDLEWARE_FAILED');
    expect(problem).toMatchObject({ extension: 'policy', subject: 'flaky' });
  });
});
