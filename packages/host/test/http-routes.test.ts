/**
 * The routes beside the protocol (`/healthz`, `/toolsets`), the options that
 * shape routing (`path`, `defaultSelection`, `ignoreQueryKeys`, turning routes
 * off), and what the app answers for paths it does not serve.
 */
import { request as httpRequest } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { createMcpApp, defineExtension, silentLogger, type HealthzBody, type Logger, type McpAppOptions, type McpHost, type ToolsetsBody } from '../src/index.js';
import { fixtureHost } from './helpers/fixtures.js';
import { connectClient, initializeBody, listen, post, type Listening } from './helpers/http.js';

const cleanup: Array<() => Promise<void>> = [];
afterEach(async () => {
  while (cleanup.length > 0) await cleanup.pop()!();
});

async function start(options: McpAppOptions = {}, host?: McpHost): Promise<{ host: McpHost; served: Listening; app: ReturnType<typeof createMcpApp> }> {
  const h = host ?? (await fixtureHost());
  const app = createMcpApp(h, options);
  const served = await listen(app);
  cleanup.push(async () => {
    await served.close();
    await h.stop();
  });
  return { host: h, served, app };
}

describe('GET /healthz', () => {
  it('answers ok, the server name and each extension status, without opening a session', async () => {
    const { served, app } = await start();
    const response = await fetch(served.url('/healthz'));
    expect(response.status).toBe(200);
    const body = (await response.json()) as HealthzBody;
    expect(body.ok).toBe(true);
    expect(body.name).toBe('fixture');
    expect(body.extensions['spaces']?.state).toBe('active');
    expect(body.extensions['benchmarks']?.state).toBe('held');
    expect(app.sessionCount).toBe(0);
  });

  it('stays ok (200) when an extension failed, saying degraded and naming it', async () => {
    const broken = defineExtension({
      manifest: { name: 'broken', version: '1.0.0' },
      onStart: () => {
        throw new Error('no database');
      },
    });
    const host = await fixtureHost({}, [broken]);
    const { served } = await start({}, host);
    const response = await fetch(served.url('/healthz'));
    expect(response.status).toBe(200);
    const body = (await response.json()) as HealthzBody;
    expect(body.ok).toBe(true);
    expect(body.degraded).toBe(true);
    expect(body.extensions['broken']?.state).toBe('failed');
  });

  it('answers 503 once the app is closing, so a load balancer drains it', async () => {
    const { served, app } = await start();
    await app.close();
    const response = await fetch(served.url('/healthz'));
    expect(response.status).toBe(503);
    expect(((await response.json()) as HealthzBody).ok).toBe(false);
  });
});

describe('GET /toolsets', () => {
  it.each([
    ['the query', '/toolsets?only=library', {}],
    ['the path', '/toolsets/only=library', {}],
    ['the header', '/toolsets', { 'x-mcp-toolsets': 'only=library' }],
  ])('describes the selection written in %s', async (_where, path, headers) => {
    const { served } = await start();
    const body = (await (await fetch(served.url(path), { headers })).json()) as ToolsetsBody;
    expect(body.active).toEqual(['core', 'library']);
    expect(body.tools).toEqual(['find_book', 'whoami']);
    expect(body.toolsets.map((t) => [t.name, t.active])).toEqual([
      ['benchmarks', false],
      ['core', true],
      ['library', true],
      ['spaces', false],
    ]);
  });

  it('reads each X-MCP-Toolsets header line on its own, as Node would otherwise join them', async () => {
    const { served } = await start();
    const url = new URL(served.url('/toolsets'));
    // Two header lines (fetch would join them): joined, "without=spaces, library" would drop library too.
    const body = await new Promise<ToolsetsBody>((resolve, reject) => {
      const request = httpRequest(url, { headers: { 'x-mcp-toolsets': ['without=spaces', 'library'] } }, (response) => {
        let text = '';
        response.setEncoding('utf8').on('data', (chunk: string) => (text += chunk)).on('end', () => resolve(JSON.parse(text) as ToolsetsBody));
      });
      request.on('error', reject).end();
    });
    expect(body.tools).toEqual(['find_book', 'whoami']);
  });

  it('reports unknown names and wakes the held extension a selection names', async () => {
    const { served, host } = await start();
    const body = (await (await fetch(served.url('/toolsets?benchmarks&nosuch'))).json()) as ToolsetsBody;
    expect(body.unknown).toEqual(['nosuch']);
    expect(body.tools).toContain('run_benchmark');
    expect(host.report().extensions.find((e) => e.name === 'benchmarks')?.state).toBe('active');
  });
});

