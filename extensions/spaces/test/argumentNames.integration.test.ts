/**
 * Argument names are snake_case (`max_results`, `case_sensitive`,
 * `include_outputs`), like kernels' `cell_id`. The camelCase names of 1.0
 * (`maxResults`, `caseSensitive`, `includeOutputs`) are still accepted for
 * one release, marked deprecated in the tools' input schemas.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildHost, silentLogger, type McpHost } from '@reactor/host';
import { connect, type TestConnection } from '@reactor/host/testing';
import { createSpacesExtension, SAMPLE_ROOT } from '../src/index.js';

let host: McpHost;
let conn: TestConnection;
beforeAll(async () => {
  host = await buildHost([createSpacesExtension({ roots: [SAMPLE_ROOT] })], { strict: true, logger: silentLogger });
  conn = await connect(host);
});
afterAll(async () => {
  await conn.close();
  await host.stop();
});

const structured = async (name: string, args: Record<string, unknown>) => {
  const result = await conn.callTool(name, args);
  expect(result.isError ?? false).toBe(false);
  return result.structuredContent as Record<string, unknown> & { matches?: unknown[]; notebooks?: unknown[]; cells?: Array<{ outputs?: unknown }>; truncated?: boolean };
};

describe('snake_case arguments', () => {
  it('search_text takes max_results and case_sensitive', async () => {
    const one = await structured('search_text', { space: 'benchmark-notes', query: 'run-0142', max_results: 1 });
    expect(one.matches).toHaveLength(1);
    expect(one.truncated).toBe(true);
    const exact = await structured('search_text', { space: 'climate-lab', query: 'BUCKET', case_sensitive: true });
    expect(exact.matches).toEqual([]);
  });

  it('find_notebooks takes max_results', async () => {
    const one = await structured('find_notebooks', { max_results: 1 });
    expect(one.notebooks).toHaveLength(1);
    expect(one.truncated).toBe(true);
  });

  it('read_notebook takes include_outputs', async () => {
    const bare = await structured('read_notebook', { space: 'climate-lab', path: 'iris_classifier.ipynb', include_outputs: false });
    expect(bare.cells?.every((c) => c.outputs === undefined)).toBe(true);
  });
});

describe('the camelCase names of 1.0, deprecated', () => {
  it('are still accepted', async () => {
    expect((await structured('search_text', { space: 'benchmark-notes', query: 'run-0142', maxResults: 1 })).matches).toHaveLength(1);
    expect((await structured('search_text', { space: 'climate-lab', query: 'BUCKET', caseSensitive: true })).matches).toEqual([]);
    expect((await structured('find_notebooks', { maxResults: 1 })).notebooks).toHaveLength(1);
    const bare = await structured('read_notebook', { space: 'climate-lab', path: 'iris_classifier.ipynb', includeOutputs: false });
    expect(bare.cells?.every((c) => c.outputs === undefined)).toBe(true);
  });

  it('lose to the snake_case name when both are given', async () => {
    expect((await structured('search_text', { space: 'benchmark-notes', query: 'run-0142', max_results: 1, maxResults: 3 })).matches).toHaveLength(1);
  });

  it('are marked deprecated in the input schemas a client lists', async () => {
    const { tools } = await conn.client.listTools();
    const properties = (name: string) => (tools.find((t) => t.name === name)?.inputSchema.properties ?? {}) as Record<string, { description?: string }>;
    for (const [tool, snake, camel] of [['search_text', 'max_results', 'maxResults'], ['search_text', 'case_sensitive', 'caseSensitive'], ['find_notebooks', 'max_results', 'maxResults'], ['read_notebook', 'include_outputs', 'includeOutputs']] as const) {
      expect(properties(tool)[snake], `${tool}.${snake}`).toBeDefined();
      expect(properties(tool)[camel]?.description, `${tool}.${camel}`).toMatch(new RegExp(`^Deprecated: use ${snake}`));
    }
  });
});
