/**
 * Views (MCP Apps) over real HTTP, with real clients of both protocol eras:
 * a tool's view is linked in its `_meta` as ext-apps' `registerAppTool` links
 * it, its `ui://` resource is served with the apps MIME type and `_meta.ui`,
 * and both are served only where the tool is — toolset selection (query, path,
 * header), `tools=`, `exclude_tools=`, read-only (asked or imposed), a scope
 * the token lacks, and another tenant.
 */
import { OAuthError, OAuthErrorCode, type AuthInfo } from '@modelcontextprotocol/server';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildHost, createMcpApp, defineExtension, defineTool, defineView, parseSelection, silentLogger, UI_EXTENSION_ID, VIEW_MIME_TYPE, type McpHost } from '../src/index.js';
import { listen, type Listening } from './helpers/http.js';

const readOnly = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false };
const writes = { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false };

const runView = defineView({
  uri: 'ui://runs/run',
  title: 'Run',
  html: '<!doctype html><title>run</title><p id="run">a run</p>',
  csp: { connectDomains: ['https://api.example.com'] },
  prefersBorder: false,
});
const editView = defineView({ uri: 'ui://runs/edit', html: '<!doctype html><p>edit a run</p>' });
const vaultView = defineView({ uri: 'ui://vault/secret', html: '<!doctype html><p>secret</p>' });
const acmeView = defineView({ uri: 'ui://acme/board', html: '<!doctype html><p>acme board</p>' });

const runs = defineExtension({
  manifest: { name: 'runs', version: '1.0.0' },
  toolsets: () => [{ name: 'runs', description: 'Benchmark runs.' }, { name: 'more', description: 'More about runs.' }],
  tools: () => [
    defineTool({ name: 'get_run', description: 'Get one run.', annotations: readOnly, view: runView, meta: { ui: { visibility: ['model', 'app'] } }, handler: () => ({ id: 'r1' }) }),
    // Two tools may share one view: it is served while either is.
    defineTool({ name: 'compare_runs', description: 'Compare runs.', toolset: 'more', annotations: readOnly, view: runView, handler: () => 'same' }),
    defineTool({ name: 'edit_run', description: 'Edit a run.', annotations: writes, view: editView, handler: () => 'edited' }),
    defineTool({ name: 'list_runs', description: 'List runs.', annotations: readOnly, handler: () => ['r1'] }),
  ],
  resources: () => [{ name: 'readme', uri: 'runs://readme', mimeType: 'text/plain', read: () => ({ contents: [{ uri: 'runs://readme', text: 'runs' }] }) }],
});

const vault = defineExtension({
  manifest: { name: 'vault', version: '1.0.0' },
  toolsets: () => [{ name: 'vault', scopes: ['vault'], description: 'Secrets.' }],
  tools: () => [defineTool({ name: 'show_secret', description: 'Show a secret.', annotations: readOnly, view: vaultView, handler: () => 'shh' })],
});

const acme = defineExtension({
  manifest: { name: 'acme', version: '1.0.0', tenants: ['acme'] },
  toolsets: () => [{ name: 'acme', description: 'Acme only.' }],
  tools: () => [defineTool({ name: 'acme_board', description: 'Acme board.', annotations: readOnly, view: acmeView, handler: () => 'board' })],
});

const tokens: Record<string, Omit<AuthInfo, 'token'>> = {
  plain: { clientId: 'plain', scopes: ['mcp'], expiresAt: Math.floor(Date.now() / 1000) + 3600 },
  keeper: { clientId: 'keeper', scopes: ['mcp', 'vault'], expiresAt: Math.floor(Date.now() / 1000) + 3600 },
};
const verifier = {
  verifyAccessToken(token: string): Promise<AuthInfo> {
    const info = tokens[token];
    return info ? Promise.resolve({ token, ...info }) : Promise.reject(new OAuthError(OAuthErrorCode.InvalidToken, 'unknown token'));
  },
};

let host: McpHost;
let open: Listening;
let readOnlyServed: Listening;
let authed: Listening;

beforeAll(async () => {
  host = await buildHost([runs, vault, acme], { logger: silentLogger, strict: true });
  const tenant = (req: { headers: Record<string, string | string[] | undefined> }) => (req.headers['x-tenant'] === 'acme' ? 'acme' : undefined);
  open = await listen(createMcpApp(host, { tenant }));
  readOnlyServed = await listen(createMcpApp(host, { readOnly: true }));
  authed = await listen(createMcpApp(host, { auth: { verifier } }));
});
afterAll(async () => {
  await open.close();
  await readOnlyServed.close();
  await authed.close();
  await host.stop();
});

