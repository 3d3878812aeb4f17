/**
 * `check` on views (MCP Apps): a view must be self-contained — every script,
 * stylesheet and `@import` inlined, or from an origin its `csp` declares —
 * fit the size cap, and a `ui://` resource declared by hand must carry the
 * apps MIME type. Through `checkExtension` (what the command runs) and
 * `reactor-mcp-server check` on a package that ships its view as a file.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { defineExtension } from '../contract/extension.js';
import { defineTool } from '../contract/tool.js';
import { defineView, MAX_VIEW_BYTES, type ViewSpec } from '../contract/view.js';
import { HOST_VERSION } from '../kernel/version.js';
import { checkExtension } from './checkExtension.js';
import { runCheckCommand } from './command.js';
import { originAllowed, viewReferences } from './viewCheck.js';

const annotations = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false };
const withView = (view: ViewSpec) =>
  defineExtension({
    manifest: { name: 'runs', version: '1.0.0' },
    toolsets: () => [{ name: 'runs', description: 'Runs.' }],
    tools: () => [defineTool({ name: 'get_run', title: 'Get run', description: 'Get a run.', annotations, view, handler: () => 'r1' })],
  });
const problems = async (view: ViewSpec) => (await checkExtension(withView(view))).findings.filter((f) => f.severity !== 'info').map((f) => `${f.severity} ${f.code}: ${f.message}`);
const page = (head: string) => `<!doctype html><html><head>${head}</head><body><main id="app"></main></body></html>`;

describe('check on a view', () => {
  it('passes a self-contained view: inline script and style, and what they say about tags is not a reference', async () => {
    const html = page(`<style>body{margin:0}</style><script type="module">document.body.innerHTML = '<script src="https://cdn.example.com/x.js"><\\/script>';</script><!-- <link rel="stylesheet" href="https://cdn.example.com/x.css"> -->`);
    expect(await problems(defineView({ uri: 'ui://runs/run', html }))).toEqual([]);
  });

  it('refuses a view with an external script and no declared origin', async () => {
    const found = await problems(defineView({ uri: 'ui://runs/run', html: page('<script src="https://cdn.example.com/chart.js"></script>') }));
    expect(found).toEqual([
      'error view-external: its script "https://cdn.example.com/chart.js" comes from https://cdn.example.com, which its csp does not declare, so the client\'s sandbox refuses it',
    ]);
    const check = await checkExtension(withView(defineView({ uri: 'ui://runs/run', html: page('<script src="https://cdn.example.com/chart.js"></script>') })));
    expect(check.ok).toBe(false);
    expect(check.findings.find((f) => f.code === 'view-external')?.hint).toContain('resourceDomains: ["https://cdn.example.com"]');
  });

  it('accepts the same script once its origin is declared (a wildcard takes subdomains), and still refuses a stylesheet and an @import of another', async () => {
    const html = page(`<script src="https://cdn.example.com/chart.js"></script><link rel="stylesheet" href="https://fonts.other.com/f.css"><style>@import url("https://styles.other.com/a.css");</style>`);
    expect(await problems(defineView({ uri: 'ui://runs/run', html, csp: { resourceDomains: ['https://*.example.com'] } }))).toEqual([
      'error view-external: its stylesheet "https://fonts.other.com/f.css" comes from https://fonts.other.com, which its csp does not declare, so the client\'s sandbox refuses it',
      'error view-external: its @import "https://styles.other.com/a.css" comes from https://styles.other.com, which its csp does not declare, so the client\'s sandbox refuses it',
    ]);
  });

  it('refuses what an inline module imports from an undeclared origin (static and dynamic), and a <base href> that moves every relative reference there', async () => {
    const html = page(
      `<base href="https://cdn.example.com/app/"><script type="module">import { chart } from "https://cdn.example.com/chart.js";\nimport 'https://esm.other.com/side-effect.js';\nconst label = "import x from 'https://not.a.reference/'";\nchart(label);</script><script>import('https://lazy.other.com/late.js').then(() => undefined);</script>`,
    );
    expect(await problems(defineView({ uri: 'ui://runs/run', html, csp: { resourceDomains: ['https://cdn.example.com'] } }))).toEqual([
      'error view-external: its module import "https://esm.other.com/side-effect.js" comes from https://esm.other.com, which its csp does not declare, so the client\'s sandbox refuses it',
      'error view-external: its module import "https://lazy.other.com/late.js" comes from https://lazy.other.com, which its csp does not declare, so the client\'s sandbox refuses it',
    ]);
    expect(viewReferences(html)).toEqual([
      { kind: '<base href>', url: 'https://cdn.example.com/app/' },
      { kind: 'module import', url: 'https://cdn.example.com/chart.js' },
      { kind: 'module import', url: 'https://esm.other.com/side-effect.js' },
      { kind: 'module import', url: 'https://lazy.other.com/late.js' },
    ]);
    expect(await problems(defineView({ uri: 'ui://runs/run', html: page('<base href="https://cdn.example.com/"><script src="main.js"></script>') }))).toContain(
      'error view-external: its <base href> "https://cdn.example.com/" comes from https://cdn.example.com, which its csp does not declare, so the client\'s sandbox refuses it',
    );
  });

  it('refuses a script beside the page (not bundled in), which no client can fetch', async () => {
    expect(await problems(defineView({ uri: 'ui://runs/run', html: page('<script src="./main.js"></script>') }))).toEqual([
      'error view-external: its script "./main.js" is a file beside the page, which a client rendering the view cannot fetch',
    ]);
  });

  it('refuses HTML over the size cap that a function returns (a string over it is refused by defineView)', async () => {
    const found = await problems({ uri: 'ui://runs/big', html: () => page('x'.repeat(MAX_VIEW_BYTES)) });
    expect(found).toEqual([expect.stringMatching(/^error view-invalid: .*is too large to serve/)]);
  });

  it('refuses a view whose URI is not ui://, as view-invalid', async () => {
    const ext = defineExtension({
      manifest: { name: 'runs', version: '1.0.0' },
      toolsets: () => [{ name: 'runs', description: 'Runs.' }],
      tools: () => [{ name: 'get_run', title: 'Get run', description: 'Get a run.', annotations, view: { uri: 'https://example.com/run.html', html: '<p/>' }, handler: () => 'r1' }],
    });
    expect((await checkExtension(ext)).findings.filter((f) => f.severity === 'error').map((f) => f.code)).toEqual(['view-invalid']);
  });

  it('refuses a ui:// resource declared by hand without the apps MIME type', async () => {
    const ext = defineExtension({
      manifest: { name: 'runs', version: '1.0.0' },
      toolsets: () => [{ name: 'runs', description: 'Runs.' }],
      resources: () => [{ name: 'run-view', description: 'A view.', uri: 'ui://runs/run', mimeType: 'text/html', read: () => ({ contents: [] }) }],
    });
    const errors = (await checkExtension(ext)).findings.filter((f) => f.severity === 'error');
    expect(errors.map((f) => `${f.code}: ${f.message}`)).toEqual(['view-invalid: is a ui:// resource served as "text/html"; clients render a view only as "text/html;profile=mcp-app"']);
  });
});

describe('viewReferences and originAllowed', () => {
  it('reads script src, stylesheet and preload links, and @import in style elements', () => {
    expect(viewReferences(`<script src='a.js' defer></script><link href=b.css rel="preload stylesheet"><link rel="modulepreload" href="/c.js"><link rel="icon" href="i.png"><style>@import 'd.css';</style>`)).toEqual([
      { kind: 'script', url: 'a.js' },
      { kind: 'stylesheet', url: 'b.css' },
      { kind: 'script', url: '/c.js' },
      { kind: '@import', url: 'd.css' },
    ]);
  });

  it('matches an origin exactly or under a wildcard, never the wildcard\'s bare domain or another scheme', () => {
    expect(originAllowed('https://cdn.example.com', ['https://cdn.example.com'])).toBe(true);
    expect(originAllowed('https://a.b.example.com', ['https://*.example.com'])).toBe(true);
    expect(originAllowed('https://example.com', ['https://*.example.com'])).toBe(false);
    expect(originAllowed('http://cdn.example.com', ['https://*.example.com'])).toBe(false);
    expect(originAllowed('https://evil-example.com', ['https://*.example.com'])).toBe(false);
  });
});

describe('reactor-mcp-server check on a package that ships its view as a file', () => {
  const work = mkdtempSync(join(tmpdir(), 'reactor-check-view-'));
  afterAll(() => rmSync(work, { recursive: true, force: true }));

  /** A plain-JS package whose tool's view is `views/run.html` beside its module (`html: new URL(…, import.meta.url)`). */
  function writePackage(viewHtml: string, csp?: object): string {
    const dir = join(work, `pkg-${Math.random().toString(36).slice(2)}`);
    mkdirSync(join(dir, 'dist', 'views'), { recursive: true });
    writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: '@acme/runs', version: '1.0.0', type: 'module', peerDependencies: { '@reactor/host': `^${HOST_VERSION}` }, reactorMcp: { extensions: { runs: './dist/index.js' } } }));
    writeFileSync(join(dir, 'dist', 'views', 'run.html'), viewHtml);
    writeFileSync(
      join(dir, 'dist', 'index.js'),
      `export default {
  manifest: { name: 'runs', version: '1.0.0' },
  toolsets: () => [{ name: 'runs', description: 'Runs.' }],
  tools: () => [{ name: 'get_run', title: 'Get run', description: 'Get a run.', annotations: ${JSON.stringify(annotations)},
    view: { uri: 'ui://runs/run', html: new URL('./views/run.html', import.meta.url)${csp ? `, csp: ${JSON.stringify(csp)}` : ''} }, handler: () => 'r1' }],
};\n`,
    );
    return dir;
  }
  async function run(dir: string) {
    let out = '';
    const code = await runCheckCommand([dir], { stdout: (text) => (out += text), cwd: dir });
    return { code, out };
  }

  it('exits 1 for a view with an external script and no declared origin, naming the view, the script and the fix', async () => {
    const { code, out } = await run(writePackage(page('<script src="https://cdn.example.com/chart.js"></script>')));
    expect(code).toBe(1);
    expect(out).toContain('error [view-external] view "ui://runs/run" of tool "get_run" of extension "runs"');
    expect(out).toContain('https://cdn.example.com/chart.js');
    expect(out).toMatch(/FAILED: 1 error\(s\)/);
  });

  it('exits 0 once the origin is declared', async () => {
    const { code, out } = await run(writePackage(page('<script src="https://cdn.example.com/chart.js"></script>'), { resourceDomains: ['https://cdn.example.com'] }));
    expect(out).not.toContain('view-external');
    expect(code).toBe(0);
  });
});
