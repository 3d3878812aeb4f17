/**
 * Benchmarks extends spaces' `read_file`. These tests use a small stand-in
 * for the spaces extension (the same tool name, arguments and result shape,
 * with a strict output schema) so they do not depend on that package.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildHost, defineExtension, defineTool, parseSelection, silentLogger, type McpExtension, type McpHost } from '@reactor/host';
import { connect, type TestConnection } from '@reactor/host/testing';
import { z } from 'zod';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createBenchmarksExtension, readFileDescription } from '../src/index.js';

const ORIGINAL_DESCRIPTION = 'Read a file of a space (stand-in).';

/** Like spaces' sample: one record per task, another harness's fields (`run_id`, `task_id`, `correct`). */
const spacesArtefact = ['0001', '0005'].map((n) =>
  JSON.stringify({ run_id: 'run-0142', benchmark: 'gsm8k-mini', task_id: `gsm8k-mini/${n}`, model: 'atlas-7b-instruct', temperature: 0, correct: n === '0001' }),
);

const FILES: Record<string, string> = {
  'results/gsm8k-mini_run-0142.jsonl': spacesArtefact.join('\n'),
  'results/gsm8k-2025-05.jsonl': [
    JSON.stringify({ type: 'result', run: 'gsm8k-gpt4o-direct', task: 'gsm8k-mini/0003', score: 0 }),
    JSON.stringify({ type: 'result', run: 'gsm8k-sonnet-cot-python', task: 'gsm8k-mini/0003', score: 1 }),
    JSON.stringify({ type: 'result', run: 'gsm8k-draft-run', task: 'gsm8k-mini/0003', score: 1, draft: true }),
  ].join('\n'),
  'notes/gsm8k-mini.md': '# gsm8k-mini\nThe sonnet run is best.',
};

/** The stand-in: `read_file` as spaces offers it, answering `{ space, path, mimeType, size, offset, nextOffset, text }`. */
function standInSpaces(): McpExtension {
  return defineExtension({
    manifest: { name: 'spaces', version: '1.0.0' },
    toolsets: () => [{ name: 'spaces', description: 'Stand-in spaces.' }],
    tools: () => [
      defineTool({
        name: 'read_file',
        description: ORIGINAL_DESCRIPTION,
        inputSchema: z.object({ space: z.string(), path: z.string(), offset: z.number().int().optional(), limit: z.number().int().optional() }),
        // Strict, as zod objects are: a field nobody declared would fail the client's validation.
        outputSchema: z.object({ space: z.string(), path: z.string(), mimeType: z.string(), size: z.number(), offset: z.number(), nextOffset: z.number().nullable(), text: z.string() }),
        annotations: { readOnlyHint: true, openWorldHint: false },
        handler: (args) => {
          const text = FILES[args.path];
          if (text === undefined) throw new Error(`no file "${args.path}" in space "${args.space}"`);
          return { space: args.space, path: args.path, mimeType: args.path.endsWith('.md') ? 'text/markdown' : 'application/jsonl', size: text.length, offset: 0, nextOffset: null, text };
        },
      }),
    ],
  });
}

/** Order 0, registered after benchmarks: order, not registration, puts it inside. Hides draft runs. */
const hideDrafts = defineExtension({
  manifest: { name: 'hide-drafts', version: '1.0.0' },
  toolsets: () => [{ name: 'hide-drafts', default: true }],
  toolExtensions: () => [
    [
      'read_file',
      {
        wrap: (original) => async (args, ctx) => {
          const result = (await original(args, ctx)) as { text: string };
          return { ...result, text: result.text.split('\n').filter((line) => !line.includes('"draft":true')).join('\n') };
        },
      },
    ],
  ],
});

/** Order 20: the outermost; records what it sees. */
const seenByAudit: unknown[] = [];
const audit = defineExtension({
  manifest: { name: 'audit', version: '1.0.0' },
  toolsets: () => [{ name: 'audit', default: true }],
  toolExtensions: () => [
    [
      'read_file',
      {
        order: 20,
        wrap: (original) => async (args, ctx) => {
          const result = await original(args, ctx);
          seenByAudit.push(result);
          return result;
        },
      },
    ],
  ],
});

let tmp: string;
let host: McpHost | undefined;
const open: TestConnection[] = [];
beforeEach(() => {
  tmp = mkdtempSync(join(tmpdir(), 'benchmarks-readfile-'));
  seenByAudit.length = 0;
});
afterEach(async () => {
  for (const conn of open.splice(0)) await conn.close();
  await host?.stop();
  host = undefined;
  rmSync(tmp, { recursive: true, force: true });
});

async function serve(...others: McpExtension[]) {
  return await serveWith({ strict: true }, ...others);
}
async function serveWith(options: { strict: boolean }, ...others: McpExtension[]) {
  const benchmarks = createBenchmarksExtension({ dataDir: tmp, logger: silentLogger });
  host = await buildHost([standInSpaces(), benchmarks, ...others], { ...options, logger: silentLogger });
  return host;
}
async function connectTo(h: McpHost, selection?: string) {
  const conn = await connect(h, { selection });
  open.push(conn);
  return conn;
}
async function readFile(conn: TestConnection, path: string) {
  // The client checks structured content against the output schema only of tools it has listed.
  await conn.client.listTools();
  const result = await conn.callTool('read_file', { space: 'benchmark-notes', path });
  expect(result.isError, JSON.stringify(result.content)).toBeFalsy();
  return result.structuredContent as { text: string; benchmark?: { runs: Array<{ id: string; score: number }>; unknownRuns: string[]; benchmarks: string[] } };
}
const descriptionOf = async (conn: TestConnection, name: string) => (await conn.client.listTools()).tools.find((t) => t.name === name)?.description;

