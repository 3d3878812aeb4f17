import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildHost, silentLogger, type McpHost } from '@reactor/host';
import { connect, testContext, type TestConnection } from '@reactor/host/testing';
import { afterEach, beforeEach, describe, expect, it, onTestFinished } from 'vitest';
import benchmarks, { BENCHMARK_TOOL_NAMES, BENCHMARKS_TOOLSETS, createBenchmarksExtension, FIXTURES_DIR, runImportCommand, type BenchmarksExtension } from '../src/index.js';

let tmp: string;
let host: McpHost | undefined;
const open: TestConnection[] = [];

beforeEach(() => {
  tmp = mkdtempSync(join(tmpdir(), 'benchmarks-ext-'));
});
afterEach(async () => {
  for (const conn of open.splice(0)) await conn.close();
  await host?.stop();
  host = undefined;
  rmSync(tmp, { recursive: true, force: true });
});

async function serve(ext: BenchmarksExtension = createBenchmarksExtension({ dataDir: join(tmp, 'data'), logger: silentLogger })) {
  host = await buildHost([ext], { strict: true, logger: silentLogger });
  return { ext, host };
}

async function connectTo(h: McpHost, selection?: string): Promise<TestConnection> {
  const conn = await connect(h, { selection });
  open.push(conn);
  return conn;
}

async function call<T = Record<string, unknown>>(conn: TestConnection, name: string, args: Record<string, unknown> = {}): Promise<T> {
  // Listing first makes the client check the structured content against each tool's output schema.
  await conn.client.listTools();
  const result = await conn.callTool(name, args);
  expect(result.isError, JSON.stringify(result.content)).toBeFalsy();
  // The same answer reaches a client as structured content and as JSON text.
  expect(JSON.parse((result.content[0] as { text: string }).text)).toEqual(result.structuredContent);
  return result.structuredContent as T;
}

describe('held until a URL asks for benchmarks', () => {
  it('is listed from its manifest and toolsets without being started or touching the disk', async () => {
    const { ext, host } = await serve();
    const status = host.report().extensions.find((e) => e.name === 'benchmarks');
    expect(status).toMatchObject({ state: 'held', started: false, toolsets: ['benchmarks'], activationEvents: ['onToolset:benchmarks'] });
    expect(host.declaredToolsets()).toEqual([expect.objectContaining({ name: 'benchmarks', default: false })]);
    expect(existsSync(join(tmp, 'data'))).toBe(false);
    expect(() => ext.store()).toThrow(expect.objectContaining({ code: 'REACTOR_START_FAILED' }));
  });

  it('serves none of its tools on a build that does not name it', async () => {
    const { host } = await serve();
    const conn = await connectTo(host);
    expect(await conn.toolNames()).toEqual([]);
    await expect(conn.callTool('list_benchmarks')).rejects.toThrow(/not found/);
    expect(conn.client.getInstructions() ?? '').not.toContain('Benchmarks');
    expect(host.report().extensions[0]!.state).toBe('held');
    expect(existsSync(join(tmp, 'data'))).toBe(false);
  });

  it('wakes on ?benchmarks, creating the sample database in the data folder on first start', async () => {
    const { ext, host } = await serve();
    const conn = await connectTo(host, 'benchmarks');
    expect(await conn.toolNames()).toEqual([...BENCHMARK_TOOL_NAMES]);
    expect(host.report().extensions[0]).toMatchObject({ state: 'active', started: true });
    expect(existsSync(join(tmp, 'data', 'benchmarks.db'))).toBe(true);
    expect(ext.location()?.file).toBe(join(tmp, 'data', 'benchmarks.db'));
    expect(conn.client.getInstructions()).toContain('## Benchmarks');
  });

  it('wakes on ?only=benchmarks too', async () => {
    const { host } = await serve();
    const conn = await connectTo(host, 'only=benchmarks');
    expect(await conn.toolNames()).toHaveLength(8);
  });

  it('closes the database on stop, after which its tools say the extension is not started', async () => {
    const { ext, host } = await serve();
    const conn = await connectTo(host, 'benchmarks');
    const tool = conn.built.tools.find((t) => t.name === 'list_benchmarks')!;
    await host.stop();
    await expect(Promise.resolve().then(() => tool.handler({}, testContext()))).rejects.toThrow(/has not started \(or has stopped\)/);
    expect(() => ext.store()).toThrow(/database is not open/);
  });
});

