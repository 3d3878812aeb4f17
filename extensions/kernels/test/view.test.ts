/**
 * The tools that run code share one MCP Apps view: each names the view's
 * `ui://` resource in `_meta` (as ext-apps' registerAppTool does), and the
 * resource is the built, self-contained HTML (scripts and styles inline,
 * nothing loaded from elsewhere). What the view draws of a real kernel's run
 * is tested in Chromium: apps/demo/test/views.e2e.test.ts.
 */
import { createSpacesExtension } from '@reactor/ext-spaces';
import { buildHost, silentLogger, type McpHost } from '@reactor/host';
import { connect, type TestConnection } from '@reactor/host/testing';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createKernelsExtension } from '../src/index.js';
import { copyLab, type LabCopy } from './helpers/lab.js';

const URI = 'ui://kernels/execution';
let lab: LabCopy;
let host: McpHost;
let conn: TestConnection;

beforeAll(async () => {
  lab = copyLab();
  // A port nothing listens on: listing tools and reading the view never reach Jupyter.
  const kernels = createKernelsExtension({ jupyter: { url: 'http://127.0.0.1:9/', token: 'unused', rootDir: lab.root }, spaces: { roots: [lab.root] }, logger: silentLogger });
  host = await buildHost([createSpacesExtension({ roots: [lab.root] }), kernels], { strict: true, logger: silentLogger });
  conn = await connect(host, { selection: 'spaces,kernels' });
});

afterAll(async () => {
  await conn?.close();
  await host?.stop();
  lab?.remove();
});

it('execute_cell, execute_code and get_execution name one view, a self-contained HTML document', async () => {
  const { tools } = await conn.client.listTools();
  const withKernelsView = tools.filter((t) => (t._meta?.ui as { resourceUri?: string } | undefined)?.resourceUri === URI).map((t) => t.name).sort();
  expect(withKernelsView).toEqual(['execute_cell', 'execute_code', 'get_execution']);
  expect(tools.find((t) => t.name === 'execute_code')?._meta).toMatchObject({ 'ui/resourceUri': URI });
  const { contents } = await conn.client.readResource({ uri: URI });
  const html = (contents[0] as { text: string }).text;
  expect(contents[0]).toMatchObject({ uri: URI, mimeType: 'text/html;profile=mcp-app' });
  expect(html.startsWith('<!doctype html>')).toBe(true);
  expect(html).toMatch(/<script>[\s\S]+<\/script>/);
  expect(html).toMatch(/<style>[\s\S]+<\/style>/);
  // Nothing from elsewhere: no script, style sheet or image by URL.
  expect(html).not.toMatch(/<script[^>]+src=|<link[^>]+href=|\s(?:src|href)=["']?(?:https?:)?\/\//i);
});
