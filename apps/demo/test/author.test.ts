/**
 * A new extension author's path, from nothing to a served tool, outside the
 * workspace and with npm (not pnpm), as someone on a fresh machine would take
 * it before a release: the commands of docs/writing-an-extension.md's
 * "Before a release" block, read from the guide and run as written (the
 * packages packed with `pnpm pack`, the scaffolder run from its tarball into
 * an empty folder, `npm install` with the host from its tarball and
 * everything else from the registry), then `npm test`, `npm run lint`, `npm run check` (reactor-mcp-server
 * check), `npm pack` (publint and attw on the tarball), then the tarball
 * installed beside the host into an empty application, served by
 * `reactor-mcp-server`, and its tool called by a real MCP client.
 *
 * Each step is one test and they run in order; the time each took is printed
 * at the end. Needs the packages built (`pnpm test` builds first) and the npm
 * registry (for zod, typescript, vitest, eslint…).
 */
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { cleanEnv, installTarballs, requireBuilt, startServer, type RunningServer } from '@reactor/release/integrator';

const exec = promisify(execFile);
const repoRoot = fileURLToPath(new URL('../../..', import.meta.url));
const BIN = join(repoRoot, 'node_modules', '.bin');
const STEP_MS = 300_000;

let work: string;
let hostTarball: string;
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

/**
 * The guide's "Before a release" commands, comment lines dropped. The test
 * runs them as written, with `~/reactor-packs` pointed at its temp folder.
 */
function guideCommands(): string[] {
  const guide = readFileSync(join(repoRoot, 'docs', 'writing-an-extension.md'), 'utf8');
  const at = guide.indexOf('**Before a release**');
  const open = guide.indexOf('```sh\n', at);
  const close = guide.indexOf('\n```', open + 6);
  if (at < 0 || open < 0 || close < 0) throw new Error('docs/writing-an-extension.md has no "**Before a release**" paragraph followed by a ```sh block');
  return guide.slice(open + 6, close).split('\n').filter((line) => line.trim() !== '' && !line.startsWith('#'));
}
const commands = guideCommands();
const packs = () => join(work, 'packs');
const asWritten = (command: string) => command.replaceAll('~/reactor-packs', packs());
const onlyTarball = (prefix: string) => {
  const found = readdirSync(packs()).filter((f) => f.startsWith(prefix) && f.endsWith('.tgz'));
  if (found.length !== 1) throw new Error(`expected one ${prefix}*.tgz in ${packs()}, found ${found.join(', ') || 'none'}`);
  return join(packs(), found[0]!);
};
const npm = (step: string, ...args: string[]) => run(step, 'npm', [...args, '--no-audit', '--no-fund', '--loglevel=error'], project());

beforeAll(async () => {
  // The guide's first command builds the workspace; the suite has built it already (a build under running tests would empty dist/).
  expect(commands[0]).toBe('pnpm install && pnpm build');
  requireBuilt(repoRoot, ['packages/host', 'packages/create-extension']);
  work = mkdtempSync(join(tmpdir(), 'reactor-author-'));
  mkdirSync(packs());
  // The guide's second command, as written: pnpm pack of the host and the scaffolder.
  expect(commands[1]).toMatch(/^pnpm --filter @reactor\/host --filter @reactor\/create-extension pack --pack-destination ~\/reactor-packs$/);
  await run('pnpm pack (host, scaffolder)', 'bash', ['-euo', 'pipefail', '-c', asWritten(commands[1]!)], repoRoot);
  hostTarball = onlyTarball('reactor-host-');
  onlyTarball('reactor-create-extension-'); // the guide's scaffold command finds it by this name
}, 120_000);

afterAll(async () => {
  const lines = timings.map(([step, ms]) => `  ${(ms / 1000).toFixed(1).padStart(6)} s  ${step}`);
  process.stderr.write(`\nThe author's path took ${((Date.now() - started) / 1000).toFixed(1)} s:\n${lines.join('\n')}\n`);
  if (server && server.child.exitCode === null && server.child.signalCode === null) server.child.kill('SIGKILL');
  if (work) await rm(work, { recursive: true, force: true });
}, 120_000);

describe('an author goes from npm create to a served tool, with npm and packed tarballs', () => {
  it('the guide\'s scaffold command (the scaffolder run from its tarball, into an empty folder) writes a complete package', async () => {
    expect(readdirSync(work).sort()).toEqual(['packs']);
    expect(commands[2]).toMatch(/^npm exec --yes --package=.*create-extension reactor-greetings .*--host-spec file:/);
    const output = await run('npm exec create-extension (scaffold)', 'bash', ['-euo', 'pipefail', '-c', asWritten(commands[2]!)], work);
    expect(output).toContain('Wrote reactor-greetings (extension "greetings", toolset "greetings", opt-in)');
    const manifest = JSON.parse(readFileSync(join(project(), 'package.json'), 'utf8')) as Record<string, Record<string, unknown>>;
    expect(manifest.peerDependencies).toEqual({ '@reactor/host': `^${JSON.parse(readFileSync(join(repoRoot, 'packages/host/package.json'), 'utf8')).version as string}` });
    expect(manifest.reactorMcp).toMatchObject({ extensions: { greetings: { activationEvents: ['onToolset:greetings'], toolsets: [{ name: 'greetings', default: false }] } } });
  }, STEP_MS);

  it('npm install: the host from its tarball, the rest from the registry', async () => {
    expect(commands.slice(3)).toEqual(['cd reactor-greetings', 'npm install']); // the guide's last two, run here in that folder
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
    // The tests stay out of what is published: tsconfig.build.json leaves them out of dist/, files excludes any that slip in.
    const packed = (await run('tar -tzf (list the tarball)', 'tar', ['-tzf', extensionTarball], work)).split('\n').filter(Boolean);
    expect(packed).toContain('package/dist/index.js');
    expect(packed.filter((f) => f.includes('.test.'))).toEqual([]);
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