describe('its tools', () => {
  let conn: TestConnection;
  beforeEach(async () => {
    const served = await serve();
    conn = await connectTo(served.host, 'benchmarks');
  });

  it('are all read-only, idempotent and closed-world, with output schemas', async () => {
    const { tools } = await conn.client.listTools();
    for (const tool of tools) {
      expect(tool.annotations, tool.name).toEqual({ readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false });
      expect(tool.outputSchema, tool.name).toBeDefined();
    }
  });

  it('list_benchmarks lists the sample benchmarks', async () => {
    const { benchmarks } = await call<{ benchmarks: Array<{ id: string; taskCount: number }> }>(conn, 'list_benchmarks');
    expect(benchmarks.map((b) => [b.id, b.taskCount])).toEqual([
      ['code-repair', 5],
      ['gsm8k-mini', 12],
    ]);
  });

  it('get_benchmark shows each task and how it is graded', async () => {
    const gsm = await call<{ tasks: Array<{ id: string; grading: { method: string; expected?: string } }> }>(conn, 'get_benchmark', { benchmark: 'gsm8k-mini' });
    expect(gsm.tasks).toHaveLength(12);
    expect(gsm.tasks.every((t) => t.grading.method === 'exact-match' && t.grading.expected !== undefined)).toBe(true);
    const repair = await call<{ tasks: Array<{ grading: { method: string; tests?: string[] } }> }>(conn, 'get_benchmark', { benchmark: 'code-repair' });
    expect(repair.tasks[1]!.grading).toMatchObject({ method: 'unit-tests', tests: ['test_hours', 'test_minutes', 'test_hours_and_minutes', 'test_rejects_garbage'] });
  });

  it('list_runs filters by benchmark and model and carries the aggregate score', async () => {
    const { runs } = await call<{ runs: Array<{ id: string; score: number }> }>(conn, 'list_runs', { benchmark: 'gsm8k-mini', model: 'gpt-4o', sort: 'score' });
    expect(runs).toEqual([expect.objectContaining({ id: 'gsm8k-gpt4o-cot-python', score: 0.9167 }), expect.objectContaining({ id: 'gsm8k-gpt4o-direct', score: 0.75 })]);
  });

  it('get_run gives the score of every task', async () => {
    const run = await call<{ score: number; results: Array<{ task: string; status: string; score: number }> }>(conn, 'get_run', { run: 'repair-gpt4o-agent' });
    expect(run.score).toBe(0.9);
    expect(run.results.map((r) => [r.task, r.status, r.score])).toEqual([
      ['cr-001', 'passed', 1],
      ['cr-002', 'passed', 1],
      ['cr-003', 'failed', 0.5],
      ['cr-004', 'passed', 1],
      ['cr-005', 'passed', 1],
    ]);
  });

  it('get_trajectory shows what the run did on a task', async () => {
    const t = await call<{ steps: Array<{ kind: string; tool?: string; content?: string }>; feedback: string }>(conn, 'get_trajectory', { run: 'gsm8k-sonnet-cot-python', task: 'gsm8k-mini/0010' });
    expect(t.steps.map((s) => s.kind)).toEqual(['thought', 'tool_call', 'observation', 'answer']);
    expect(t.steps[1]!.tool).toBe('python');
    expect(t.steps[2]!.content).toBe('121.0');
    expect(t.feedback).toBe('exact match: 121');
  });

  it('compare_runs gives per-task deltas, flipped tasks and the aggregate difference', async () => {
    const c = await call<{ scoreDelta: number; fixed: string[]; broken: string[] }>(conn, 'compare_runs', { baseline: 'gsm8k-gpt4o-direct', candidate: 'gsm8k-gpt4o-cot-python' });
    expect(c).toMatchObject({ scoreDelta: 0.1667, fixed: ['gsm8k-mini/0003', 'gsm8k-mini/0005', 'gsm8k-mini/0009'], broken: ['gsm8k-mini/0008'] });
  });

  it('best_run answers which run of gsm8k-mini is best and how it differs from the worst', async () => {
    const b = await call<{
      best: { id: string; model: string; score: number };
      worst: { id: string; model: string; score: number };
      difference: { fixed: string[]; differences: Array<{ setting: string }>; summary: string };
    }>(conn, 'best_run', { benchmark: 'gsm8k-mini' });
    expect(b.best).toMatchObject({ id: 'gsm8k-sonnet-cot-python', model: 'claude-3-5-sonnet-20241022', score: 1 });
    expect(b.worst).toMatchObject({ id: 'gsm8k-llama31-8b-cot', model: 'llama-3.1-8b-instruct', score: 0.5 });
    expect(b.difference.fixed).toEqual(['0003', '0005', '0007', '0009', '0010', '0011'].map((n) => `gsm8k-mini/${n}`));
    expect(b.difference.differences.map((d) => d.setting)).toEqual(['model', 'config.maxSteps', 'config.temperature', 'config.tools']);
    expect(b.difference.summary).toContain('Tool calls: 12 against 0');
  });

  it('answer unknown ids with an error naming what exists and what to call', async () => {
    const result = await conn.callTool('get_run', { run: 'gsm8k-gpt5' });
    expect(result.isError).toBe(true);
    const text = (result.content[0] as { text: string }).text;
    expect(text).toContain('run "gsm8k-gpt5": is not in the benchmarks database');
    expect(text).toContain('hint: list_runs');
  });

  it('refuse invalid arguments before reaching the database', async () => {
    const result = await conn.callTool('compare_runs', { baseline: 'gsm8k-gpt4o-direct' });
    expect(result.isError).toBe(true);
    expect((result.content[0] as { text: string }).text).toMatch(/Input validation error.*candidate/);
  });
});

