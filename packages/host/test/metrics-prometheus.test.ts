/**
 * `reactor-mcp-server --metrics-port`: Prometheus metrics on a listener of
 * their own, scraped over real HTTP after real MCP calls from a real client,
 * and parsed with a Prometheus text-format parser.
 */
import { EventEmitter } from 'node:events';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import parsePrometheusTextFormat, { type ParsedFamily } from 'parse-prometheus-text-format';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { runCommand, type CommandDependencies, type RunningCommand } from '../src/command/command.js';
import { ErrorCodes } from '../src/kernel/errors.js';
import { defineExtension } from '../src/contract/extension.js';
import { silentLogger } from '../src/kernel/logger.js';
import { loadPromClient } from '../src/command/metrics/loadPromClient.js';
import { defineTool } from '../src/contract/tool.js';

const runs = defineExtension({
  manifest: { name: 'runs', version: '1.0.0' },
  toolsets: () => [{ name: 'bench', description: 'Benchmarks.' }],
  tools: () => [
    defineTool({ name: 'get_run', description: 'A run.', toolset: 'bench', inputSchema: z.object({ id: z.string() }), handler: (args) => `run ${args.id}` }),
    defineTool({ name: 'refuse', description: 'Answers with an error result.', toolset: 'bench', handler: () => ({ isError: true, content: [{ type: 'text', text: 'no' }] }) }),
  ],
});
const flaky = defineExtension({
  manifest: { name: 'flaky', version: '1.0.0' },
  toolsets: () => [{ name: 'flaky', description: 'Fails to build its server.' }],
  onServer: () => {
    throw new Error('cannot reach the database');
  },
});

const running: RunningCommand[] = [];
const clients: Client[] = [];
afterEach(async () => {
  for (const c of clients.splice(0)) await c.close();
  for (const r of running.splice(0)) await r.close();
});

function deps(): Partial<CommandDependencies> {
  return {
    loadExtensions: () => Promise.resolve([runs, flaky] as never),
    createLogger: () => silentLogger,
    signals: new EventEmitter() as unknown as CommandDependencies['signals'],
    exit: () => undefined,
    loadCatalog: () => Promise.resolve(undefined),
  };
}

async function start(argv: string[]): Promise<RunningCommand> {
  const r = (await runCommand(['--port', '0', ...argv], {}, deps()))!;
  running.push(r);
  return r;
}

async function connect(url: string): Promise<Client> {
  const client = new Client({ name: 'metrics-test', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(url)));
  clients.push(client);
  return client;
}

/**
 * The scraped families by name. The parser folds a histogram's labelled series
 * into one (it handles unlabelled histograms only), so each histogram's
 * `_count` and `_sum` series are also parsed as counters of their own.
 */
async function scrape(url: string): Promise<Map<string, ParsedFamily>> {
  const res = await fetch(url);
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
  const text = await res.text();
  const families = new Map(parsePrometheusTextFormat(text).map((f) => [f.name, f]));
  for (const family of [...families.values()].filter((f) => f.type === 'HISTOGRAM')) {
    for (const suffix of ['_count', '_sum', '_bucket']) {
      const name = `${family.name}${suffix}`;
      const lines = text.split('\n').filter((line) => line.startsWith(`${name}{`) || line.startsWith(`${name} `));
      for (const parsed of parsePrometheusTextFormat([`# TYPE ${name} counter`, ...lines, ''].join('\n'))) families.set(parsed.name, parsed);
    }
  }
  return families;
}

const single = (families: Map<string, ParsedFamily>, name: string) => Number(families.get(name)?.metrics[0]?.value);