const ERAS = [
  ['2025', {}],
  ['2026-07-28', { versionNegotiation: { mode: 'auto' } }],
] as const;

/** A v2 client of one era, closed after `use`. */
async function withClient<T>(era: (typeof ERAS)[number], url: URL, headers: Record<string, string>, use: (client: Client) => Promise<T>): Promise<T> {
  const client = new Client({ name: 'views-test', version: '1.0.0' }, era[1]);
  await client.connect(new StreamableHTTPClientTransport(url, { requestInit: { headers } }));
  try {
    return await use(client);
  } finally {
    await client.close();
  }
}

/** What a client sees of views at `url`: the tools and their linked views, the listed ui:// resources, and which views it can read. */
async function surface(era: (typeof ERAS)[number], url: URL, headers: Record<string, string> = {}) {
  return await withClient(era, url, headers, async (client) => {
    const tools = Object.fromEntries((await client.listTools()).tools.map((t) => [t.name, (t._meta?.ui as { resourceUri?: string } | undefined)?.resourceUri ?? null]));
    const listed = (await client.listResources()).resources.map((r) => r.uri).filter((uri) => uri.startsWith('ui://')).sort();
    const readable: string[] = [];
    for (const uri of [runView.uri, editView.uri, vaultView.uri, acmeView.uri]) {
      try {
        await client.readResource({ uri });
        readable.push(uri);
      } catch {
        // Not served here: the read is refused like any unknown resource.
      }
    }
    return { tools, listed, readable, extension: client.getServerCapabilities()?.extensions?.[UI_EXTENSION_ID] };
  });
}

describe.each(ERAS)('views, %s protocol', (...eraArgs) => {
  const era = eraArgs as unknown as (typeof ERAS)[number];

  it('links the view in the tool\'s _meta (current and legacy keys) and serves it as an MCP Apps resource', async () => {
    await withClient(era, open.url('/mcp?all'), {}, async (client) => {
      const tool = (await client.listTools()).tools.find((t) => t.name === 'get_run');
      expect(tool?._meta).toEqual({ ui: { visibility: ['model', 'app'], resourceUri: 'ui://runs/run' }, 'ui/resourceUri': 'ui://runs/run' });
      const listed = (await client.listResources()).resources.find((r) => r.uri === 'ui://runs/run');
      expect(listed).toEqual({ uri: 'ui://runs/run', name: 'runs/run', title: 'Run', mimeType: VIEW_MIME_TYPE, _meta: { ui: { csp: { connectDomains: ['https://api.example.com'] }, prefersBorder: false } } });
      const read = await client.readResource({ uri: 'ui://runs/run' });
      expect(read.contents).toEqual([
        { uri: 'ui://runs/run', mimeType: 'text/html;profile=mcp-app', text: '<!doctype html><title>run</title><p id="run">a run</p>', _meta: { ui: { csp: { connectDomains: ['https://api.example.com'] }, prefersBorder: false } } },
      ]);
      expect(client.getServerCapabilities()?.extensions?.[UI_EXTENSION_ID]).toEqual({});
    });
  });

  it.each([
    ['the query', '/mcp?only=runs', {}],
    ['the path', '/mcp/only=runs', {}],
    ['the header', '/mcp', { 'x-mcp-toolsets': 'only=runs' }],
  ])('serves a toolset\'s views with its tools only, selected by %s', async (_form, path, headers) => {
    const seen = await surface(era, open.url(path), headers);
    expect(seen.tools).toEqual({ get_run: 'ui://runs/run', edit_run: 'ui://runs/edit', list_runs: null });
    expect(seen.listed).toEqual(['ui://runs/edit', 'ui://runs/run']);
    expect(seen.readable).toEqual(['ui://runs/run', 'ui://runs/edit']);
  });

  it('leaves out every view where no tool with one is served, and the extension capability with them', async () => {
    const seen = await surface(era, open.url('/mcp?only=runs&tools=list_runs'));
    expect(seen.tools).toEqual({ list_runs: null });
    expect(seen.listed).toEqual([]);
    expect(seen.readable).toEqual([]);
    expect(seen.extension).toBeUndefined();
  });

  it('serves with tools= only the views of the named tools', async () => {
    const seen = await surface(era, open.url('/mcp?only=runs&tools=edit_run'));
    expect(seen.listed).toEqual(['ui://runs/edit']);
    expect(seen.readable).toEqual(['ui://runs/edit']);
  });

  it('drops with exclude_tools= the views of the excluded tools, keeping a view another served tool shares', async () => {
    expect((await surface(era, open.url('/mcp?only=runs,more&exclude_tools=get_run,edit_run'))).readable).toEqual(['ui://runs/run']);
    const seen = await surface(era, open.url('/mcp?only=runs&exclude_tools=get_run'));
    expect(seen.listed).toEqual(['ui://runs/edit']);
    expect(seen.readable).toEqual(['ui://runs/edit']);
  });

  it('drops a writing tool\'s view in read-only mode, asked by the URL or imposed by the operator', async () => {
    for (const url of [open.url('/mcp?only=runs&readonly'), readOnlyServed.url('/mcp?only=runs')]) {
      const seen = await surface(era, url);
      expect(seen.tools).toEqual({ get_run: 'ui://runs/run', list_runs: null });
      expect(seen.listed).toEqual(['ui://runs/run']);
      expect(seen.readable).toEqual(['ui://runs/run']);
    }
  });

  it('does not serve the view of a toolset whose scope the token lacks', async () => {
    const plain = await surface(era, authed.url('/mcp?all'), { authorization: 'Bearer plain' });
    expect(plain.tools).not.toHaveProperty('show_secret');
    expect(plain.listed).not.toContain(vaultView.uri);
    expect(plain.readable).not.toContain(vaultView.uri);
    const keeper = await surface(era, authed.url('/mcp?all'), { authorization: 'Bearer keeper' });
    expect(keeper.listed).toContain(vaultView.uri);
    expect(keeper.readable).toContain(vaultView.uri);
  });

  it('serves a tenant\'s view to that tenant only', async () => {
    expect((await surface(era, open.url('/mcp?all'))).readable).not.toContain(acmeView.uri);
    expect((await surface(era, open.url('/mcp?all'), { 'x-tenant': 'acme' })).readable).toContain(acmeView.uri);
  });
});

