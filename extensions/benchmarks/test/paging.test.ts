/**
 * When an answer is cut — by `limit` or by the size cap — the model reaches
 * the rest: `get_benchmark`, `get_run` and `list_runs` answer a `nextCursor`
 * (the host's opaque cursor) to continue from; `list_runs` narrows by task and
 * status; `get_runs` reads several runs in one call.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildHost, silentLogger, type McpHost } from '@reactor/host';
import { connect, type TestConnection } from '@reactor/host/testing';
import { createBenchmarksExtension } from '../src/index.js';

let tmp: string;
const hosts: McpHost[] = [];
const conns: TestConnection[] = [];
let conn: TestConnection;
let capped: TestConnection;

async function open(options: Parameters<typeof createBenchmarksExtension>[0]): Promise<TestConnection> {
  const host = await buildHost([createBenchmarksExtension({ logger: silentLogger, ...options })], { strict: true, logger: silentLogger });
  hosts.push(host);
  const opened = await connect(host, { selection: 'benchmarks' });
  conns.push(opened);
  await opened.client.listTools(); // the client then checks structured content against each output schema
  return opened;
}

beforeAll(async () => {
  tmp = mkdtempSync(join(tmpdir(), 'benchmarks-paging-'));
  conn = await open({ dataDir: join(tmp, 'whole') });
  capped = await open({ dataDir: join(tmp, 'capped'), maxResponseChars: 2500 });
});
afterAll(async () => {
  for (const c of conns) await c.close();
  for (const host of hosts) await host.stop();
  rmSync(tmp, { recursive: true, force: true });
});

type Answer = Record<string, unknown> & { nextCursor?: string | null; truncated?: boolean };
async function call(on: TestConnection, name: string, args: Record<string, unknown>): Promise<Answer> {
  const result = await on.callTool(name, args);
  expect(result.isError, JSON.stringify(result.content)).toBeFalsy();
  return result.structuredContent as Answer;
}
async function refusal(name: string, args: Record<string, unknown>): Promise<string> {
  const result = await conn.callTool(name, args);
  expect(result.isError).toBe(true);
  return (result.content[0] as { text: string }).text;
}

/** Every item of `field`, following nextCursor from the first call to the last. */
async function everyPage(on: TestConnection, name: string, args: Record<string, unknown>, field: string): Promise<{ items: Array<Record<string, unknown>>; pages: number }> {
  const items: Array<Record<string, unknown>> = [];
  let cursor: string | null | undefined;
  let pages = 0;
  do {
    const answer = await call(on, name, cursor === undefined ? args : { ...args, cursor });
    items.push(...(answer[field] as Array<Record<string, unknown>>));
    cursor = answer.nextCursor;
    pages++;
  } while (typeof cursor === 'string' && pages < 100);
  expect(cursor).toBeNull();
  return { items, pages };
}

const taskIds = Array.from({ length: 12 }, (_, i) => `gsm8k-mini/${String(i + 1).padStart(4, '0')}`);

describe('get_benchmark pages its tasks', () => {
  it('by limit: every task once, in order, nextCursor null on the last page', async () => {
    const { items, pages } = await everyPage(conn, 'get_benchmark', { benchmark: 'gsm8k-mini', limit: 5 }, 'tasks');
    expect(items.map((t) => t.id)).toEqual(taskIds);
    expect(pages).toBe(3);
  });

  it('when the size cap cuts an answer, nextCursor reaches the tasks it left out', async () => {
    const first = await call(capped, 'get_benchmark', { benchmark: 'gsm8k-mini' });
    expect(first.truncated).toBe(true);
    expect(typeof first.nextCursor).toBe('string');
    const { items } = await everyPage(capped, 'get_benchmark', { benchmark: 'gsm8k-mini' }, 'tasks');
    expect(items.map((t) => t.id)).toEqual(taskIds);
  });

  it('refuses a cursor of another benchmark, or none of ours, saying to start over', async () => {
    const { nextCursor } = await call(conn, 'get_benchmark', { benchmark: 'gsm8k-mini', limit: 1 });
    expect(await refusal('get_benchmark', { benchmark: 'code-repair', cursor: nextCursor })).toMatch(/cursor .* of tool "get_benchmark": belongs to another call.*hint: call get_benchmark again without cursor/);
    expect(await refusal('get_benchmark', { benchmark: 'gsm8k-mini', cursor: 'made-up' })).toMatch(/is not a cursor this tool made/);
  });
});