describe('routing options', () => {
  it('serves the protocol on a custom path, and /mcp is then not found', async () => {
    const { served } = await start({ path: '/api/mcp' });
    const client = await connectClient('v2 client, 2025 protocol', served.url('/api/mcp/only=library'));
    expect((await client.toolNames()).sort()).toEqual(['find_book', 'whoami']);
    await client.close();
    expect((await post(served.url('/mcp'), initializeBody())).status).toBe(404);
  });

  it('never redirects /mcp to /mcp/', async () => {
    const { served } = await start();
    const response = await fetch(served.url('/mcp'), { method: 'POST', redirect: 'manual', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' }, body: JSON.stringify(initializeBody()) });
    expect(response.status).toBe(200);
  });

  it('uses defaultSelection when the request names nothing, after ignored keys are dropped', async () => {
    const { served } = await start({ defaultSelection: 'only=library', ignoreQueryKeys: ['utm_source'] });
    const plain = await connectClient('v2 client, 2025 protocol', served.url('/mcp?utm_source=newsletter'));
    const named = await connectClient('v2 client, 2025 protocol', served.url('/mcp?spaces'));
    try {
      expect((await plain.toolNames()).sort()).toEqual(['find_book', 'whoami']);
      expect((await named.toolNames()).sort()).toEqual(['list_spaces', 'whoami']);
    } finally {
      await plain.close();
      await named.close();
    }
  });

  it('turns /healthz and /toolsets off, leaving those paths unserved', async () => {
    const { served } = await start({ healthz: false, toolsetsRoute: false });
    expect((await fetch(served.url('/healthz'))).status).toBe(404);
    expect((await fetch(served.url('/toolsets'))).status).toBe(404);
  });

  it('answers 404 for a path it does not serve, and 405 for a method a route does not take', async () => {
    const { served } = await start();
    expect((await fetch(served.url('/elsewhere'))).status).toBe(404);
    expect((await fetch(served.url('/mcpx'))).status).toBe(404);
    const put = await fetch(served.url('/mcp'), { method: 'PUT' });
    expect(put.status).toBe(405);
    expect(put.headers.get('allow')).toBe('GET, POST, DELETE');
    expect((await fetch(served.url('/healthz'), { method: 'POST' })).status).toBe(405);
  });

  it('answers 405 for GET on the endpoint without a session (no stream to offer)', async () => {
    const { served } = await start();
    const response = await fetch(served.url('/mcp'), { headers: { accept: 'text/event-stream' } });
    expect(response.status).toBe(405);
  });

  it('rejects invalid options at creation with REACTOR_OPTION_INVALID', async () => {
    const host = await fixtureHost();
    expect(() => createMcpApp(host, { path: 'mcp' })).toThrow(expect.objectContaining({ code: 'REACTOR_OPTION_INVALID' }));
    expect(() => createMcpApp(host, { maxBodyBytes: -1 })).toThrow(/maxBodyBytes/);
    expect(() => createMcpApp(host, { sessions: { max: 0 } })).toThrow(/sessions.max/);
    expect(() => createMcpApp(host, { healthz: '/mcp/health' })).toThrow(/under the MCP path/);
    await host.stop();
  });
});

describe('unknown names', () => {
  it('are served around and logged once, not once per request', async () => {
    const warnings: string[] = [];
    const logger: Logger = { ...silentLogger, warn: (_obj: object | string, msg?: string) => void warnings.push(msg ?? ''), child: () => logger };
    const { served } = await start({ logger });
    for (let i = 0; i < 3; i++) {
      const client = await connectClient('v2 client, 2025 protocol', served.url('/mcp?nosuch&library'));
      expect((await client.toolNames()).sort()).toEqual(['find_book', 'list_spaces', 'whoami']);
      await client.close();
    }
    await fetch(served.url('/toolsets?nosuch'));
    expect(warnings.filter((w) => w.includes('"nosuch"'))).toHaveLength(1);
  });
});