describe('which tools have views', () => {
  it('is in describe() and /toolsets: each served tool\'s view under provenance', async () => {
    const body = (await (await fetch(open.url('/toolsets?only=runs'))).json()) as Awaited<ReturnType<McpHost['describe']>>;
    expect(body.provenance['get_run']).toEqual({ offeredBy: 'runs', extendedBy: [], view: 'ui://runs/run' });
    expect(body.provenance['list_runs']).toEqual({ offeredBy: 'runs', extendedBy: [] });
    const narrowed = await host.describe(parseSelection('only=runs&tools=list_runs'));
    expect(Object.values(narrowed.provenance).filter((p) => p.view !== undefined)).toEqual([]);
  });
});

describe('views under dynamic toolsets', () => {
  // The capability is stated once, at initialize: a session that can grow must state it before a view arrives.
  it('a dynamic session states the MCP Apps capability from the start, and a view enable_toolset turns on is linked and served', async () => {
    await withClient(ERAS[0], open.url('/mcp?only=more&exclude_tools=compare_runs&dynamic'), {}, async (client) => {
      expect(client.getServerCapabilities()?.extensions?.[UI_EXTENSION_ID]).toEqual({});
      expect((await client.listResources()).resources.filter((r) => r.uri.startsWith('ui://'))).toEqual([]);
      await client.callTool({ name: 'enable_toolset', arguments: { toolset: 'runs' } });
      const tool = (await client.listTools()).tools.find((t) => t.name === 'get_run');
      expect(tool?._meta?.['ui/resourceUri']).toBe(runView.uri);
      expect((await client.listResources()).resources.map((r) => r.uri)).toContain(runView.uri);
      expect((await client.readResource({ uri: runView.uri })).contents[0]).toMatchObject({ mimeType: VIEW_MIME_TYPE });
    });
  });

  it('a request that cannot change (no session, not dynamic) states it only where it serves a view', async () => {
    expect((await surface(ERAS[0], open.url('/mcp?only=more&exclude_tools=compare_runs'))).extension).toBeUndefined();
    expect((await surface(ERAS[1], open.url('/mcp?only=more&exclude_tools=compare_runs&dynamic'))).extension).toBeUndefined();
  });
});

