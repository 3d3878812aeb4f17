import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'libsql';
import { silentLogger, type Logger, type SchemaLike } from '@reactor/host';
import { testContext } from '@reactor/host/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { FIXTURES_DIR } from './extension.js';
import { importJsonl } from './importer.js';
import { Tiktoken } from 'js-tiktoken/lite';
import o200kBase from 'js-tiktoken/ranks/o200k_base';
import { defaultBudget } from './budget.js';
import { annotateResult, createReadFileExtension, READ_FILE_NOTE, runIdsIn } from './readFileExtension.js';
import { migrate } from './schema.js';
import { BenchmarkStore } from './store.js';

let db: Database.Database;
let store: BenchmarkStore;
beforeAll(() => {
  db = new Database(':memory:');
  migrate(db, ':memory:');
  importJsonl(db, readFileSync(join(FIXTURES_DIR, 'sample.jsonl'), 'utf8'));
  store = new BenchmarkStore(db);
});
afterAll(() => db.close());

const artefact = [
  JSON.stringify({ type: 'result', run: 'gsm8k-gpt4o-direct', task: 'gsm8k-mini/0003', score: 0 }),
  JSON.stringify({ type: 'result', run: 'gsm8k-gpt4o-direct', task: 'gsm8k-mini/0004', score: 1 }),
  JSON.stringify({ run_id: 'from-another-harness', task: 'x', score: 1 }),
  '{"type":"result","run":"cut-by-the-pa', // a page may end mid-line
].join('\n');
const file = (path: string, text: string) => ({ space: 'benchmark-notes', path, mimeType: 'application/jsonl', size: text.length, offset: 0, nextOffset: null, text });

describe('finding run records in a JSONL text', () => {
  it('recognises result and run records and other harnesses\' run_id/runId fields, skipping cut lines', () => {
    expect(runIdsIn(artefact)).toEqual({ runIds: ['gsm8k-gpt4o-direct', 'from-another-harness'], records: 3, native: 2 });
    expect(runIdsIn('{"type":"run","id":"r1"}\n{"runId":"r2"}\nnot json\n[1,2]')).toEqual({ runIds: ['r1', 'r2'], records: 2, native: 1 });
  });
});

describe('annotating a read_file result', () => {
  const encoder = new Tiktoken(o200kBase);
  const tokensOf = (value: unknown) => encoder.encode(JSON.stringify(value)).length;
  const many = Array.from({ length: 400 }, (_, i) => JSON.stringify({ run_id: `harness-run-${String(i).padStart(4, '0')}`, score: 1 })).join('\n');

  it('keeps the annotation within the tokens the answer\'s budget leaves beside the page, and says what it left out', () => {
    const page = file('results/many.jsonl', many);
    const budget = tokensOf(page) + 800;
    const result = annotateResult(page, store, defaultBudget(budget)) as { benchmark: { unknownRuns: string[]; truncated?: boolean; omitted?: string[] }; text: string };
    expect(tokensOf(result)).toBeLessThanOrEqual(budget);
    expect(result.text).toBe(many); // the page itself is not cut while the annotation fits beside it
    expect(result.benchmark.truncated).toBe(true);
    expect(result.benchmark.unknownRuns.length).toBeLessThan(400);
    expect(result.benchmark.omitted).toEqual([`unknownRuns: ${result.benchmark.unknownRuns.length} of 400 item(s) kept`]);
    const roomy = annotateResult(page, store) as { benchmark: { unknownRuns: string[]; truncated?: boolean } };
    expect(roomy.benchmark.unknownRuns).toHaveLength(400);
    expect(roomy.benchmark.truncated).toBeUndefined();
  });

  it('ends a full page sooner when even a short annotation does not fit beside it: the combined answer stays within the budget', () => {
    const page = { ...file('results/many.jsonl', many), totalChars: many.length, truncated: false };
    const budget = tokensOf(page); // the page alone fills the budget
    const result = annotateResult(page, store, defaultBudget(budget)) as { text: string; nextOffset: number | null; truncated: boolean; benchmark: { unknownRuns: string[] } };
    expect(tokensOf(result)).toBeLessThanOrEqual(budget);
    expect(result.text.length).toBeLessThan(many.length);
    expect(many.startsWith(result.text)).toBe(true);
    expect(result).toMatchObject({ nextOffset: result.text.length, truncated: true });
    expect(result.benchmark.unknownRuns.length).toBeGreaterThan(0);
  });

  it('adds a benchmark field naming the known runs and the unknown ones', () => {
    const result = annotateResult(file('results/gsm8k-direct.jsonl', artefact), store) as { benchmark: Record<string, unknown>; text: string };
    expect(result.text).toBe(artefact);
    expect(result.benchmark).toMatchObject({
      records: 3,
      runs: [{ id: 'gsm8k-gpt4o-direct', benchmark: 'gsm8k-mini', model: 'gpt-4o-2024-08-06', score: 0.75, passed: 9, total: 12 }],
      unknownRuns: ['from-another-harness'],
      benchmarks: ['gsm8k-mini'],
    });
    expect(result.benchmark.hint).toContain('compare_runs');
  });

  it('annotates the spaces sample\'s artefacts, whose runs the sample database holds', () => {
    const line = (task: string) => JSON.stringify({ run_id: 'run-0142', benchmark: 'gsm8k-mini', task_id: task, model: 'atlas-7b-instruct', expected: '72', answer: '72', correct: true });
    const result = annotateResult(file('results/gsm8k-mini_run-0142.jsonl', [line('gsm8k-mini/0001'), line('gsm8k-mini/0002')].join('\n')), store) as { benchmark: unknown };
    expect(result.benchmark).toMatchObject({ records: 2, runs: [{ id: 'run-0142', model: 'atlas-7b-instruct', score: 0.8333, passed: 10, total: 12 }], unknownRuns: [] });
  });

  it('suggests importing when none of the runs is known, or converting first when the records are another harness\'s', () => {
    const native = annotateResult(file('runs.ndjson', '{"type":"run","id":"new-run"}'), store) as { benchmark: { runs: unknown[]; hint: string } };
    expect(native.benchmark.runs).toEqual([]);
    expect(native.benchmark.hint).toContain('import the file with reactor-benchmarks-import');
    const foreign = annotateResult(file('runs.jsonl', '{"run_id":"run-9999"}'), store) as { benchmark: { hint: string } };
    expect(foreign.benchmark.hint).toContain('convert the records to the JSONL format of @reactor/ext-benchmarks');
  });

  it('passes everything else through as the same object', () => {
    const notes = file('notes.md', '{"type":"run","id":"gsm8k-gpt4o-direct"}');
    const noRuns = file('data.jsonl', '{"a":1}\n{"b":2}');
    for (const value of [notes, noRuns, 'text', null, undefined, 42, [1], { path: 'x.jsonl' }, { content: [] }]) {
      expect(annotateResult(value, store)).toBe(value);
    }
  });

  it('annotates the structured content of a tool that answers a CallToolResult, and tells the model in a text item', () => {
    const call = { content: [{ type: 'text', text: '…' }], structuredContent: file('r.jsonl', artefact) };
    const result = annotateResult(call, store) as { content: Array<{ text: string }>; structuredContent: { benchmark: unknown } };
    expect(result.structuredContent.benchmark).toMatchObject({ benchmarks: ['gsm8k-mini'] });
    expect(result.content).toHaveLength(2);
    expect(JSON.parse(result.content[1]!.text)).toHaveProperty('benchmark.runs');
  });
});

