import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { existsSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ErrorCodes } from '../src/kernel/errors.js';
import { extensionSource, layoutApp, type FixtureApp } from './fixtures/packages.js';

/** The built command, run as a user runs it: `node dist/cli.js` in an application directory. */
const hostDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const cli = path.join(hostDir, 'dist', 'cli.js');

interface Run {
  readonly child: ChildProcessWithoutNullStreams;
  stdout: string;
  stderr: string;
  /** Resolves with the exit code. */
  readonly exited: Promise<number | null>;
  /** Resolves with the first stderr JSON log line that matches. */
  logLine(match: (line: Record<string, unknown>) => boolean): Promise<Record<string, unknown>>;
}

const children = new Set<ChildProcessWithoutNullStreams>();

function run(args: string[], cwd: string, env: NodeJS.ProcessEnv = {}): Run {
  const child = spawn(process.execPath, [cli, ...args], { cwd, env: { PATH: process.env.PATH, ...env }, stdio: 'pipe' });
  children.add(child);
  const waiting: Array<{ match: (l: Record<string, unknown>) => boolean; resolve: (l: Record<string, unknown>) => void; reject: (e: Error) => void }> = [];
  const result: Run = {
    child,
    stdout: '',
    stderr: '',
    exited: new Promise((resolve) => child.once('exit', (code) => (children.delete(child), resolve(code)))),
    logLine: (match) =>
      new Promise((resolve, reject) => {
        const seen = parseLines(result.stderr).find(match);
        if (seen) resolve(seen);
        else waiting.push({ match, resolve, reject });
      }),
  };
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (result.stdout += chunk));
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
    result.stderr += chunk;
    const lines = parseLines(result.stderr);
    for (const w of [...waiting]) {
      const line = lines.find(w.match);
      if (line) {
        waiting.splice(waiting.indexOf(w), 1);
        w.resolve(line);
      }
    }
  });
  void result.exited.then((code) => waiting.forEach((w) => w.reject(new Error(`the command exited (${code}) before logging the line; stderr:\n${result.stderr}`))));
  return result;
}

function parseLines(text: string): Array<Record<string, unknown>> {
  return text
    .split('\n')
    .filter((l) => l.startsWith('{'))
    .flatMap((l) => {
      try {
        return [JSON.parse(l) as Record<string, unknown>];
      } catch {
        return [];
      }
    });
}

const isSummary = (l: Record<string, unknown>) => typeof l.msg === 'string' && l.msg.includes('extension(s)') && 'loaded' in l;

