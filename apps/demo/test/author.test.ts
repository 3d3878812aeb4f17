/**
 * A new extension author's path, from nothing to a served tool, outside the
 * workspace and with npm (not pnpm), as someone on a fresh machine would take
 * it: `npm create @reactor/extension` (run from the packed scaffolder),
 * `npm install` (the host from its packed tarball, everything else from the
 * registry), `npm test`, `npm run lint`, `npm run check` (reactor-mcp-server
 * check), `npm pack` (publint and attw on the tarball), then the tarball
 * installed beside the host into an empty application, served by
 * `reactor-mcp-server`, and its tool called by a real MCP client.
 *
 * Each step is one test and they run in order; the time each took is printed
 * at the end. Needs the packages built (`pnpm test` builds first) and the npm
 * registry (for zod, typescript, vitest, eslint…).
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { cleanEnv, installTarballs, packPackage, requireBuilt, startServer, type RunningServer } from '@reactor/release/integrator';

const exec = promisify(execFile);
const repoRoot = fileURLToPath(new URL('../../..', import.meta.url));
const BIN = join(repoRoot, 'node_modules', '.bin');
const STEP_MS = 300_000;

let work: string;
let hostTarball: string;
let creatorTarball: string;
let extensionTarball: string;
let server: RunningServer | undefined;
const timings: Array<[step: string, ms: number]> = [];
const started = Date.now();

/** Runs a command the way an author types it; on failure, the error carries its whole output. */
async function run(step: string, command: string, args: string[], cwd: string): Promise<string> {
  const t0 = Date.now();
  try {
    const { stdout, stderr } = await exec(command, args, { cwd, env: cleanEnv({ CI: '1', NO_COLOR: '1', FORCE_COLOR: '0' }), maxBuffer: 32 * 1024 * 1024 });
    return `${stdout}${stderr}`;
  } catch (error) {
    const { stdout = '', stderr = '' } = error as { stdout?: string; stderr?: string };
    throw new Error(`${step}: \`${command} ${args.join(' ')}\` failed in ${cwd}:\n${stdout}${stderr}`, { cause: error });
  } finally {
    timings.push([step, Date.now() - t0]);
  }
}

const project = () => join(work, 'reactor-greetings');
const npm = (step: string, ...args: string[]) => run(step, 'npm', [...args, '--no-audit', '--no-fund', '--loglevel=error'], project());

beforeAll(async () => {
  requireBuilt(repoRoot, ['packages/host', 'packages/create-extension']);
  work = mkdtempSync(join(tmpdir(), 'reactor-author-'));
  const t0 = Date.now();
  [hostTarball, creatorTarball] = await Promise.all([packPackage(join(repoRoot, 'packages/host'), join(work, 'packs')), packPackage(join(repoRoot, 'packages/create-extension'), join(work, 'packs'))]);
  timings.push(['pack @reactor/host and @reactor/create-extension', Date.now() - t0]);
}, 120_000);

afterAll(async () => {
  const lines = timings.map(([step, ms]) => `  ${(ms / 1000).toFixed(1).padStart(6)} s  ${step}`);
  process.stderr.write(`\nThe author's path took ${((Date.now() - started) / 1000).toFixed(1)} s:\n${lines.join('\n')}\n`);
  if (server && server.child.exitCode === null && server.child.signalCode === null) server.child.kill('SIGKILL');
  if (work) await rm(work, { recursive: true, force: true });
}, 120_000);