describe('get_run pages its results', () => {
  it('by limit and under the size cap, every result once', async () => {
    expect((await everyPage(conn, 'get_run', { run: 'run-0142', limit: 5 }, 'results')).items.map((r) => r.task)).toEqual(taskIds);
    expect((await everyPage(capped, 'get_run', { run: 'gsm8k-gpt4o-cot-python' }, 'results')).items.map((r) => r.task)).toEqual(taskIds);
  });

  it('narrows results by status', async () => {
    const failed = await call(conn, 'get_run', { run: 'run-0143', status: 'failed' });
    const all = await call(conn, 'get_run', { run: 'run-0143' });
    const expected = (all.results as Array<{ task: string; status: string }>).filter((r) => r.status === 'failed').map((r) => r.task);
    expect(expected.length).toBeGreaterThan(0);
    expect((failed.results as Array<{ task: string }>).map((r) => r.task)).toEqual(expected);
  });
});

describe('list_runs', () => {
  it('pages with a cursor: every run once', async () => {
    const all = await call(conn, 'list_runs', {});
    const { items, pages } = await everyPage(conn, 'list_runs', { limit: 3 }, 'runs');
    expect(items.map((r) => r.id)).toEqual((all.runs as Array<{ id: string }>).map((r) => r.id));
    expect(items).toHaveLength(8);
    expect(pages).toBe(3);
  });

  it('finds the runs that failed a task, or never attempted one', async () => {
    const runs = (await call(conn, 'list_runs', { benchmark: 'gsm8k-mini' })).runs as Array<{ id: string }>;
    const outcome = new Map<string, string>();
    for (const { id } of runs) {
      const results = (await call(conn, 'get_run', { run: id })).results as Array<{ task: string; status: string }>;
      outcome.set(id, results.find((r) => r.task === 'gsm8k-mini/0007')?.status ?? '');
    }
    const failed = [...outcome].filter(([, s]) => s === 'failed').map(([id]) => id).sort();
    expect(failed.length).toBeGreaterThan(0);
    expect(failed.length).toBeLessThan(runs.length);
    const listed = (await call(conn, 'list_runs', { task: 'gsm8k-mini/0007', status: 'failed' })).runs as Array<{ id: string }>;
    expect(listed.map((r) => r.id).sort()).toEqual(failed);
    const ofTask = (await call(conn, 'list_runs', { task: 'gsm8k-mini/0007' })).runs as Array<{ id: string }>;
    expect(ofTask.map((r) => r.id).sort()).toEqual(runs.map((r) => r.id).sort());
  });

  it('refuses a cursor made for other filters', async () => {
    const { nextCursor } = await call(conn, 'list_runs', { limit: 1 });
    expect(await refusal('list_runs', { limit: 1, benchmark: 'code-repair', cursor: nextCursor })).toMatch(/belongs to another call/);
  });
});

describe('get_runs reads several runs at once', () => {
  it('answers each known run with its results, and names the unknown ones', async () => {
    const batch = await call(conn, 'get_runs', { runs: ['run-0142', 'repair-gpt4o-agent', 'nope'] });
    expect((batch.runs as Array<{ id: string; results: unknown[] }>).map((r) => [r.id, r.results.length])).toEqual([['run-0142', 12], ['repair-gpt4o-agent', 5]]);
    expect(batch.unknown).toEqual(['nope']);
  });
});
