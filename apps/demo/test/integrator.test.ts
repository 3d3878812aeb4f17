/**
 * A newcomer's first five minutes, outside the workspace: the three published
 * packages are packed as the registry would receive them, installed with npm
 * into an empty project in a temp dir, and served by the `reactor-mcp-server`
 * bin with no code. Discovery has only that project's package.json and an npm
 * (hoisted) node_modules to go on — no workspace links, no `@reactor/source`
 * condition, no sources: what a user installs is what runs.
 *
 * Needs the packages built (`pnpm test` builds first). The server is started
 * as the bin npm linked, not through `npx`: `npm exec` answers SIGTERM by
 * dying and leaving its child running, so it cannot show the command's own
 * clean exit.
 */
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { LIST_SERVER_TOOLSETS } from '@reactor/host';
import { SPACES_TOOL_NAMES } from '@reactor/ext-spaces';
import { BENCHMARK_TOOL_NAMES } from '@reactor/ext-benchmarks';
import { cleanEnv, installTarballs, packPackage, requireBuilt, startServer, type RunningServer } from '@reactor/release/integrator';

const repoRoot = fileURLToPath(new URL('../../..', import.meta.url));
const PUBLISHED = ['packages/host', 'extensions/spaces', 'extensions/benchmarks'] as const;
const hostVersion = (JSON.parse(readFileSync(join(repoRoot, 'packages/host/package.json'), 'utf8')) as { version: string }).version;

const sorted = (names: Iterable<string>) => [...names].sort();
const SPACES_TOOLS = sorted([...SPACES_TOOL_NAMES, LIST_SERVER_TOOLSETS]);
const ALL_TOOLS = sorted([...SPACES_TOOL_NAMES, ...BENCHMARK_TOOL_NAMES, LIST_SERVER_TOOLSETS]);

let work: string;
let app: string;
let server: RunningServer | undefined;
const clients: Client[] = [];

interface ToolsetsBody {
  toolsets: Array<{ name: string; title: string; default: boolean; always: boolean; active: boolean }>;
  active: string[];
  tools: string[];
  unknown: string[];
  problems: unknown[];
}

beforeAll(async () => {
  requireBuilt(repoRoot, PUBLISHED);
  work = mkdtempSync(join(tmpdir(), 'reactor-integrator-'));
  app = join(work, 'app');
  const tarballs = await Promise.all(PUBLISHED.map((dir) => packPackage(join(repoRoot, dir), join(work, 'packs'))));
  await installTarballs(app, tarballs);
  server = await startServer(join(app, 'node_modules', '.bin', 'reactor-mcp-server'), ['--port', '0'], {
    cwd: app,
    env: cleanEnv({ REACTOR_BENCHMARKS_DATA: join(work, 'benchmarks-data') }),
  });
}, 90_000);

afterAll(async () => {
  await Promise.allSettled(clients.map((c) => c.close()));
  if (server && server.child.exitCode === null && server.child.signalCode === null) server.child.kill('SIGKILL');
  if (work) rmSync(work, { recursive: true, force: true });
});

const route = (path: string) => new URL(path, server!.url).href;

async function getJson<T>(path: string): Promise<T> {
  const response = await fetch(route(path));
  expect(response.status).toBe(200);
  return (await response.json()) as T;
}

async function listTools(query: string): Promise<{ client: Client; names: string[] }> {
  const client = new Client({ name: 'integrator-test', version: '1.0.0' });
  clients.push(client);
  await client.connect(new StreamableHTTPClientTransport(new URL(`${server!.url}${query}`)));
  return { client, names: sorted((await client.listTools()).tools.map((t) => t.name)) };
}

const structured = <T>(result: unknown) => (result as { structuredContent: T }).structuredContent;

describe('an integrator installs the packed packages into an empty npm project', () => {
  it('gets the three packages with no workspace: range left, and the reactor-mcp-server bin on npx', async () => {
    for (const name of ['host', 'ext-spaces', 'ext-benchmarks']) {
      const manifest = readFileSync(join(app, 'node_modules', '@reactor', name, 'package.json'), 'utf8');
      expect(manifest, `@reactor/${name}'s published package.json`).not.toContain('workspace:');
    }
    expect(existsSync(join(app, 'node_modules', '@reactor', 'ext-benchmarks', 'fixtures', 'sample.jsonl'))).toBe(true);
    const { stdout } = await promisify(execFile)('npx', ['--offline', 'reactor-mcp-server', '--version'], { cwd: app, env: cleanEnv() });
    expect(stdout.trim()).toBe(hostVersion);
  });

  it('logs where it serves, having found spaces active and benchmarks held', () => {
    expect(server!.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
    const summary = server!.stderr().split('\n').find((line) => line.includes(server!.url));
    expect(JSON.parse(summary!)).toMatchObject({ loaded: ['spaces@1.0.0'], held: ['benchmarks@1.0.0 (onToolset:benchmarks)'], skipped: [] });
  });

  it('GET /toolsets: spaces is active by default; benchmarks is declared but neither active nor imported', async () => {
    const body = await getJson<ToolsetsBody>('/toolsets');
    expect(body.toolsets).toEqual([
      expect.objectContaining({ name: 'benchmarks', title: 'Benchmarks', default: false, active: false }),
      expect.objectContaining({ name: 'spaces', title: 'Spaces', default: true, active: true }),
    ]);
    expect(body.active).toEqual(['spaces']);
    expect(sorted(body.tools)).toEqual(SPACES_TOOLS);
    expect(body.problems).toEqual([]);
    const health = await getJson<{ ok: boolean; extensions: Record<string, { state: string }> }>('/healthz');
    expect(health.ok).toBe(true);
    expect(health.extensions['benchmarks']?.state).toBe('held');
  });

  it('tools/list at /mcp: the spaces tools and list_server_toolsets, nothing of benchmarks', async () => {
    const { names } = await listTools('');
    expect(names).toEqual(SPACES_TOOLS);
  });

  it('GET /toolsets?benchmarks: both toolsets active, with the benchmarks tools', async () => {
    const body = await getJson<ToolsetsBody>('/toolsets?benchmarks');
    expect(body.active).toEqual(['benchmarks', 'spaces']);
    expect(sorted(body.tools)).toEqual(ALL_TOOLS);
    expect(body.unknown).toEqual([]);
  });

  it('tools/list at /mcp?benchmarks: every tool, answering from the data shipped in the tarballs', async () => {
    const { client, names } = await listTools('?benchmarks');
    expect(names).toEqual(ALL_TOOLS);
    // libsql's prebuilt binary came from the registry, the sample from the tarball's fixtures/.
    const benchmarks = structured<{ benchmarks: Array<{ id: string; runCount: number }> }>(await client.callTool({ name: 'list_benchmarks', arguments: {} }));
    expect(benchmarks.benchmarks.map((b) => b.id)).toContain('gsm8k-mini');
    const spaces = structured<{ spaces: Array<{ name: string }> }>(await client.callTool({ name: 'list_spaces', arguments: {} }));
    expect(spaces.spaces.map((s) => s.name)).toEqual(['benchmark-notes', 'climate-lab']);
  });

  it('SIGTERM: closes the listener, runs onStop, and exits 0', async () => {
    await Promise.all(clients.splice(0).map((c) => c.close()));
    const ended = await server!.stop();
    expect(ended).toEqual({ code: 0, signal: null });
    expect(server!.stderr()).toContain('"msg":"stopped"');
  });
});
