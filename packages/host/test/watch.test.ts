/**
 * `reactor-mcp-server --watch`, run as a developer runs it: the built command
 * in an application whose extension package is linked (a workspace or
 * `npm link` package, outside node_modules). Editing the package's sources
 * runs its build script, reloads it — the module it imports too — and tells an
 * open 2025 session with `notifications/tools/list_changed`, and an open
 * 2026-07-28 `subscriptions/listen` stream the same; a new connection gets the
 * new tools. A build that fails leaves the last good tools serving.
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { POST_HEADERS } from './helpers/http.js';
import { readSse } from './helpers/sse.js';

const hostDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const cli = path.join(hostDir, 'dist', 'cli.js');
const work = mkdtempSync(path.join(tmpdir(), 'reactor-watch-'));
const app = path.join(work, 'app');
const live = path.join(work, 'live');

/** The linked package's sources: its entry imports the tool list from a second module. */
function writeTools(tools: Array<{ name: string; answer: string }>): void {
  const specs = tools.map((t) => `{ name: ${JSON.stringify(t.name)}, description: 'Answers.', handler: () => ${JSON.stringify(t.answer)} }`);
  writeFileSync(path.join(live, 'src', 'tools.js'), `export const tools = [${specs.join(', ')}];\n`);
}

let child: ChildProcessWithoutNullStreams;
let stderr = '';
/** Every JSON log line so far, in order. */
const seen: Array<Record<string, unknown>> = [];
const lineWaiters: Array<{ from: number; match: (line: Record<string, unknown>) => boolean; resolve: (line: Record<string, unknown>) => void }> = [];
const clients: Client[] = [];

/** Resolves with the first log line from index `from` on that matches (`seen.length` before acting: the next one). */
function logFrom(from: number, match: (line: Record<string, unknown>) => boolean): Promise<Record<string, unknown>> {
  const found = seen.slice(from).find(match);
  return found ? Promise.resolve(found) : new Promise((resolve) => lineWaiters.push({ from, match, resolve }));
}

beforeAll(() => {
  mkdirSync(path.join(live, 'src'), { recursive: true });
  mkdirSync(path.join(app, 'node_modules', '@acme'), { recursive: true });
  mkdirSync(path.join(app, 'node_modules', '@reactor'), { recursive: true });
  writeFileSync(
    path.join(live, 'package.json'),
    JSON.stringify({ name: '@acme/live', version: '1.0.0', type: 'module', scripts: { build: 'node build.mjs' }, reactorMcp: { extensions: { live: './dist/index.js' } }, peerDependencies: { '@reactor/host': '^1.0.0' } }),
  );
  // The "build": copy src to dist, failing on a file that says so (a compile error stand-in).
  writeFileSync(
    path.join(live, 'build.mjs'),
    `import { cpSync, readFileSync } from 'node:fs';\nif (readFileSync('src/tools.js', 'utf8').includes('SYNTAX ERROR')) { console.error('build failed: syntax error in src/tools.js'); process.exit(1); }\ncpSync('src', 'dist', { recursive: true });\n`,
  );
  writeFileSync(path.join(live, 'src', 'index.js'), `import { tools } from './tools.js';\nexport default { manifest: { name: 'live', version: '1.0.0' }, tools: () => tools };\n`);
  writeTools([{ name: 'ping', answer: 'pong v1' }]);
  mkdirSync(path.join(live, 'dist'));
  writeFileSync(path.join(live, 'dist', 'index.js'), `import { tools } from './tools.js';\nexport default { manifest: { name: 'live', version: '1.0.0' }, tools: () => tools };\n`);
  writeFileSync(path.join(live, 'dist', 'tools.js'), `export const tools = [{ name: 'ping', description: 'Answers.', handler: () => 'pong v1' }];\n`);
  symlinkSync(live, path.join(app, 'node_modules', '@acme', 'live'));
  symlinkSync(hostDir, path.join(app, 'node_modules', '@reactor', 'host'));
  writeFileSync(path.join(app, 'package.json'), JSON.stringify({ name: 'app', private: true, dependencies: { '@acme/live': '*', '@reactor/host': '*' } }));

  child = spawn(process.execPath, [cli, '--watch', '--port', '0', '--log-level', 'info'], { cwd: app, env: { PATH: process.env.PATH }, stdio: 'pipe' });
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
    const lines = `${stderr}${chunk}`.split('\n');
    const fresh = lines.slice(stderr.split('\n').length - 1, -1);
    stderr += chunk;
    for (const text of fresh) {
      let line: Record<string, unknown>;
      try {
        line = JSON.parse(text) as Record<string, unknown>;
      } catch {
        continue;
      }
      seen.push(line);
      for (const waiter of [...lineWaiters]) {
        if (seen.length > waiter.from && waiter.match(line)) {
          lineWaiters.splice(lineWaiters.indexOf(waiter), 1);
          waiter.resolve(line);
        }
      }
    }
  });
}, 30_000);

