/**
 * compare_runs carries its MCP Apps view: the tool names the view's `ui://`
 * resource in `_meta` (as ext-apps' registerAppTool does), and the resource is
 * the built, self-contained HTML (scripts and styles inline, nothing loaded
 * from elsewhere). What the view draws is tested in Chromium:
 * apps/demo/test/views.e2e.test.ts.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildHost, silentLogger, type McpHost } from '@reactor/host';
import { connect, type TestConnection } from '@reactor/host/testing';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createBenchmarksExtension } from '../src/index.js';

const URI = 'ui://benchmarks/compare-runs';
let tmp: string;
let host: McpHost;
let conn: TestConnection;

beforeAll(async () => {
  tmp = mkdtempSync(join(tmpdir(), 'benchmarks-view-'));
  host = await buildHost([createBenchmarksExtension({ dataDir: join(tmp, 'data'), logger: silentLogger })], { strict: true, logger: silentLogger });
  conn = await connect(host, { selection: 'benchmarks' });
});

afterAll(async () => {
  await conn?.close();
  await host?.stop();
  rmSync(tmp, { recursive: true, force: true });
});

it('compare_runs names its view, and the view is one self-contained HTML document', async () => {
  const { tools } = await conn.client.listTools();
  expect(tools.find((t) => t.name === 'compare_runs')?._meta).toMatchObject({ ui: { resourceUri: URI }, 'ui/resourceUri': URI });
  expect(tools.filter((t) => t._meta?.ui !== undefined).map((t) => t.name)).toEqual(['compare_runs']);
  const { contents } = await conn.client.readResource({ uri: URI });
  const html = (contents[0] as { text: string }).text;
  expect(contents[0]).toMatchObject({ uri: URI, mimeType: 'text/html;profile=mcp-app' });
  expect(html.startsWith('<!doctype html>')).toBe(true);
  expect(html).toMatch(/<script>[\s\S]+<\/script>/);
  expect(html).toMatch(/<style>[\s\S]+<\/style>/);
  // Nothing from elsewhere: no script, style sheet or image by URL.
  expect(html).not.toMatch(/<script[^>]+src=|<link[^>]+href=|\s(?:src|href)=["']?(?:https?:)?\/\//i);
});
