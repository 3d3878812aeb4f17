/**
 * A stranger's project: an empty folder, plain npm pointed at the registry
 * with `--registry`, and the installed `reactor-mcp-server` serving what was
 * installed to a real MCP client.
 */
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { cleanEnv, startServer } from './integrator.js';
import { CommandFailed, run } from './run.js';

/** Creates `dir` with `npm init -y`. */
export async function createProject(dir: string): Promise<void> {
  mkdirSync(dir, { recursive: true });
  await run('npm', ['init', '-y'], { cwd: dir, env: cleanEnv() });
}

/** The outcome of one `npm install`: whether npm accepted it, and what it printed. */
export interface InstallOutcome {
  readonly ok: boolean;
  /** npm's error code when it refused (`ERESOLVE` for a peer conflict). */
  readonly errorCode: string | undefined;
  readonly output: string;
}

/** `npm install --registry <registry> <specs>` in `dir`, warnings kept in the output (npm reports an overridden peer range as one). */
export async function npmInstall(dir: string, registry: string, specs: readonly string[]): Promise<InstallOutcome> {
  const args = ['install', '--registry', registry, '--no-audit', '--no-fund', '--loglevel=warn', ...specs];
  try {
    const { stdout, stderr } = await run('npm', args, { cwd: dir, env: cleanEnv(), timeoutMs: 300_000 });
    return { ok: true, errorCode: undefined, output: `${stdout}${stderr}` };
  } catch (error) {
    if (!(error instanceof CommandFailed)) throw error;
    const output = `${error.stdout}${error.stderr}`;
    return { ok: false, errorCode: /npm error code (\S+)/.exec(output)?.[1], output };
  }
}

/** The version of `name` installed in project `dir`. */
export function installedVersion(dir: string, name: string): string {
  return (JSON.parse(readFileSync(join(dir, 'node_modules', ...name.split('/'), 'package.json'), 'utf8')) as { version: string }).version;
}

/** `npx reactor-mcp-server --version` in `dir`: the bin npm linked, answering with its package's version. */
export async function binVersion(dir: string): Promise<string> {
  return (await run('npx', ['--offline', 'reactor-mcp-server', '--version'], { cwd: dir, env: cleanEnv() })).stdout.trim();
}

/** What `reactor-mcp-server`'s start-up summary said, with its extensions as `name@version`. */
export interface StartupSummary {
  readonly loaded: readonly string[];
  readonly held: readonly string[];
  readonly skipped: ReadonlyArray<{ extension: string; state: string; why: readonly string[] }>;
}

/** What a real client saw of an installed server. */
export interface ServeProbe {
  readonly url: string;
  readonly summary: StartupSummary;
  /** Every toolset the server declares (`GET /toolsets`), sorted. */
  readonly toolsets: readonly string[];
  /** `tools/list` at the endpoint, sorted. */
  readonly defaultTools: readonly string[];
  /** `tools/list` with every declared toolset turned on, sorted. */
  readonly allTools: readonly string[];
  /** How the server ended on SIGTERM. */
  readonly exit: { code: number | null; signal: NodeJS.Signals | null };
}

const sorted = (names: Iterable<string>) => [...names].sort();

/**
 * Starts the project's `reactor-mcp-server` on a free port, lists its tools
 * with a real MCP client (Streamable HTTP) at the endpoint and with every
 * toolset on, then stops it with SIGTERM.
 */
export async function serveAndProbe(dir: string, env: Record<string, string>): Promise<ServeProbe> {
  const server = await startServer(join(dir, 'node_modules', '.bin', 'reactor-mcp-server'), ['--port', '0'], { cwd: dir, env: cleanEnv(env) });
  const clients: Client[] = [];
  try {
    const summaryLine = server.stderr().split('\n').find((line) => line.includes(server.url));
    const summary = JSON.parse(summaryLine ?? '{}') as StartupSummary;
    const body = (await (await fetch(new URL('/toolsets', server.url))).json()) as { toolsets: Array<{ name: string }> };
    const toolsets = sorted(body.toolsets.map((t) => t.name));
    const list = async (query: string) => {
      const client = new Client({ name: 'reactor-release-rehearsal', version: '1.0.0' });
      clients.push(client);
      await client.connect(new StreamableHTTPClientTransport(new URL(`${server.url}${query}`)));
      return sorted((await client.listTools()).tools.map((t) => t.name));
    };
    const defaultTools = await list('');
    const allTools = await list(toolsets.length > 0 ? `?toolsets=${toolsets.map(encodeURIComponent).join(',')}` : '');
    await Promise.all(clients.splice(0).map((c) => c.close()));
    const exit = await server.stop();
    return { url: server.url, summary: { loaded: summary.loaded ?? [], held: summary.held ?? [], skipped: summary.skipped ?? [] }, toolsets, defaultTools, allTools, exit };
  } finally {
    await Promise.allSettled(clients.map((c) => c.close()));
    await server.stop();
  }
}
