/**
 * The cold-start phase: the built `reactor-mcp-server` command serving an
 * application with 50 installed extensions, 48 of them held (their toolsets
 * are opt-in and declared in package.json, so discovery lists them without
 * importing them), against the same application with only the 2 that are not
 * held. Timed from spawn to the first correct `tools/list` answer; the two
 * alternate, and each pair gives one ratio.
 */
import { spawn } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Pool } from 'undici';
import { median } from './stats.js';
import { MODERN_VERSION, messageOf } from './wire.js';

/** Tools each fixture extension offers. */
export const TOOLS_PER_EXTENSION = 10;

/** One fixture extension package: its package.json and module. */
export interface FixtureExtension {
  readonly packageName: string;
  readonly manifest: Record<string, unknown>;
  readonly source: string;
}

/** The fixture extension `index` (held ones declare an opt-in toolset and an activation event). */
export function fixtureExtension(index: number, held: boolean): FixtureExtension {
  const name = `bench${String(index).padStart(2, '0')}`;
  const toolset = { name, description: `Toolset ${name}.`, default: !held };
  const activation = held ? { activationEvents: [`onToolset:${name}`] } : {};
  const tools = Array.from({ length: TOOLS_PER_EXTENSION }, (_, t) => ({
    name: `${name}_tool_${t}`,
    description: `Tool ${t} of ${name}.`,
    inputSchema: { type: 'object', properties: { query: { type: 'string' } }, required: ['query'] },
  }));
  // A plain object satisfying the extension contract: a temp dir cannot resolve @reactor/host.
  const source = [
    `const tools = ${JSON.stringify(tools)};`,
    'export default {',
    `  manifest: ${JSON.stringify({ name, version: '1.0.0', ...activation })},`,
    `  toolsets() { return [${JSON.stringify(toolset)}]; },`,
    '  tools() { return tools.map((t) => ({ ...t, handler: ({ query }) => `${t.name}: ${query}` })); },',
    '};',
    '',
  ].join('\n');
  const manifest = {
    name: `ext-${name}`,
    version: '1.0.0',
    type: 'module',
    peerDependencies: { '@reactor/host': '>=0.0.0' },
    reactorMcp: { extensions: { [name]: held ? { module: './index.js', ...activation, toolsets: [toolset] } : './index.js' } },
  };
  return { packageName: `ext-${name}`, manifest, source };
}

/** Writes an application with these extensions installed (hoisted layout); its directory. */
export async function writeFixtureApp(root: string, extensions: readonly FixtureExtension[]): Promise<string> {
  await mkdir(path.join(root, 'node_modules'), { recursive: true });
  const dependencies: Record<string, string> = {};
  for (const ext of extensions) {
    const dir = path.join(root, 'node_modules', ext.packageName);
    await mkdir(dir, { recursive: true });
    await writeFile(path.join(dir, 'package.json'), `${JSON.stringify(ext.manifest, null, 2)}\n`);
    await writeFile(path.join(dir, 'index.js'), ext.source);
    dependencies[ext.packageName] = '^1.0.0';
  }
  await writeFile(path.join(root, 'package.json'), `${JSON.stringify({ name: 'bench-app', version: '0.0.0', private: true, dependencies }, null, 2)}\n`);
  return root;
}

/** The built command of the workspace's `@reactor/host`. */
export function commandPath(): string {
  const require = createRequire(import.meta.url);
  return path.join(path.dirname(require.resolve('@reactor/host/package.json')), 'dist', 'cli.js');
}

const START_TIMEOUT_MS = 30_000;

/** What the command's start-up summary (its log line carrying `url`) says. */
interface StartSummary {
  readonly url: string;
  readonly held: readonly unknown[];
  readonly loaded: readonly unknown[];
}

/** The start-up summary in what the command wrote to stderr so far, once a whole line of it arrived. */
export function startSummary(stderr: string): StartSummary | undefined {
  for (const line of stderr.split('\n')) {
    if (!line.includes('"url":"http')) continue;
    try {
      const fields = JSON.parse(line) as { url?: unknown; held?: unknown; loaded?: unknown };
      if (typeof fields.url === 'string') return { url: fields.url, held: Array.isArray(fields.held) ? fields.held : [], loaded: Array.isArray(fields.loaded) ? fields.loaded : [] };
    } catch {
      // Not a whole line yet.
    }
  }
  return undefined;
}