describe('the reactor-mcp-server command', () => {
  let app: FixtureApp;
  const stopMarker = () => app.scratch('spaces-stopped');
  const importMarker = () => app.scratch('benchmarks-imported');

  beforeAll(async () => {
    // No rebuild here: `pnpm test` builds first, and a build empties dist/ while other test files run from it.
    if (!existsSync(cli)) throw new Error(`${cli} is missing: run pnpm build (pnpm test does) before this test`);
    app = await layoutApp('pnpm', (scratch) => [
      {
        name: '@acme/ext-spaces',
        reactorMcp: { extensions: { spaces: { module: './index.js', toolsets: [{ name: 'spaces', description: 'Spaces.' }] } } },
        files: { 'index.js': extensionSource({ name: 'spaces', toolsets: [{ name: 'spaces', description: 'Spaces.' }], tools: ['list_spaces'], stopMarker: scratch('spaces-stopped') }) },
      },
      {
        name: '@acme/ext-benchmarks',
        reactorMcp: { extensions: { benchmarks: { module: './index.js', activationEvents: ['onToolset:benchmarks'], toolsets: [{ name: 'benchmarks', default: false }] } } },
        files: { 'index.js': extensionSource({ name: 'benchmarks', activationEvents: ['onToolset:benchmarks'], toolsets: [{ name: 'benchmarks', default: false }], tools: ['list_runs'], importMarker: scratch('benchmarks-imported') }) },
      },
      { name: 'ext-broken', reactorMcp: { extensions: { broken: { module: 7 } } } },
    ]);
  }, 180_000);
  beforeEach(async () => {
    await rm(stopMarker(), { force: true });
  });
  afterEach(async () => {
    for (const child of children) {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGKILL');
      await exited;
    }
  });
  afterAll(() => app.remove());

  it('prints its usage with --help, on stdout, and exits 0', async () => {
    const r = run(['--help'], app.root);
    expect(await r.exited).toBe(0);
    expect(r.stdout).toContain('Usage: reactor-mcp-server');
    expect(r.stdout).toContain('REACTOR_MCP_TRANSPORT');
    expect(r.stderr).toBe('');
  });

  it('exits 2 on an invalid flag, with a message naming it', async () => {
    const r = run(['--prot', '4040'], app.root);
    expect(await r.exited).toBe(2);
    expect(r.stderr).toContain('flag "--prot": is not an option');
    expect(r.stderr).toContain('did you mean --port?');
    expect(r.stderr).toContain(ErrorCodes.OPTION_INVALID);
    expect(r.stdout).toBe('');
  });

  it('exits 2 on an invalid environment variable, naming it', async () => {
    const r = run([], app.root, { REACTOR_MCP_PORT: 'http' });
    expect(await r.exited).toBe(2);
    expect(r.stderr).toContain('environment variable REACTOR_MCP_PORT: is not a port');
  });

  it('exits 1 when an extension asked for is not installed, naming what is', async () => {
    const r = run(['--extension', 'nosuch'], app.root);
    expect(await r.exited).toBe(1);
    expect(r.stderr).toContain('"nosuch": is not installed');
    expect(r.stderr).toContain(ErrorCodes.EXTENSION_NOT_FOUND);
    expect(r.stderr).toContain('one of "benchmarks", "broken", "spaces"');
  });

  it('logs readable lines with --log-format pretty (pino-pretty), still on stderr only', async () => {
    const r = run(['--port', '0', '--log-format', 'pretty'], app.root);
    await new Promise<void>((resolve) => r.child.stderr.on('data', () => /serving .* extension\(s\) at http/.test(r.stderr) && resolve()));
    expect(r.stderr).toMatch(/INFO|WARN/);
    expect(r.stderr).toContain('serving');
    expect(parseLines(r.stderr)).toEqual([]); // no JSON lines
    expect(r.stdout).toBe('');
    r.child.kill('SIGTERM');
    expect(await r.exited, r.stderr).toBe(0);
  });

  it('serves HTTP: nothing on stdout, the summary on stderr, /healthz, /toolsets and MCP; SIGTERM runs onStop and exits 0', async () => {
    const r = run(['--port', '0'], app.root);
    const summary = await r.logLine(isSummary);
    expect(summary).toMatchObject({ loaded: ['spaces@1.0.0'], held: ['benchmarks@1.0.0 (onToolset:benchmarks)'], skipped: [{ extension: 'broken@1.0.0', state: 'failed' }] });
    const url = new URL(summary.url as string);
    expect(url.pathname).toBe('/mcp');

    const health = await fetch(new URL('/healthz', url));
    expect(health.status).toBe(200);
    expect(await health.json()).toMatchObject({ ok: true, degraded: true, name: 'reactor-mcp-server', extensions: { spaces: { state: 'active' }, benchmarks: { state: 'held' }, broken: { state: 'failed' } } });
    const toolsets = (await (await fetch(new URL('/toolsets', url))).json()) as { active: string[]; tools: string[] };
    expect(toolsets).toMatchObject({ active: ['spaces'], tools: ['list_server_toolsets', 'list_spaces'] });
    expect(existsSync(importMarker())).toBe(false);

    const client = new Client({ name: 'cli-test', version: '0.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${url.href}?benchmarks`)));
    expect((await client.listTools()).tools.map((t) => t.name).sort()).toEqual(['list_runs', 'list_server_toolsets', 'list_spaces']);
    expect(existsSync(importMarker())).toBe(true);
    await client.close();

    r.child.kill('SIGTERM');
    expect(await r.exited).toBe(0);
    expect(existsSync(stopMarker())).toBe(true);
    expect(r.stdout).toBe('');
  });

  it('serves stdio: every stdout line is JSON-RPC, and closing stdin stops it (onStop runs, exit 0)', async () => {
    const r = run(['--transport', 'stdio', '--toolsets', 'only=spaces'], app.root);
    await r.logLine(isSummary);
    const responses = new Map<number, Record<string, unknown>>();
    const waiters = new Map<number, (m: Record<string, unknown>) => void>();
    let buffer = '';
    r.child.stdout.on('data', (chunk: string) => {
      buffer += chunk;
      for (let nl = buffer.indexOf('\n'); nl >= 0; nl = buffer.indexOf('\n')) {
        const message = JSON.parse(buffer.slice(0, nl)) as Record<string, unknown>;
        buffer = buffer.slice(nl + 1);
        if (typeof message.id === 'number') {
          responses.set(message.id, message);
          waiters.get(message.id)?.(message);
        }
      }
    });
    const request = (id: number, method: string, params: unknown) => {
      const answered = new Promise<Record<string, unknown>>((resolve) => (responses.has(id) ? resolve(responses.get(id)!) : waiters.set(id, resolve)));
      r.child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', id, method, params })}\n`);
      return answered;
    };
    const init = await request(1, 'initialize', { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'cli-test', version: '0.0.0' } });
    expect(init).toMatchObject({ jsonrpc: '2.0', result: { serverInfo: { name: 'reactor-mcp-server' } } });
    r.child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' })}\n`);
    const list = await request(2, 'tools/list', {});
    expect((list.result as { tools: Array<{ name: string }> }).tools.map((t) => t.name).sort()).toEqual(['list_server_toolsets', 'list_spaces']);

    r.child.stdin.end();
    expect(await r.exited).toBe(0);
    expect(existsSync(stopMarker())).toBe(true);
    const lines = r.stdout.split('\n').filter((l) => l !== '');
    expect(lines.length).toBeGreaterThanOrEqual(2);
    for (const line of lines) expect(JSON.parse(line)).toMatchObject({ jsonrpc: '2.0' });
  });
});
