/**
 * Kernels behind authentication (issue 42, finding 2), through the real
 * command (`runCommand`: HTTP on a free loopback port, a static tokens file)
 * with the embedded Jupyter Server an operator gets from `jupyter: 'auto'`,
 * and real MCP clients:
 *
 * - a token without the `kernels` scope is refused `?kernels` (403), and one
 *   with it is served;
 * - kernel code sees none of the server's secrets — not in its environment,
 *   not in the Jupyter Server's, not in the Jupyter runtime folder — even
 *   though this process holds them;
 * - a second principal cannot see, interrupt or read another's runs, nor
 *   reach its kernel's variables.
 */
import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { createSpacesExtension } from '@reactor/ext-spaces';
import { buildHost, runCommand, silentLogger, type CallToolResult, type RunningCommand } from '@reactor/host';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createKernelsExtension, type KernelsExtension } from '../src/index.js';
import { copyLab, jupyterPython, type LabCopy } from './helpers/lab.js';

/** What the server process holds and kernel code must never see. */
const SECRETS = {
  REACTOR_MCP_REQUEST_STATE_KEY: randomBytes(48).toString('base64'),
  REACTOR_MCP_AUTH_CLIENT_SECRET: `client-secret-${randomBytes(8).toString('hex')}`,
  JUPYTER_TOKEN: `outer-jupyter-token-${randomBytes(8).toString('hex')}`,
};
const TOKENS = { reader: `reader-${randomBytes(8).toString('hex')}`, alice: `alice-${randomBytes(8).toString('hex')}`, bob: `bob-${randomBytes(8).toString('hex')}` };
const sha256 = (token: string) => createHash('sha256').update(token, 'utf8').digest('hex');

let lab: LabCopy;
let etc: string;
let kernels: KernelsExtension;
let running: RunningCommand;
const saved: Record<string, string | undefined> = {};
const clients: Client[] = [];

beforeAll(async () => {
  jupyterPython(); // fails here, saying what to install, where no Python has Jupyter (the extension finds the same one)
  lab = copyLab();
  // This process holds the secrets, as a deployed server does (the extension wakes inside it).
  for (const [name, value] of Object.entries(SECRETS)) {
    saved[name] = process.env[name];
    process.env[name] = value;
  }
  etc = mkdtempSync(join(tmpdir(), 'reactor-kernels-tokens-'));
  const tokensFile = join(etc, 'tokens.json');
  writeFileSync(tokensFile, JSON.stringify([
    { name: 'reader', sha256: sha256(TOKENS.reader), scopes: [] },
    { name: 'alice', sha256: sha256(TOKENS.alice), scopes: ['kernels'] },
    { name: 'bob', sha256: sha256(TOKENS.bob), scopes: ['kernels'] },
  ]));
  kernels = createKernelsExtension({ jupyter: 'auto', spaces: { roots: [lab.root] }, logger: silentLogger });
  const started = await runCommand(['--port', '0', '--log-level', 'silent', '--auth-tokens-file', tokensFile], { ...process.env }, {
    loadExtensions: () => Promise.resolve([]),
    buildHost: (_entries, options) => buildHost([createSpacesExtension({ roots: [lab.root] }), kernels], options),
    createLogger: () => silentLogger,
    // The test process keeps its own signal handling.
    signals: { once: () => process, removeListener: () => process },
    exit: () => {},
  });
  if (!started) throw new Error('the command did not start');
  running = started;
}, 60_000);

afterAll(async () => {
  for (const client of clients.splice(0)) await client.close().catch(() => {});
  await running?.close();
  for (const [name, value] of Object.entries(saved)) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
  lab?.remove();
  if (etc) rmSync(etc, { recursive: true, force: true });
});

