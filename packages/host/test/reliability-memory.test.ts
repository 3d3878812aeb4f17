/**
 * Bounded memory (spec §10): a client enumerating toolset combinations, or
 * opening sessions, cannot grow the server's memory without bound. Tested by
 * counting what the host and the app keep — never by measuring the heap (the
 * RSS figures are in docs/reliability.md, from `pnpm load`).
 *
 * "What the host keeps" is every `Map` the host object holds (the blueprint
 * cache and the per-tenant caches beside it), found by looking, so a cache
 * added later is covered too.
 */
import fc from 'fast-check';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createMcpApp, defineExtension, defineTool, LIST_SERVER_TOOLSETS, silentLogger, type Logger, type McpAppOptions, type McpHost } from '../src/index.js';
import { buildHost } from '../src/host/host.js';
import { snapshotStats } from '../src/kernel/stats.js';
import { killCommand, startCommand, type CommandChild } from './helpers/commandChild.js';
import { fixtureHost } from './helpers/fixtures.js';
import { initializeBody, listen, messagesOf, post, type Listening } from './helpers/http.js';
import { transpileForChild, type Transpiled } from './helpers/transpile.js';
import { layoutApp, type FixtureApp } from './fixtures/packages.js';
import { HOST_CACHE_SIZES, HOST_STATS } from '../src/host/internals.js';

const cleanup: Array<() => Promise<void>> = [];
afterEach(async () => {
  while (cleanup.length > 0) await cleanup.pop()!();
});

const TOOLSETS = Array.from({ length: 12 }, (_, i) => `t${i}`);
const BOUND = 16;

/** 12 opt-in toolsets of one tool each: 4,096 combinations to enumerate. */
async function wideHost(): Promise<McpHost> {
  const host = await buildHost(
    [
      defineExtension({
        manifest: { name: 'wide', version: '1.0.0' },
        toolsets: () => TOOLSETS.map((name) => ({ name, default: false })),
        tools: () => TOOLSETS.map((name) => defineTool({ name: `${name}_tool`, description: `The tool of ${name}.`, toolset: name, handler: () => name })),
      }),
    ],
    { logger: silentLogger, maxCachedSelections: BOUND },
  );
  cleanup.push(() => host.stop());
  return host;
}

async function serve(host: McpHost, options: McpAppOptions = {}): Promise<Listening> {
  const served = await listen(createMcpApp(host, options));
  cleanup.push(() => served.close());
  return served;
}

/** The size of every cache the host keeps, and of any Map it holds directly, by name. */
function hostMaps(host: McpHost): Record<string, number> {
  const direct = Object.entries(host).flatMap(([field, value]) => (value instanceof Map ? [[field, value.size] as const] : []));
  return { ...host[HOST_CACHE_SIZES](), ...Object.fromEntries(direct) };
}

function expectBounded(host: McpHost): void {
  const sizes = hostMaps(host);
  expect(Object.keys(sizes)).toContain('blueprints');
  for (const [field, size] of Object.entries(sizes)) expect(size, `host.${field} holds ${size} entries`).toBeLessThanOrEqual(BOUND);
}

/** `count` distinct, non-empty subsets of the toolsets, in a reproducible order. */
function distinctSubsets(count: number): string[][] {
  const seen = new Set<string>();
  const subsets: string[][] = [];
  for (const subset of fc.sample(fc.subarray(TOOLSETS, { minLength: 1 }), { numRuns: count * 4, seed: 7 })) {
    const key = subset.join(',');
    if (seen.has(key)) continue;
    seen.add(key);
    subsets.push(subset);
    if (subsets.length === count) break;
  }
  expect(subsets).toHaveLength(count);
  return subsets;
}