describe('read_file before benchmarks wakes', () => {
  it('is spaces\' own tool: its description and its result are untouched', async () => {
    const h = await serve();
    const conn = await connectTo(h);
    expect(await conn.toolNames()).toEqual(['read_file']);
    expect(await descriptionOf(conn, 'read_file')).toBe(ORIGINAL_DESCRIPTION);
    expect(await readFile(conn, 'results/gsm8k-2025-05.jsonl')).not.toHaveProperty('benchmark');
    expect((await h.describe()).provenance.read_file).toEqual({ offeredBy: 'spaces', extendedBy: [] });
  });
});

describe('read_file once a URL asked for benchmarks', () => {
  it('is re-described and annotates benchmark artefacts with the runs they contain, through a strict client', async () => {
    const conn = await connectTo(await serve(), 'benchmarks');
    expect(await descriptionOf(conn, 'read_file')).toBe(readFileDescription(ORIGINAL_DESCRIPTION));
    const artefact = await readFile(conn, 'results/gsm8k-mini_run-0142.jsonl');
    expect(artefact.text).toBe(FILES['results/gsm8k-mini_run-0142.jsonl']);
    expect(artefact.benchmark).toMatchObject({ runs: [{ id: 'run-0142', score: 0.8333 }], unknownRuns: [], benchmarks: ['gsm8k-mini'] });
    const mixed = await readFile(conn, 'results/gsm8k-2025-05.jsonl');
    expect(mixed.benchmark).toMatchObject({
      runs: [
        { id: 'gsm8k-gpt4o-direct', score: 0.75 },
        { id: 'gsm8k-sonnet-cot-python', score: 1 },
      ],
      unknownRuns: ['gsm8k-draft-run'],
      benchmarks: ['gsm8k-mini'],
    });
  });

  it('leaves other files as spaces answered them', async () => {
    const conn = await connectTo(await serve(), 'benchmarks');
    const notes = await readFile(conn, 'notes/gsm8k-mini.md');
    expect(notes).toEqual({ space: 'benchmark-notes', path: 'notes/gsm8k-mini.md', mimeType: 'text/markdown', size: FILES['notes/gsm8k-mini.md']!.length, offset: 0, nextOffset: null, text: FILES['notes/gsm8k-mini.md'] });
  });

  it("is spaces' own again on builds without the benchmarks toolset, once awake (its description names tools only benchmarks serves)", async () => {
    const h = await serve();
    await connectTo(h, 'benchmarks');
    const conn = await connectTo(h, 'only=spaces');
    expect(await conn.toolNames()).toEqual(['read_file']);
    expect(await descriptionOf(conn, 'read_file')).toBe(ORIGINAL_DESCRIPTION);
    expect(await readFile(conn, 'results/gsm8k-2025-05.jsonl')).not.toHaveProperty('benchmark');
    expect((await h.describe()).provenance.read_file).toEqual({ offeredBy: 'spaces', extendedBy: [] });
    expect((await h.describe(parseSelection('benchmarks'))).provenance.read_file).toEqual({ offeredBy: 'spaces', extendedBy: ['benchmarks'] });
  });

  it('passes spaces\' errors through', async () => {
    const conn = await connectTo(await serve(), 'benchmarks');
    const result = await conn.callTool('read_file', { space: 'benchmark-notes', path: 'nope.jsonl' });
    expect(result.isError).toBe(true);
    expect((result.content[0] as { text: string }).text).toContain('no file "nope.jsonl"');
  });
});

describe('ordering among extensions of read_file', () => {
  it('applies by order, not registration: hide-drafts (0) inside benchmarks (10) inside audit (20)', async () => {
    const h = await serve(audit, hideDrafts);
    const conn = await connectTo(h, 'benchmarks');
    const file = await readFile(conn, 'results/gsm8k-2025-05.jsonl');
    // benchmarks ran on hide-drafts' output: the draft run is gone from the annotation.
    expect(file.benchmark?.unknownRuns).toEqual([]);
    expect(file.text).not.toContain('draft');
    // audit ran outermost: it saw the annotation.
    expect(seenByAudit).toEqual([expect.objectContaining({ benchmark: expect.objectContaining({ benchmarks: ['gsm8k-mini'] }) })]);
    expect((await h.describe(parseSelection('benchmarks'))).provenance.read_file).toEqual({ offeredBy: 'spaces', extendedBy: ['hide-drafts', 'benchmarks', 'audit'] });
    // Where benchmarks is not active, the others still apply, in the same order.
    expect((await h.describe()).provenance.read_file).toEqual({ offeredBy: 'spaces', extendedBy: ['hide-drafts', 'audit'] });
  });
});

describe('failing closed', () => {
  it('leaves read_file out when another extension of it fails to apply, and keeps serving the benchmarks tools', async () => {
    const broken = defineExtension({
      manifest: { name: 'broken-guard', version: '1.0.0' },
      toolsets: () => [{ name: 'broken-guard', default: true }],
      toolExtensions: () => [['read_file', { order: 30, wrap: () => 'not a function' as never }]],
    });
    // strict would refuse to start (a failing tool extension is a start-up problem); served, it fails closed.
    await expect(serve(broken)).rejects.toMatchObject({ code: 'REACTOR_STARTUP_FAILED' });
    const h = await serveWith({ strict: false }, broken);
    const conn = await connectTo(h, 'benchmarks');
    const names = await conn.toolNames();
    expect(names).not.toContain('read_file');
    expect(names).toContain('best_run');
    expect(h.report().problems).toEqual(
      expect.arrayContaining([expect.objectContaining({ code: 'REACTOR_TOOL_EXTENSION_FAILED', message: expect.stringContaining('"read_file" extended by extension "broken-guard"') })]),
    );
  });
});