const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
async function connect(token: string, query: string): Promise<Client> {
  const client = new Client({ name: 'kernels-security-test', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${running.url}${query}`), { requestInit: { headers: bearer(token) } }));
  clients.push(client);
  return client;
}
const text = (r: CallToolResult) => r.content.filter((c) => c.type === 'text').map((c) => (c as { text: string }).text).join('\n');
async function ok(client: Client, name: string, args: Record<string, unknown>): Promise<CallToolResult> {
  const result = await client.callTool({ name, arguments: args });
  expect(result.isError, text(result).slice(0, 500)).toBeFalsy();
  return result;
}
const initialize = { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '1.0.0' } } };

describe('kernels behind static tokens, on an embedded Jupyter Server', () => {
  it('refuses ?kernels to a token without the kernels scope (403, waking nothing) and serves it with the scope', async () => {
    const refused = await fetch(new URL(`${running.url}?kernels`), { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...bearer(TOKENS.reader) }, body: JSON.stringify(initialize) });
    expect(refused.status).toBe(403);
    expect(refused.headers.get('www-authenticate')).toMatch(/error="insufficient_scope".*scope="kernels"/);
    const health = (await (await fetch(new URL('/healthz', running.url))).json()) as { extensions: Record<string, { state: string }> };
    expect(health.extensions['kernels']?.state).toBe('held');
    // The reader still gets what needs no scope, and /toolsets says kernels is denied to it.
    const reader = await connect(TOKENS.reader, '');
    const readerTools = (await reader.listTools()).tools.map((t) => t.name);
    expect(readerTools).toContain('list_spaces');
    expect(readerTools).not.toContain('execute_code');
    const described = (await (await fetch(new URL('/toolsets', running.url), { headers: bearer(TOKENS.reader) })).json()) as { denied?: string[] };
    expect(described.denied).toContain('kernels');

    const alice = await connect(TOKENS.alice, '?kernels');
    expect((await alice.listTools()).tools.map((t) => t.name)).toEqual(expect.arrayContaining(['execute_code', 'execute_cell', 'get_execution']));
  }, 120_000);

  it('declares the scope in package.json too, so a discovered (held) kernels is gated before it is even imported', () => {
    const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { reactorMcp: { extensions: { kernels: { toolsets: Array<{ name: string; scopes?: string[] }> } } } };
    expect(pkg.reactorMcp.extensions.kernels.toolsets).toEqual([expect.objectContaining({ name: 'kernels', scopes: ['kernels'] })]);
  });

  it('runs kernel code with a minimal environment: none of the server\'s secrets, nor the Jupyter token, anywhere the code can look', async () => {
    const alice = await connect(TOKENS.alice, '?kernels');
    const code = [
      'import json, os',
      'runtime = os.environ.get("JUPYTER_RUNTIME_DIR", "")',
      'files = sorted(os.listdir(runtime)) if runtime else []',
      'print(json.dumps({',
      '  "env": sorted(os.environ),',
      '  "values": "\\n".join(os.environ.values()),',
      '  "server_env": open(f"/proc/{os.getppid()}/environ").read().replace("\\0", "\\n"),',
      '  "server_cmdline": open(f"/proc/{os.getppid()}/cmdline").read().replace("\\0", " "),',
      '  "runtime_files": files,',
      '  "runtime_text": "\\n".join(open(os.path.join(runtime, f)).read() for f in files if os.path.isfile(os.path.join(runtime, f))),',
      '}))',
    ].join('\n');
    const result = await ok(alice, 'execute_code', { space: 'lab', path: 'basics.ipynb', code, timeout_s: 60 });
    const seen = JSON.parse(text(result).split('\n').find((line) => line.startsWith('{')) ?? '{}') as { env: string[]; values: string; server_env: string; server_cmdline: string; runtime_files: string[]; runtime_text: string };
    expect(seen.env).toContain('PATH');
    expect(seen.env.filter((name) => name.startsWith('REACTOR_') || name.startsWith('JUPYTER_TOKEN'))).toEqual([]);
    const jupyterToken = kernels.runtime().client().endpoint.token;
    const everything = JSON.stringify(seen);
    for (const secret of [...Object.values(SECRETS), jupyterToken, TOKENS.alice, TOKENS.bob]) expect(everything).not.toContain(secret);
    expect(seen.server_env).not.toMatch(/^(REACTOR_|JUPYTER_TOKEN)/m);
    // The files that repeat the token (and the cookie secret) are gone once the server runs.
    expect(seen.runtime_files.filter((f) => f.startsWith('jpserver-') || f === 'jupyter_cookie_secret')).toEqual([]);
  }, 120_000);

  it('keeps runs and kernels to the principal that started them: bob cannot interrupt, read or reach alice\'s', async () => {
    const alice = await connect(TOKENS.alice, '?kernels');
    const bob = await connect(TOKENS.bob, '?kernels');
    const notebook = { space: 'lab', path: 'alpha.ipynb' };
    // Alice starts a long run; its first output (a progress notification) says it is going.
    let going!: () => void;
    const printed = new Promise<void>((resolve) => (going = resolve));
    const aliceRun = alice.callTool(
      { name: 'execute_code', arguments: { ...notebook, code: 'import time\nsecret = "alice-private-7f3a"\nprint("alice started", flush=True)\ntime.sleep(300)', timeout_s: 300 } },
      { onprogress: () => going(), timeout: 400_000 },
    );
    aliceRun.catch(() => {}); // awaited below; a failure before that must not surface as an unhandled rejection
    await printed;

    // Bob sees no kernel of alice's, and his interrupt_kernel neither reaches her run nor names it.
    const bobList = (await ok(bob, 'list_kernels', {})).structuredContent as { kernels: Array<{ id: string }> };
    const aliceList = (await ok(alice, 'list_kernels', {})).structuredContent as { kernels: Array<{ id: string; notebook: { path: string } | null }> };
    const aliceKernel = aliceList.kernels.find((k) => k.notebook?.path === 'alpha.ipynb')!;
    expect(aliceKernel).toBeDefined();
    expect(bobList.kernels.map((k) => k.id)).not.toContain(aliceKernel.id);
    const bobInterrupt = await bob.callTool({ name: 'interrupt_kernel', arguments: notebook });
    expect(bobInterrupt.isError).toBe(true);
    expect(text(bobInterrupt)).toContain('has no live kernel');
    const bobRead = (await ok(bob, 'read_notebook', notebook)).structuredContent as { live_kernel?: { live: boolean } };
    expect(bobRead.live_kernel?.live).toBe(false);

    // Alice stops her own run; its id is hers alone.
    const interrupted = (await ok(alice, 'interrupt_kernel', notebook)).structuredContent as { interrupted_runs: string[]; kernel_id: string };
    expect(interrupted.kernel_id).toBe(aliceKernel.id);
    const finished = await aliceRun;
    const run = finished.structuredContent as { execution_id: string; status: string };
    expect(run.status).toBe('interrupted');
    expect(interrupted.interrupted_runs).toEqual([run.execution_id]);
    expect(text(await ok(alice, 'get_execution', { execution_id: run.execution_id }))).toContain('alice started');
    const bobGet = await bob.callTool({ name: 'get_execution', arguments: { execution_id: run.execution_id } });
    expect(bobGet.isError).toBe(true);
    expect(text(bobGet)).toContain('is not known');
    expect(text(bobGet)).not.toContain('alice started');

    // Bob's code on the same notebook runs on a kernel of his own, which does not have alice's variables.
    const peek = await ok(bob, 'execute_code', { ...notebook, code: 'print(repr(globals().get("secret")))', timeout_s: 60 });
    expect(text(peek)).toContain('None');
    expect(text(peek)).not.toContain('alice-private-7f3a');
    const bobKernels = (await ok(bob, 'list_kernels', {})).structuredContent as { kernels: Array<{ id: string }> };
    expect(bobKernels.kernels.map((k) => k.id)).not.toContain(aliceKernel.id);
    expect(text(await ok(alice, 'execute_code', { ...notebook, code: 'print(secret)' }))).toContain('alice-private-7f3a');
  }, 240_000);
});