/**
 * Spawns the command in `app`, waits for its start-up summary on stderr,
 * lists tools; milliseconds from spawn to the checked answer. Checks that
 * `held` extensions were held (not imported) and the list has `expectedTools`.
 */
export async function timeToFirstList(app: string, expected: { tools: number; held: number }): Promise<number> {
  const start = performance.now();
  const child = spawn(process.execPath, [commandPath(), '--port', '0', '--log-level', 'info', '--no-toolsets-tool'], { cwd: app, stdio: ['ignore', 'ignore', 'pipe'] });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  try {
    const summary = await new Promise<StartSummary>((resolve, reject) => {
      let seen = '';
      const timer = setTimeout(() => reject(new Error(`the command did not report its URL within ${START_TIMEOUT_MS} ms; stderr: ${seen.slice(-2000)}`)), START_TIMEOUT_MS);
      child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
        seen += chunk;
        const found = startSummary(seen);
        if (found) {
          clearTimeout(timer);
          resolve(found);
        }
      });
      child.once('exit', (code) => reject(new Error(`the command exited with code ${code} before listening; stderr: ${seen.slice(-2000)}`)));
    });
    if (summary.held.length !== expected.held) throw new Error(`the command held ${summary.held.length} extension(s), expected ${expected.held}`);
    const target = new URL(summary.url);
    const pool = new Pool(target.origin, { connections: 1 });
    try {
      const response = await pool.request({
        path: target.pathname,
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': MODERN_VERSION, 'mcp-method': 'tools/list' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: { _meta: { 'io.modelcontextprotocol/protocolVersion': MODERN_VERSION, 'io.modelcontextprotocol/clientCapabilities': {} } } }),
      });
      const body = await response.body.text();
      const elapsed = performance.now() - start;
      const ct = response.headers['content-type'];
      const message = messageOf(body, Array.isArray(ct) ? ct[0] : ct) as { result?: { tools?: unknown[] } };
      if (response.statusCode !== 200 || message.result?.tools?.length !== expected.tools) {
        throw new Error(`the first tools/list answered HTTP ${response.statusCode} with ${message.result?.tools?.length ?? 'no'} tools, expected ${expected.tools}: ${body.slice(0, 300)}`);
      }
      return elapsed;
    } finally {
      await pool.close();
    }
  } finally {
    child.kill('SIGTERM');
    await exited;
  }
}

/** How the phase runs. */
export interface ColdStartOptions {
  readonly pairs: number;
  readonly progress: (line: string) => void;
}

/** Medians of the two start-up times and of the per-pair ratio (50 installed / 2 installed). */
export interface ColdStartResult {
  readonly fewMs: number;
  readonly manyMs: number;
  readonly ratio: number;
}

/** Runs the phase in a temp dir it removes afterwards. */
export async function measureColdStart(options: ColdStartOptions): Promise<ColdStartResult> {
  const root = await mkdtemp(path.join(tmpdir(), 'reactor-bench-'));
  try {
    const active = [fixtureExtension(0, false), fixtureExtension(1, false)];
    const held = Array.from({ length: 48 }, (_, i) => fixtureExtension(i + 2, true));
    const few = await writeFixtureApp(path.join(root, 'two'), active);
    const many = await writeFixtureApp(path.join(root, 'fifty'), [...active, ...held]);
    const tools = active.length * TOOLS_PER_EXTENSION;
    const time = (which: 'few' | 'many') => timeToFirstList(which === 'few' ? few : many, { tools, held: which === 'few' ? 0 : held.length });
    // Warm-up pair: the file system cache, alike for both.
    await time('few');
    await time('many');
    const fewMs: number[] = [];
    const manyMs: number[] = [];
    for (let pair = 0; pair < options.pairs; pair++) {
      // Alternate which goes first, so neither always follows the other.
      if (pair % 2 === 0) {
        fewMs.push(await time('few'));
        manyMs.push(await time('many'));
      } else {
        manyMs.push(await time('many'));
        fewMs.push(await time('few'));
      }
    }
    options.progress('  cold start done');
    return { fewMs: median(fewMs), manyMs: median(manyMs), ratio: median(manyMs.map((m, i) => m / fewMs[i]!)) };
  } finally {
    await rm(root, { recursive: true, force: true });
  }
}