describe('an author goes from npm create to a served tool, with npm and packed tarballs', () => {
  it('npm create @reactor/extension (the scaffolder run from its tarball) writes a complete package', async () => {
    // `npm create @reactor/extension` is `npm exec @reactor/create-extension`; here its package is the tarball.
    const output = await run('npm create (scaffold)', 'npm', ['exec', '--yes', `--package=${creatorTarball}`, '--', 'create-extension', 'reactor-greetings', '--toolset', 'greetings', '--opt-in', '--host-spec', `file:${hostTarball}`, '--yes'], work);
    expect(output).toContain('Wrote reactor-greetings (extension "greetings", toolset "greetings", opt-in)');
    const manifest = JSON.parse(readFileSync(join(project(), 'package.json'), 'utf8')) as Record<string, Record<string, unknown>>;
    expect(manifest.peerDependencies).toEqual({ '@reactor/host': `^${JSON.parse(readFileSync(join(repoRoot, 'packages/host/package.json'), 'utf8')).version as string}` });
    expect(manifest.reactorMcp).toMatchObject({ extensions: { greetings: { activationEvents: ['onToolset:greetings'], toolsets: [{ name: 'greetings', default: false }] } } });
  }, STEP_MS);

  it('npm install: the host from its tarball, the rest from the registry', async () => {
    await npm('npm install', 'install', '--prefer-offline');
  }, STEP_MS);

  it('npm test: the generated tests, the contract battery included, pass', async () => {
    const output = await npm('npm test', 'test');
    expect(output).toMatch(/Tests\s+\S*\s*6 passed/);
    expect(output).toContain('reactor-mcp-server check finds no error');
  }, STEP_MS);

  it('npm run lint: the generated eslint config passes on the generated code', async () => {
    await npm('npm run lint', 'run', 'lint');
  }, STEP_MS);

  it('npm run check: builds, and reactor-mcp-server check passes with no warning', async () => {
    const output = await npm('npm run check (build + reactor-mcp-server check)', 'run', 'check');
    expect(output).toMatch(/toolset "greetings" \(extension "greetings"\): 1 tool\(s\), \d+ tokens \(o200k_base\)/);
    expect(output).toContain('OK: 0 error(s), 0 warning(s)');
  }, STEP_MS);

  it('npm pack: a tarball that publint and attw pass', async () => {
    // --ignore-scripts: prepack would only rebuild what the check step just built.
    await npm('npm pack', 'pack', '--ignore-scripts');
    const tarball = readdirSync(project()).find((f) => f.endsWith('.tgz'));
    expect(tarball).toBe('reactor-greetings-0.1.0.tgz');
    extensionTarball = join(project(), tarball!);
    await run('publint --strict', join(BIN, 'publint'), ['run', extensionTarball, '--strict', '--pack', 'false'], work);
    await run('attw --profile esm-only', join(BIN, 'attw'), [extensionTarball, '--profile', 'esm-only', '--format', 'ascii', '--no-color', '--no-emoji'], work);
  }, STEP_MS);

  it('installed beside the host in an empty app, reactor-mcp-server serves it: ?greetings lists and calls the tool', async () => {
    const app = join(work, 'app');
    let t0 = Date.now();
    await installTarballs(app, [hostTarball, extensionTarball]);
    timings.push(['npm install host + extension into an empty app', Date.now() - t0]);
    t0 = Date.now();
    server = await startServer(join(app, 'node_modules', '.bin', 'reactor-mcp-server'), ['--port', '0'], { cwd: app, env: cleanEnv() });
    const summary = JSON.parse(server.stderr().split('\n').find((line) => line.includes(server!.url))!) as { held: string[] };
    expect(summary.held).toEqual(['greetings@0.1.0 (onToolset:greetings)']);

    const client = new Client({ name: 'author-test', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${server.url}?greetings`)));
    try {
      expect((await client.listTools()).tools.map((t) => t.name)).toContain('greetings_greet');
      const result = await client.callTool({ name: 'greetings_greet', arguments: { name: 'Ada' } });
      expect(result.structuredContent).toEqual({ greeting: 'Hello, Ada!' });
    } finally {
      await client.close();
    }
    expect(await server.stop()).toEqual({ code: 0, signal: null });
    timings.push(['serve, list and call with a real client, stop', Date.now() - t0]);
  }, STEP_MS);
});
