/**
 * Every benchmarks tool's answer stays within `maxResponseTokens` (and the deprecated `maxResponseChars`), as a client
 * reads it, and says `truncated: true` (with what was `omitted`) exactly when
 * something was left out — checked against the same call on a server with
 * the default cap. The cut answers still pass the tools' output schemas (the
 * client checks them).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildHost, ErrorCodes, silentLogger, type McpHost } from '@reactor/host';
import { connect, type TestConnection } from '@reactor/host/testing';
import { Tiktoken } from 'js-tiktoken/lite';
import o200kBase from 'js-tiktoken/ranks/o200k_base';
import { createBenchmarksExtension, MAX_RESPONSE_CHARS_ENV, MAX_RESPONSE_TOKENS_ENV } from '../src/index.js';

const encoder = new Tiktoken(o200kBase);

const CAP = 2500;
let tmp: string;
const hosts: McpHost[] = [];
const conns: TestConnection[] = [];
let whole: TestConnection;
let capped: TestConnection;

async function open(options: Parameters<typeof createBenchmarksExtension>[0]): Promise<TestConnection> {
  const host = await buildHost([createBenchmarksExtension({ logger: silentLogger, ...options })], { strict: true, logger: silentLogger });
  hosts.push(host);
  const conn = await connect(host, { selection: 'benchmarks' });
  conns.push(conn);
  await conn.client.listTools(); // the client then checks structured content against each output schema
  return conn;
}

async function answer(conn: TestConnection, name: string, args: Record<string, unknown>) {
  const result = await conn.callTool(name, args);
  const text = (result.content[0] as { text: string }).text;
  expect(result.isError, text).toBeFalsy();
  return { text, data: result.structuredContent as { truncated: boolean; omitted?: string[] } };
}

beforeAll(async () => {
  tmp = mkdtempSync(join(tmpdir(), 'benchmarks-bounded-'));
  whole = await open({ dataDir: join(tmp, 'whole') });
  capped = await open({ dataDir: join(tmp, 'capped'), maxResponseChars: CAP });
});
afterAll(async () => {
  for (const conn of conns) await conn.close();
  for (const host of hosts) await host.stop();
  rmSync(tmp, { recursive: true, force: true });
});

const calls: Array<[string, Record<string, unknown>]> = [
  ['list_benchmarks', {}],
  ['get_benchmark', { benchmark: 'gsm8k-mini' }],
  ['list_runs', { limit: 500 }],
  ['get_run', { run: 'gsm8k-gpt4o-cot-python' }],
  ['get_trajectory', { run: 'gsm8k-gpt4o-cot-python', task: 'gsm8k-mini/0007' }],
  ['compare_runs', { baseline: 'run-0142', candidate: 'run-0143' }],
  ['best_run', { benchmark: 'gsm8k-mini' }],
];

describe(`every tool's answer fits maxResponseChars (${CAP} here)`, () => {
  it.each(calls)('%s: within the cap, truncated exactly when the whole answer is longer', async (name, args) => {
    const full = await answer(whole, name, args);
    const cut = await answer(capped, name, args);
    expect(full.data.truncated).toBe(false);
    expect(cut.text.length).toBeLessThanOrEqual(CAP);
    if (full.text.length > CAP) {
      expect(cut.data.truncated).toBe(true);
      expect(cut.data.omitted?.length).toBeGreaterThan(0);
    } else {
      expect(cut.data).toEqual(full.data);
    }
  });

  it('cuts at least the large answers of the sample (the cap is really exercised)', async () => {
    const lengths = await Promise.all(calls.map(async ([name, args]) => (await answer(whole, name, args)).text.length));
    expect(lengths.filter((n) => n > CAP).length).toBeGreaterThanOrEqual(4);
  });

  it(`maxResponseTokens, else ${MAX_RESPONSE_TOKENS_ENV}: every answer within that many tokens (o200k_base), truncated when the whole is longer`, async () => {
    const budgeted = await open({ dataDir: join(tmp, 'tokens'), env: { [MAX_RESPONSE_TOKENS_ENV]: '1000' } });
    let cut = 0;
    for (const [name, args] of calls) {
      const full = await answer(whole, name, args);
      const small = await answer(budgeted, name, args);
      expect(encoder.encode(small.text).length, name).toBeLessThanOrEqual(1000);
      if (encoder.encode(full.text).length > 1000) {
        cut++;
        expect(small.data.truncated, name).toBe(true);
      }
    }
    expect(cut).toBeGreaterThanOrEqual(3);
    expect(() => createBenchmarksExtension({ env: { [MAX_RESPONSE_TOKENS_ENV]: 'many' } })).toThrow(/^environment variable REACTOR_BENCHMARKS_MAX_RESPONSE_TOKENS of extension "benchmarks": is invalid; expected a whole number of at least 1000, received "many"/);
  });

  it(`still accepts the deprecated ${MAX_RESPONSE_CHARS_ENV} when the option is not given, and refuses an invalid value where the extension is made`, async () => {
    const fromEnv = await open({ dataDir: join(tmp, 'env'), env: { [MAX_RESPONSE_CHARS_ENV]: '3000' } });
    const run = await answer(fromEnv, 'best_run', { benchmark: 'gsm8k-mini' });
    expect(run.text.length).toBeLessThanOrEqual(3000);
    expect(run.data.truncated).toBe(true);
    expect(() => createBenchmarksExtension({ env: { [MAX_RESPONSE_CHARS_ENV]: '10' } })).toThrow(
      expect.objectContaining({ code: ErrorCodes.OPTION_INVALID, message: expect.stringMatching(/^environment variable REACTOR_BENCHMARKS_MAX_RESPONSE_CHARS of extension "benchmarks": is invalid; expected a whole number of at least 2000, received 10/) }),
    );
    expect(() => createBenchmarksExtension({ maxResponseChars: 1.5 })).toThrow(/option "maxResponseChars" of extension "benchmarks": is invalid/);
  });
});