describe('its data', () => {
  it('leaves a database that already holds data alone: the sample only seeds an empty one', async () => {
    const data = join(tmp, 'data');
    const mine = join(tmp, 'mine.jsonl');
    writeFileSync(mine, ['{"type":"benchmark","id":"mine"}', '{"type":"task","benchmark":"mine","id":"t","prompt":"p","grading":{"method":"rubric"}}'].join('\n'));
    expect(runImportCommand([mine, '--data-dir', data], { out: () => {}, err: () => {}, env: {} })).toBe(0);
    const { host } = await serve(createBenchmarksExtension({ dataDir: data, logger: silentLogger }));
    const conn = await connectTo(host, 'benchmarks');
    const { benchmarks } = await call<{ benchmarks: Array<{ id: string }> }>(conn, 'list_benchmarks');
    expect(benchmarks.map((b) => b.id)).toEqual(['mine']);
  });

  it('can start empty (sample: false) and reads the data folder from REACTOR_BENCHMARKS_DATA', async () => {
    const ext = createBenchmarksExtension({ sample: false, env: { REACTOR_BENCHMARKS_DATA: join(tmp, 'from-env') }, logger: silentLogger });
    const { host } = await serve(ext);
    const conn = await connectTo(host, 'benchmarks');
    expect(await call(conn, 'list_benchmarks')).toEqual({ benchmarks: [], truncated: false });
    expect(ext.location()?.dataDir).toBe(join(tmp, 'from-env'));
  });

  it('a failing start (an unusable data folder) withdraws the extension and the host reports why', async () => {
    const blocker = join(tmp, 'a-file');
    writeFileSync(blocker, '');
    const ext = createBenchmarksExtension({ dataDir: join(blocker, 'data'), logger: silentLogger });
    const h = await buildHost([ext], { logger: silentLogger });
    host = h;
    const conn = await connectTo(h, 'benchmarks');
    expect(await conn.toolNames()).toEqual([]);
    expect(h.report().problems).toEqual([expect.objectContaining({ code: 'REACTOR_START_FAILED', message: expect.stringContaining('cannot be created') })]);
  });
});

describe('its lifecycle', () => {
  it('opens once for several hosts sharing one instance and closes after the last stop', async () => {
    const ext = createBenchmarksExtension({ dataDir: join(tmp, 'data'), logger: silentLogger });
    const first = await buildHost([ext], { logger: silentLogger });
    const second = await buildHost([ext], { logger: silentLogger });
    onTestFinished(() => first.stop());
    onTestFinished(() => second.stop());
    await connectTo(first, 'benchmarks');
    await connectTo(second, 'benchmarks');
    const store = ext.store();
    await first.stop();
    expect(ext.store()).toBe(store);
    expect(store.listBenchmarks()).toHaveLength(2);
    await second.stop();
    expect(() => ext.store()).toThrow(/database is not open/);
  });
});

describe('its package', () => {
  it('declares in package.json the same activation events and toolsets as its manifest, so the host lists it without importing it', () => {
    const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as {
      version: string;
      peerDependencies: Record<string, string>;
      bin: Record<string, string>;
      files: string[];
      reactorMcp: { extensions: Record<string, { module: string; export: string; activationEvents: string[]; toolsets: Array<Record<string, unknown>> }> };
    };
    const entry = pkg.reactorMcp.extensions.benchmarks!;
    expect(entry).toMatchObject({ module: './dist/index.js', export: 'default' });
    expect(entry.activationEvents).toEqual(benchmarks.manifest.activationEvents);
    expect(entry.toolsets).toEqual(BENCHMARKS_TOOLSETS.map(({ instructions: _i, ...declared }) => declared));
    expect(benchmarks.toolsets!().map((t) => t.name)).toEqual(entry.toolsets.map((t) => t.name));
    expect(benchmarks.manifest).toMatchObject({ name: 'benchmarks', version: pkg.version, host: pkg.peerDependencies['@reactor/host'] });
    expect(pkg.bin['reactor-benchmarks-import']).toBe('./dist/importCli.js');
    expect(pkg.files).toContain('fixtures');
    expect(existsSync(join(FIXTURES_DIR, 'sample.jsonl'))).toBe(true);
  });
});