const MODERN_META = { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': {}, 'io.modelcontextprotocol/clientInfo': { name: 'enumerator', version: '1.0.0' } };

/** A raw 2026-07-28 `tools/list` (a server minted for this one request); answers the tool names. */
async function modernToolsList(url: URL, headers: Record<string, string> = {}): Promise<string[]> {
  const response = await post(url, { jsonrpc: '2.0', id: 1, method: 'tools/list', params: { _meta: MODERN_META } }, { ...headers, 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'tools/list' });
  expect(response.status).toBe(200);
  const [message] = await messagesOf(response);
  return (message?.['result'] as { tools: Array<{ name: string }> }).tools.map((t) => t.name);
}

describe('a client enumerating toolset combinations', () => {
  it(`gets every combination served, while the host keeps at most maxCachedSelections (${BOUND}) blueprints`, async () => {
    const host = await wideHost();
    const served = await serve(host, { sessions: false });
    const subsets = distinctSubsets(200);
    const before = snapshotStats(host[HOST_STATS]);
    let largest = 0;
    for (const [i, subset] of subsets.entries()) {
      // Alternate the three selection forms and two routes: /toolsets builds a blueprint too.
      const form = i % 3;
      const path = form === 0 ? `?only=${subset.join(',')}` : form === 1 ? `/only=${subset.join(',')}` : '';
      const headers: Record<string, string> = form === 2 ? { 'x-mcp-toolsets': `only=${subset.join(',')}` } : {};
      if (i % 2 === 0) {
        expect((await modernToolsList(served.url(`/mcp${path}`), headers)).length).toBe(subset.length);
      } else {
        const body = (await (await fetch(served.url(`/toolsets${path}`), { headers })).json()) as { tools: string[] };
        expect(body.tools).toEqual(subset.map((t) => `${t}_tool`).sort());
      }
      largest = Math.max(largest, ...Object.values(hostMaps(host)));
    }
    // Each combination was really built (no sharing hid the enumeration)…
    expect(snapshotStats(host[HOST_STATS]).blueprints - before.blueprints).toBe(subsets.length);
    // …and none of the host's maps ever held more than the bound.
    expect(largest).toBeLessThanOrEqual(BOUND);
    expect(hostMaps(host)).toMatchObject({ blueprints: BOUND });
    // The first combination was evicted long ago: asking again builds it again.
    const again = snapshotStats(host[HOST_STATS]).blueprints;
    await modernToolsList(served.url(`/mcp?only=${subsets[0]!.join(',')}`));
    expect(snapshotStats(host[HOST_STATS]).blueprints - again).toBe(1);
  });

  it('a 2025 session keeps its blueprint after the cache evicted it, and still serves it', async () => {
    const host = await wideHost();
    const served = await serve(host);
    const opened = await post(served.url('/mcp?only=t0,t1'), initializeBody());
    const id = opened.headers.get('mcp-session-id')!;
    await messagesOf(opened);
    for (const subset of distinctSubsets(BOUND * 3)) await fetch(served.url(`/toolsets?only=${subset.join(',')}`)).then((r) => r.arrayBuffer());
    const listed = await messagesOf(await post(served.url('/mcp'), { jsonrpc: '2.0', id: 2, method: 'tools/list' }, { 'mcp-session-id': id, 'mcp-protocol-version': '2025-11-25' }));
    expect((listed[0]?.['result'] as { tools: Array<{ name: string }> }).tools.map((t) => t.name).sort()).toEqual(['t0_tool', 't1_tool']);
    expectBounded(host);
  });

  it('enumerating tenants (tenant(req) read from a request header) grows none of the host\'s maps past the bound either', async () => {
    const host = await wideHost();
    const served = await serve(host, { tenant: (req) => (typeof req.headers['x-tenant'] === 'string' ? req.headers['x-tenant'] : undefined) });
    for (let i = 0; i < BOUND * 8; i++) {
      const response = await fetch(served.url('/toolsets?only=t0'), { headers: { 'x-tenant': `tenant-${i}` } });
      expect(((await response.json()) as { tools: string[] }).tools).toEqual(['t0_tool']);
    }
    expect(hostMaps(host)).toMatchObject({ blueprints: BOUND });
    expectBounded(host);
  });
});

describe('a client opening sessions', () => {
  const MAX = 20;

  async function sessionApp(options: { idleTimeoutMs: number }, logger: Logger = silentLogger) {
    const host = await fixtureHost();
    cleanup.push(() => host.stop());
    const app = createMcpApp(host, { sessions: { max: MAX, ...options }, logger });
    const served = await listen(app);
    cleanup.push(() => served.close());
    return { app, served };
  }

  it(`cannot open more than the cap (${MAX}), even with 120 initializes at once: the rest get 503 with Retry-After`, async () => {
    const ATTEMPTS = 120;
    const { app, served } = await sessionApp({ idleTimeoutMs: 10 * 60_000 });
    const answers = await Promise.all(Array.from({ length: ATTEMPTS }, (_, i) => post(served.url(`/mcp?t${i}`), initializeBody(i))));
    await Promise.all(answers.map((r) => r.arrayBuffer()));
    const statuses = answers.map((r) => r.status);
    expect(statuses.filter((s) => s === 200)).toHaveLength(MAX);
    expect(statuses.filter((s) => s === 503)).toHaveLength(ATTEMPTS - MAX);
    expect(answers.filter((r) => r.status === 503).every((r) => r.headers.get('retry-after') === '30')).toBe(true);
    expect(app.sessionCount).toBe(MAX);
  });

  it('closes every idle session, which frees its place under the cap', async () => {
    let idled = 0;
    let allIdle!: () => void;
    const drained = new Promise<void>((resolve) => (allIdle = resolve));
    const logger: Logger = {
      ...silentLogger,
      info: (_fields: object | string, msg?: string) => {
        if (typeof msg === 'string' && msg.includes('idle') && ++idled === MAX) allIdle();
      },
      child: () => logger,
    };
    const { app, served } = await sessionApp({ idleTimeoutMs: 100 }, logger);
    for (let i = 0; i < MAX; i++) {
      const opened = await post(served.url('/mcp'), initializeBody(i));
      expect(opened.status).toBe(200);
      await opened.arrayBuffer();
    }
    await drained;
    expect(app.sessionCount).toBe(0);
    const again = await post(served.url('/mcp'), initializeBody());
    expect(again.status).toBe(200);
    await again.arrayBuffer();
    expect(app.sessionCount).toBe(1);
  });
});

/**
 * The fast path keeps a shared server per (blueprint, selection, client
 * identity) and encoded `tools/list` answers per server — keyed by what the
 * client sends, so bounded in total, not per key. Asked of the real command
 * run with a small heap: what an unbounded table would keep over these
 * requests is more than that heap holds, so the command would die of "heap
 * out of memory" before the last answer. (Counts, not a timing.)
 */
describe('a client inventing a selection per request on the fast path', () => {
  /** A plain-JavaScript extension: 16 tools in one default toolset. */
  const WIDE_SOURCE = `export default {
  manifest: { name: 'wide', version: '1.0.0' },
  toolsets: () => [{ name: 'wide' }],
  tools: () => Array.from({ length: 16 }, (_, i) => ({ name: 't' + i, description: 'Tool ' + i + '.', handler: () => 't' + i })),
};
`;
  /** Old space for the command, MB: it idles at a fraction of this. */
  const HEAP_MB = 64;
  const isSummary = (l: Record<string, unknown>) => typeof l.msg === 'string' && l.msg.includes('extension(s)') && typeof l.url === 'string';
  const MODERN_HEADERS = { 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'tools/list' };

  let transpiled: Transpiled;
  let app: FixtureApp;
  let child: CommandChild | undefined;
  beforeAll(async () => {
    transpiled = await transpileForChild();
    app = await layoutApp('pnpm', [{ name: 'ext-wide', reactorMcp: { extensions: { wide: './index.js' } }, files: { 'index.js': WIDE_SOURCE } }]);
  }, 60_000);
  afterEach(async () => {
    if (child) await killCommand(child);
    child = undefined;
  });
  afterAll(async () => {
    await app?.remove();
    await transpiled?.remove();
  });

  /** The command on a free port with a {@link HEAP_MB} MB heap; answers its URL. */
  async function startSmall(): Promise<URL> {
    child = startCommand(transpiled.path('src/cli.js'), app.root, ['--port', '0'], {}, [`--max-old-space-size=${HEAP_MB}`]);
    return new URL((await child.line(isSummary)).url as string);
  }

  /** A stateless `tools/list` (2026-07-28, or 2025 without a session); the names listed (the host's own list tool aside), or why there were none (the command died). */
  async function listTools(url: URL, modern: boolean, params: Record<string, unknown> = {}): Promise<string[]> {
    const body = { jsonrpc: '2.0', id: 1, method: 'tools/list', params: modern ? { ...params, _meta: { ...MODERN_META, ...(params._meta as object) } } : params };
    let response: Response;
    try {
      response = await post(url, body, modern ? MODERN_HEADERS : {});
    } catch (error) {
      throw new Error(`the command stopped answering (exit ${child?.process.exitCode}, ${child?.process.signalCode}): ${String(error)}; stderr ends:\n${child?.stderr.slice(-2000)}`, { cause: error });
    }
    expect(response.status).toBe(200);
    const [message] = await messagesOf(response);
    return (message?.['result'] as { tools: Array<{ name: string }> }).tools.map((t) => t.name).filter((name) => name !== LIST_SERVER_TOOLSETS);
  }

  /** The tools `n`'s bits name: a different subset for every `n` below 2^16. */
  const subset = (n: number) => Array.from({ length: 16 }, (_, bit) => bit).filter((bit) => (n >> bit) & 1).map((bit) => `t${bit}`);

  it(`serves 6,000 distinct tools= selections, in both eras, with a ${HEAP_MB} MB heap, and is still alive`, async () => {
    const url = await startSmall();
    const SELECTIONS = 6_000;
    for (let n = 1; n <= SELECTIONS; n++) {
      const tools = subset(n);
      const listed = await listTools(new URL(`/mcp?tools=${tools.join(',')}`, url), n % 2 === 0);
      // Each answer is the selection's own: exactly its tools.
      expect(listed.sort()).toEqual(tools.sort());
    }
    expect(child!.process.exitCode).toBeNull();
    expect((await fetch(new URL('/healthz', url))).status).toBe(200);
    expect(child!.stderr).not.toContain('heap out of memory');
  }, 300_000);

  it(`keeps no answer under megabyte-long tools/list params (160 of them, 1 MB each, both eras), with a ${HEAP_MB} MB heap`, async () => {
    const url = await startSmall();
    const pad = 'x'.repeat(1_000_000);
    for (let n = 0; n < 160; n++) {
      // A new cursor every time, and (2026-07-28) one of 8 client identities: up to 16 answers kept per server before.
      const modern = n % 2 === 0;
      const params = { cursor: `${n}${pad}`, ...(modern ? { _meta: { 'io.modelcontextprotocol/clientInfo': { name: `client-${n % 8}`, version: '1.0.0' } } } : {}) };
      expect((await listTools(new URL('/mcp', url), modern, params)).sort()).toEqual(subset(0xffff).sort());
    }
    expect(child!.process.exitCode).toBeNull();
    expect((await fetch(new URL('/healthz', url))).status).toBe(200);
  }, 300_000);
});