afterAll(async () => {
  await Promise.allSettled(clients.map((c) => c.close()));
  if (child && child.exitCode === null) {
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    await exited;
  }
  await rm(work, { recursive: true, force: true });
}, 30_000);

async function session(url: string): Promise<{ client: Client; changed: Promise<void> }> {
  const client = new Client({ name: 'watch-test', version: '1.0.0' });
  clients.push(client);
  let notify: () => void = () => {};
  const changed = new Promise<void>((resolve) => (notify = resolve));
  client.setNotificationHandler('notifications/tools/list_changed', () => notify());
  await client.connect(new StreamableHTTPClientTransport(new URL(url)));
  return { client, changed };
}

const text = (result: unknown) => ((result as { content: Array<{ text: string }> }).content[0]?.text);

const MODERN = '2026-07-28';
const META = {
  'io.modelcontextprotocol/protocolVersion': MODERN,
  'io.modelcontextprotocol/clientCapabilities': {},
  'io.modelcontextprotocol/clientInfo': { name: 'watch-test-2026', version: '1.0.0' },
};

/** Opens a 2026-07-28 listen stream for tool-list changes; resolves once the server acknowledged it. */
async function listenForToolChanges(url: string, signal: AbortSignal) {
  const response = await fetch(url, {
    method: 'POST',
    headers: { ...POST_HEADERS, 'mcp-protocol-version': MODERN, 'mcp-method': 'subscriptions/listen' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'subscriptions/listen', params: { notifications: { toolsListChanged: true }, _meta: META } }),
    signal,
  });
  expect(response.status).toBe(200);
  const stream = readSse(response, signal);
  expect((await stream.next()).method).toBe('notifications/subscriptions/acknowledged');
  return stream;
}

describe('reactor-mcp-server --watch', () => {
  let url: string;

  it('serves the linked extension, saying it watches it', async () => {
    const [serving, watching] = await Promise.all([logFrom(0, (l) => l.watch === true && typeof l.url === 'string'), logFrom(0, (l) => Array.isArray(l.packages))]);
    url = serving.url as string;
    expect(watching.packages).toEqual(['@acme/live']);
    const { client } = await session(url);
    expect(text(await client.callTool({ name: 'ping', arguments: {} }))).toBe('pong v1');
  });

  it('a source change rebuilds and reloads the package (its imported module too) and notifies the open session and listen stream', async () => {
    const open = await session(url);
    expect((await open.client.listTools()).tools.map((t) => t.name)).toContain('ping');
    const abort = new AbortController();
    const listening = await listenForToolChanges(url, abort.signal);
    const reloaded = logFrom(seen.length, (l) => typeof l.msg === 'string' && l.msg.startsWith('watch: reloaded'));
    writeTools([{ name: 'ping', answer: 'pong v2' }, { name: 'pong', answer: 'ping v2' }]);
    await open.changed;
    expect((await listening.next()).method).toBe('notifications/tools/list_changed');
    abort.abort();
    expect(await reloaded).toMatchObject({ tools: ['ping', 'pong'], notified: 2, listenStreams: 1 });
    const fresh = await session(url);
    expect((await fresh.client.listTools()).tools.map((t) => t.name).sort()).toEqual(['list_server_toolsets', 'ping', 'pong']);
    expect(text(await fresh.client.callTool({ name: 'ping', arguments: {} }))).toBe('pong v2');
  }, 60_000);

  it('a failing build is logged and the last good tools keep serving', async () => {
    const failed = logFrom(seen.length, (l) => typeof l.msg === 'string' && l.msg.startsWith('watch: reload failed'));
    writeFileSync(path.join(live, 'src', 'tools.js'), 'SYNTAX ERROR\n');
    expect((await failed).msg).toContain('build failed: syntax error');
    const { client } = await session(url);
    expect(text(await client.callTool({ name: 'ping', arguments: {} }))).toBe('pong v2');
  }, 60_000);
});