describe('the tool extension', () => {
  const original = (_args: Record<string, unknown>) => Promise.resolve(file('results/a.jsonl', artefact));

  it('fails closed: wrapping something that is not a handler throws, so the host leaves read_file out', () => {
    const ext = createReadFileExtension(() => store, silentLogger);
    expect(() => ext.wrap!(undefined as never)).toThrow(/cannot extend "read_file"/);
  });

  it('calls the original with the same arguments and context, then annotates', async () => {
    const seen: unknown[] = [];
    const ext = createReadFileExtension(() => store, silentLogger);
    const ctx = testContext();
    const handler = ext.wrap!((args, c) => {
      seen.push(args, c);
      return original(args);
    });
    const result = (await handler({ space: 'benchmark-notes', path: 'results/a.jsonl' }, ctx)) as { benchmark?: unknown };
    expect(seen).toEqual([{ space: 'benchmark-notes', path: 'results/a.jsonl' }, ctx]);
    expect(result.benchmark).toBeDefined();
  });

  it('passes the result through while the extension is not started', async () => {
    const ext = createReadFileExtension(() => undefined, silentLogger);
    const result = (await ext.wrap!(original)({}, testContext())) as { benchmark?: unknown };
    expect(result.benchmark).toBeUndefined();
  });

  it('logs and passes the result through when annotating fails', async () => {
    const warnings: string[] = [];
    const warn = (objOrMsg: object | string, msg?: string) => void warnings.push(typeof objOrMsg === 'string' ? objOrMsg : (msg ?? ''));
    const logger: Logger = { ...silentLogger, warn, child: () => logger };
    const broken = { knownRuns: () => { throw new Error('database is locked'); } } as unknown as BenchmarkStore;
    const ext = createReadFileExtension(() => broken, logger);
    const result = (await ext.wrap!(original)({}, testContext())) as { benchmark?: unknown; text: string };
    expect(result.benchmark).toBeUndefined();
    expect(result.text).toBe(artefact);
    expect(warnings).toEqual([expect.stringContaining('database is locked')]);
  });

  it('declares its order, and derives its description and output schema from read_file\'s own', () => {
    const ext = createReadFileExtension(() => store, silentLogger);
    expect(ext.order).toBe(10);
    const describe = ext.description as (original: string) => string;
    expect(describe('Read a file.')).toBe(`Read a file. ${READ_FILE_NOTE}`);
    const derive = ext.outputSchema as (original: SchemaLike | undefined) => SchemaLike | undefined;
    const own = z.object({ path: z.string(), text: z.string(), truncated: z.boolean() });
    const derived = derive(own) as z.ZodObject;
    const annotation = { records: 0, runs: [], unknownRuns: [], benchmarks: [], hint: '' };
    expect(derived.safeParse({ path: 'a.jsonl', text: '', truncated: false, benchmark: annotation }).success).toBe(true);
    expect(derived.safeParse({ path: 'a.jsonl', text: '', benchmark: annotation }).success).toBe(false); // truncated stays required
    // A raw shape gains the field, a JSON Schema the property; a tool without a schema keeps none.
    expect(Object.keys(derive({ path: z.string() }) as object)).toEqual(['path', 'benchmark']);
    const json = derive({ type: 'object', properties: { path: { type: 'string' } }, required: ['path'] }) as { properties: Record<string, unknown>; required: string[] };
    expect(Object.keys(json.properties)).toEqual(['path', 'benchmark']);
    expect(json.required).toEqual(['path']);
    expect(derive(undefined)).toBeUndefined();
  });
});