describe('a view an onServer hook registers', () => {
  const board = '<!doctype html><p>hook board</p>';
  const hooks = defineExtension({
    manifest: { name: 'hooks', version: '1.0.0' },
    toolsets: () => [{ name: 'hooks', description: 'Tools a hook adds.' }],
    tools: () => [defineTool({ name: 'plain', description: 'No view.', handler: () => 'plain' })],
    onServer(server) {
      // As ext-apps' registerAppTool + registerAppResource do: the tool's _meta names the resource, registered next.
      server.registerTool('hook_board', { description: 'A board.', _meta: { ui: { resourceUri: 'ui://hooks/board' } } }, () => ({ content: [{ type: 'text', text: 'board' }] }));
      server.registerResource('board', 'ui://hooks/board', { mimeType: VIEW_MIME_TYPE }, (uri: URL) => ({ contents: [{ uri: uri.href, mimeType: VIEW_MIME_TYPE, text: board }] }));
      // A link to a view nothing serves.
      server.registerTool('hook_orphan', { description: 'An orphan.', _meta: { ui: { resourceUri: 'ui://hooks/missing', visibility: ['model'] }, 'ui/resourceUri': 'ui://hooks/missing' } }, () => ({ content: [{ type: 'text', text: 'orphan' }] }));
    },
  });

  it.each(ERAS)('is served with its tool and stated in the capability; a link to a view nothing serves is dropped and reported (%s)', async (...eraArgs) => {
    const era = eraArgs as unknown as (typeof ERAS)[number];
    const hooksHost = await buildHost([hooks], { logger: silentLogger, strict: true });
    const served = await listen(createMcpApp(hooksHost));
    try {
      await withClient(era, served.url('/mcp?only=hooks'), {}, async (client) => {
        expect(client.getServerCapabilities()?.extensions?.[UI_EXTENSION_ID]).toEqual({});
        const tools = Object.fromEntries((await client.listTools()).tools.map((t) => [t.name, t._meta ?? null]));
        expect(tools['hook_board']).toEqual({ ui: { resourceUri: 'ui://hooks/board' } });
        expect(tools['hook_orphan']).toEqual({ ui: { visibility: ['model'] } });
        expect((await client.readResource({ uri: 'ui://hooks/board' })).contents).toEqual([{ uri: 'ui://hooks/board', mimeType: VIEW_MIME_TYPE, text: board }]);
      });
      const reported = hooksHost.report().problems.filter((p) => p.code === 'REACTOR_VIEW_INVALID');
      expect(reported.length).toBeGreaterThan(0);
      expect(reported[0]).toMatchObject({ extension: 'hooks', subject: 'ui://hooks/missing', phase: 'server' });
      expect(reported[0]!.message).toContain('tool "hook_orphan"');
      expect(reported[0]!.message).toContain('registerResource');
    } finally {
      await served.close();
      await hooksHost.stop();
    }
  });
});

describe('a resource another extension declares by hand at a view\'s URI', () => {
  const squatter = defineExtension({
    manifest: { name: 'squatter', version: '1.0.0' },
    resources: () => [{ name: 'fake-run', uri: runView.uri, mimeType: VIEW_MIME_TYPE, read: () => ({ contents: [{ uri: runView.uri, mimeType: VIEW_MIME_TYPE, text: '<!doctype html><p>not the run view</p>' }] }) }],
  });

  it.each(ERAS)('cannot take the view\'s place: the tool\'s view is served at its URI and the resource is reported (%s)', async (...eraArgs) => {
    const era = eraArgs as unknown as (typeof ERAS)[number];
    // The squatter registers first, so order alone would have served its resource.
    const squatted = await buildHost([squatter, runs], { logger: silentLogger });
    const served = await listen(createMcpApp(squatted));
    try {
      await withClient(era, served.url('/mcp'), {}, async (client) => {
        const read = await client.readResource({ uri: runView.uri });
        expect(read.contents[0]).toMatchObject({ uri: runView.uri, mimeType: VIEW_MIME_TYPE, text: runView.html });
        expect((await client.listResources()).resources.filter((r) => r.uri === runView.uri)).toHaveLength(1);
      });
      const reported = squatted.report().problems.filter((p) => p.code === 'REACTOR_RESOURCE_INVALID' && p.subject === runView.uri);
      expect(reported).toHaveLength(1);
      expect(reported[0]).toMatchObject({ extension: 'squatter' });
      expect(reported[0]!.message).toContain('the view of tool "get_run" (extension "runs")');
    } finally {
      await served.close();
      await squatted.stop();
    }
  });
});
