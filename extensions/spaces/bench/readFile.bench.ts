/**
 * read_file on a large file (16 MiB of mixed ASCII and multi-byte text):
 * pages taken from the middle and the end, against the 1.0 way — the whole
 * file read and decoded for every page — as the baseline, in the same run.
 *
 *   npx vitest bench --run extensions/spaces/bench/readFile.bench.ts
 */
import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, bench, describe } from 'vitest';
import { testContext } from '@reactor/host/testing';
import { pageText } from '../src/files.js';
import { createRuntime } from '../src/runtime.js';
import { createReadFileTool } from '../src/tools/readFile.js';

const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'spaces-bench-'));
await fs.mkdir(path.join(dir, 'big'));
const line = 'row,ascii text with some numbers 1234567890,naïve café ünïcödé → ✓ 日本語\n';
const file = path.join(dir, 'big', 'large.csv');
await fs.writeFile(file, line.repeat(Math.ceil((16 * 1024 * 1024 - 1024) / Buffer.byteLength(line))).slice(0, 16 * 1024 * 1024 - 4096));
const runtime = createRuntime({ roots: [dir] });
const tool = createReadFileTool(runtime);
const ctx = testContext({ extension: 'spaces', toolsets: ['spaces'] });
const { totalChars } = (await tool.handler({ space: 'big', path: 'large.csv', offset: 0, limit: 20_000 }, ctx)) as { totalChars: number };
const offsets = [Math.floor(totalChars / 2), totalChars - 30_000];
afterAll(async () => {
  await fs.rm(dir, { recursive: true, force: true });
});

describe('read_file, one 20 000-character page of a 16 MiB file', () => {
  bench('1.0: read and decode the whole file for the page (baseline)', async () => {
    for (const offset of offsets) {
      const text = new TextDecoder('utf-8').decode(await fs.readFile(file));
      pageText(text, offset, 20_000, runtime.limits.maxReadBytes);
    }
  });
  bench('read_file', async () => {
    for (const offset of offsets) await tool.handler({ space: 'big', path: 'large.csv', offset, limit: 20_000 }, ctx);
  });
});
