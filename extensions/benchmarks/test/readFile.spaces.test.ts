/**
 * Benchmarks extends the real spaces `read_file` (not a stand-in): its
 * description and output schema are derived from spaces' own, so they cannot
 * drift — every field spaces declares stays, required ones required, and the
 * `benchmark` annotation is the one field added.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createSpacesExtension, readFileOutput, SAMPLE_ROOT } from '@reactor/ext-spaces';
import { buildHost, silentLogger, type McpHost } from '@reactor/host';
import { connect, type TestConnection } from '@reactor/host/testing';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createBenchmarksExtension } from '../src/index.js';

let tmp: string;
let host: McpHost | undefined;
const open: TestConnection[] = [];
beforeEach(() => {
  tmp = mkdtempSync(join(tmpdir(), 'benchmarks-spaces-readfile-'));
});
afterEach(async () => {
  for (const conn of open.splice(0)) await conn.close();
  await host?.stop();
  host = undefined;
  rmSync(tmp, { recursive: true, force: true });
});

async function readFileAsListed(selection: string) {
  host ??= await buildHost([createSpacesExtension({ roots: [SAMPLE_ROOT] }), createBenchmarksExtension({ dataDir: tmp, logger: silentLogger })], { strict: true, logger: silentLogger });
  const conn = await connect(host, { selection });
  open.push(conn);
  const tool = (await conn.client.listTools()).tools.find((t) => t.name === 'read_file');
  if (tool === undefined) throw new Error(`read_file is not listed for "${selection}"`);
  return { conn, tool };
}

describe("read_file once benchmarks extends spaces' own", () => {
  it("keeps spaces' output schema whole — truncated and every required field — and adds only benchmark", async () => {
    const { tool: own } = await readFileAsListed('only=spaces');
    const { tool: extended } = await readFileAsListed('benchmarks');
    // spaces' schema as a client sees it without benchmarks: the fields of its readFileOutput.
    const spaces = own.outputSchema as { properties: Record<string, unknown>; required: string[] };
    expect(Object.keys(spaces.properties)).toEqual(Object.keys(readFileOutput.shape));
    const schema = extended.outputSchema as { properties: Record<string, unknown>; required: string[] };
    expect(schema.required).toEqual(spaces.required);
    expect(schema.required).toContain('truncated');
    expect(Object.keys(schema.properties)).toEqual([...Object.keys(spaces.properties), 'benchmark']);
    for (const [field, json] of Object.entries(spaces.properties)) expect(schema.properties[field], field).toEqual(json);
  });

  it("keeps spaces' description and adds what benchmarks does to it", async () => {
    const { tool: own } = await readFileAsListed('only=spaces');
    const { tool: extended } = await readFileAsListed('benchmarks');
    expect(extended.description?.startsWith(`${own.description} `)).toBe(true);
    expect(extended.description).toContain('annotated with the runs they contain');
  });

  it('answers a benchmark artefact through a client that checks the result against that schema', async () => {
    const { conn } = await readFileAsListed('benchmarks');
    const result = await conn.callTool('read_file', { space: 'benchmark-notes', path: 'results/gsm8k-mini_run-0142.jsonl' });
    expect(result.isError, JSON.stringify(result.content)).toBeFalsy();
    const page = result.structuredContent as { truncated: boolean; nextOffset: number | null; benchmark?: { records: number } };
    expect(page.truncated).toBe(false);
    expect(page.benchmark?.records).toBeGreaterThan(0);
  });
});