describe('reactor-mcp-server --metrics-port', () => {
  it('serves /metrics on its own port: the operation histogram by method, tool, toolset, extension and outcome; sessions; the blueprint cache; problems; Node process metrics', async () => {
    const r = await start(['--metrics-port', '0']);
    expect(r.metricsUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/metrics$/);
    expect(new URL(r.metricsUrl!).port).not.toBe(new URL(r.url!).port);

    const client = await connect(r.url!);
    await client.callTool({ name: 'get_run', arguments: { id: 'a' } });
    await client.callTool({ name: 'get_run', arguments: { id: 'b' } });
    await client.callTool({ name: 'refuse' });
    await expect(client.callTool({ name: 'made_up' })).rejects.toThrow(/made_up/);
    // A second connection to the same selection: its blueprint comes from the cache. It ends (DELETE): one session duration.
    const second = await connect(r.url!);
    await (second.transport as StreamableHTTPClientTransport).terminateSession();
    // A selection whose extension's onServer hook throws: served without the hook, a problem attributed to it.
    await connect(`${r.url!}?only=flaky`);

    const families = await scrape(r.metricsUrl!);
    const operations = families.get('mcp_server_operation_duration_seconds');
    expect(operations?.type).toBe('HISTOGRAM');
    const series = families.get('mcp_server_operation_duration_seconds_count')!.metrics.map((m) => ({ labels: m.labels, count: Number(m.value) }));
    expect(series).toEqual(
      expect.arrayContaining([
        { labels: { method: 'tools/call', tool: 'get_run', prompt: '', toolset: 'bench', extension: 'runs', outcome: 'ok' }, count: 2 },
        { labels: { method: 'tools/call', tool: 'refuse', prompt: '', toolset: 'bench', extension: 'runs', outcome: 'tool_error' }, count: 1 },
        { labels: { method: 'tools/call', tool: '_unknown', prompt: '', toolset: '', extension: '', outcome: '-32602' }, count: 1 },
      ]),
    );
    expect(series).toHaveLength(3);
    // The convention's bucket boundaries, in seconds.
    const bounds = families.get('mcp_server_operation_duration_seconds_bucket')!.metrics.filter((m) => m.labels?.tool === 'get_run').map((m) => m.labels?.le);
    expect(bounds).toEqual(['0.01', '0.02', '0.05', '0.1', '0.2', '0.5', '1', '2', '5', '10', '30', '60', '120', '300', '+Inf']);
    expect(Number(families.get('mcp_server_operation_duration_seconds_sum')!.metrics.find((m) => m.labels?.tool === 'get_run')?.value)).toBeGreaterThan(0);

    expect(families.get('reactor_sessions_open')?.type).toBe('GAUGE');
    expect(single(families, 'reactor_sessions_open')).toBe(2);
    expect(families.get('mcp_server_session_duration_seconds_count')?.metrics).toEqual([{ value: '1', labels: { protocol_version: client.getNegotiatedProtocolVersion() } }]);
    expect(single(families, 'reactor_blueprint_cache_size')).toBeGreaterThanOrEqual(1);
    expect(single(families, 'reactor_blueprint_cache_hits_total')).toBeGreaterThanOrEqual(1);
    const ratio = single(families, 'reactor_blueprint_cache_hit_ratio');
    expect(ratio).toBeGreaterThan(0);
    expect(ratio).toBeLessThan(1);
    expect(single(families, 'reactor_selections_served_total')).toBeGreaterThanOrEqual(3);
    expect(single(families, 'reactor_blueprints_built_total')).toBeGreaterThanOrEqual(1);
    expect(families.get('reactor_problems')?.metrics).toEqual(expect.arrayContaining([{ value: '1', labels: { extension: 'flaky' } }]));
    // prom-client's default Node process metrics.
    expect(families.get('process_cpu_user_seconds_total')?.type).toBe('COUNTER');
    expect(families.get('nodejs_eventloop_lag_seconds')?.type).toBe('GAUGE');

    // The MCP listener does not serve metrics, and the metrics listener serves nothing else.
    expect((await fetch(new URL('/metrics', r.url))).status).not.toBe(200);
    expect((await fetch(new URL('/mcp', r.metricsUrl))).status).toBe(404);
  });

  it('is off by default: no listener, no histogram recorded', async () => {
    const r = await start([]);
    expect(r.metricsUrl).toBeUndefined();
  });

  it('refuses the MCP port, naming both', async () => {
    await expect(runCommand(['--port', '5091', '--metrics-port', '5091'], {}, deps())).rejects.toThrow(
      'flag "--metrics-port": is the MCP port (5091); metrics are served on a listener of their own',
    );
    await expect(runCommand([], { REACTOR_MCP_PORT: '5092', REACTOR_MCP_METRICS_PORT: '5092' }, deps())).rejects.toMatchObject({ code: ErrorCodes.OPTION_INVALID, message: expect.stringContaining('environment variable REACTOR_MCP_METRICS_PORT') as unknown });
  });

  it('names prom-client when it is not installed', async () => {
    await expect(loadPromClient('prom-client-not-installed')).rejects.toThrow(/needs the package prom-client-not-installed.*pnpm add prom-client@\^15/s);
  });
});
