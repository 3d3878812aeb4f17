/// <reference lib="dom" />
/**
 * The three first-party views (MCP Apps) in a real browser, with the real host
 * side of the extension: Debian's Chromium driven by playwright-core loads a
 * page at the demo's origin that acts as the client — ext-apps' `AppBridge`
 * and a real MCP client (test/helpers/viewsHost.ts, bundled by esbuild). For
 * each tool with a view it lists the tool, reads the view's `ui://` resource,
 * calls the tool, renders the view in a sandboxed iframe under a CSP that
 * allows nothing from elsewhere, and hands it the real result. The test
 * asserts what is drawn, in the light theme and after the host switches to
 * dark (axe-core finds nothing serious or critical in either); that nothing
 * was logged as an error and nothing left the page; and that compare_runs'
 * control asks get_trajectory through the bridge and shows the answer. Kernels run on a real Jupyter Server the demo starts on
 * loopback (Debian's python3-jupyter-server and python3-ipykernel).
 * Screenshots go to apps/demo/test-output/ (gitignored).
 */
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { crc32, deflateSync } from 'node:zlib';
import { AxeBuilder } from '@axe-core/playwright';
import { build } from 'esbuild';
import type { RunningCommand } from '@reactor/host';
import { runImportCommand } from '@reactor/ext-benchmarks';
import { chromium, type Browser, type Frame, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runDemoOver } from './helpers/runDemo.js';
import type { ShownView } from './helpers/viewsHost.js';

const CHROMIUM = '/usr/bin/chromium';
const CHROMIUM_ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];
const outputDir = fileURLToPath(new URL('../test-output/', import.meta.url));
const QUERY = '?spaces,benchmarks,kernels';

/** A real PNG, `size` pixels square, of one colour. */
function png(size: number, rgb: [number, number, number]): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
    const out = Buffer.alloc(data.length + 12);
    out.writeUInt32BE(data.length, 0);
    body.copy(out, 4);
    out.writeUInt32BE(crc32(body), data.length + 8);
    return out;
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(size, 0);
  header.writeUInt32BE(size, 4);
  header.set([8, 2, 0, 0, 0], 8);
  const row = Buffer.concat([Buffer.from([0]), Buffer.from(Array.from({ length: size }, () => rgb).flat())]);
  return Buffer.concat([Buffer.from([137, 80, 78, 71, 13, 10, 26, 10]), chunk('IHDR', header), chunk('IDAT', deflateSync(Buffer.concat(Array.from({ length: size }, () => row)))), chunk('IEND', Buffer.alloc(0))]);
}
const PLOT = png(24, [30, 120, 200]).toString('base64');

function notebook(): string {
  return JSON.stringify({
    nbformat: 4,
    nbformat_minor: 5,
    metadata: { kernelspec: { name: 'python3', display_name: 'Python 3', language: 'python' } },
    cells: [
      { id: 'intro', cell_type: 'markdown', metadata: {}, source: ['# Ocean temperatures\n', '\n', 'Monthly **anomalies** by station:\n', '\n', '- north\n', '- south\n', '\n', '<script>window.parent.postMessage("pwned", "*")</script>\n', '![remote](https://example.invalid/tracker.png)'] },
      { id: 'load', cell_type: 'code', metadata: {}, execution_count: 1, source: 'print("loaded 12 stations")', outputs: [{ output_type: 'stream', name: 'stdout', text: 'loaded 12 stations\n' }] },
      { id: 'plot', cell_type: 'code', metadata: {}, execution_count: 2, source: 'plot(anomalies)', outputs: [{ output_type: 'display_data', metadata: {}, data: { 'image/png': PLOT, 'text/plain': '<Figure size 640x480 with 1 Axes>' } }] },
      { id: 'oops', cell_type: 'code', metadata: {}, execution_count: 3, source: '1 / 0', outputs: [{ output_type: 'error', ename: 'ZeroDivisionError', evalue: 'division by zero', traceback: ['\u001b[0;31mZeroDivisionError\u001b[0m Traceback (most recent call last)', 'Cell \u001b[0;32mIn[3], line 1\u001b[0m\n----> 1 1 / 0', '\u001b[0;31mZeroDivisionError\u001b[0m: division by zero'] }] },
    ],
  });
}

function benchmarksFile(): string {
  const task = (id: string, title: string) => ({ type: 'task', benchmark: 'arith', id, title, prompt: `Solve ${title}.`, grading: { method: 'exact-match', expected: '42' }, tags: [] });
  const run = (id: string, model: string) => ({ type: 'run', id, benchmark: 'arith', model, config: { temperature: 0 }, startedAt: '2026-11-01T10:00:00Z', finishedAt: '2026-11-01T10:05:00Z' });
  const result = (runId: string, taskId: string, score: number, answer: string) => ({ type: 'result', run: runId, task: taskId, score, passed: score === 1, output: answer, feedback: score === 1 ? 'correct' : 'expected 42', durationMs: 900, trajectory: [{ kind: 'thought', content: `thinking about ${taskId}` }, { kind: 'answer', content: answer }] });
  const lines = [
    { type: 'benchmark', id: 'arith', title: 'Arithmetic', description: 'Small sums.', version: '1.0' },
    task('arith/fixed', 'six times seven'),
    task('arith/broken', 'forty plus two'),
    task('arith/better', 'eighty-four halved'),
    task('arith/same', 'fifty minus eight'),
    run('run-base', 'model-old'),
    run('run-new', 'model-new'),
    result('run-base', 'arith/fixed', 0, 'forty'),
    result('run-base', 'arith/broken', 1, '42'),
    result('run-base', 'arith/better', 0.2, '40'),
    result('run-base', 'arith/same', 1, '42'),
    result('run-new', 'arith/fixed', 1, 'The answer is 42 (six times seven).'),
    result('run-new', 'arith/broken', 0, 'forty-one'),
    result('run-new', 'arith/better', 0.6, '41'),
    result('run-new', 'arith/same', 1, '42'),
  ];
  return lines.map((l) => JSON.stringify(l)).join('\n');
}

let work: string;
let running: RunningCommand;
let origin: string;
let browser: Browser;
let hostScript: string;

beforeAll(async () => {
  if (!existsSync(CHROMIUM)) throw new Error(`Chromium is not installed at ${CHROMIUM}: apt-get install chromium (CI's .ci/run does)`);
  mkdirSync(outputDir, { recursive: true });
  work = mkdtempSync(join(tmpdir(), 'reactor-views-'));
  mkdirSync(join(work, 'spaces', 'ocean'), { recursive: true });
  writeFileSync(join(work, 'spaces', 'ocean', 'README.md'), '# Ocean\n');
  writeFileSync(join(work, 'spaces', 'ocean', 'analysis.ipynb'), notebook());
  writeFileSync(join(work, 'runs.jsonl'), benchmarksFile());
  const errors: string[] = [];
  if (runImportCommand([join(work, 'runs.jsonl'), '--data-dir', join(work, 'benchmarks')], { out: () => {}, err: (line: string) => errors.push(line) }) !== 0) throw new Error(`the benchmarks import failed: ${errors.join('\n')}`);
  const bundled = build({ entryPoints: [fileURLToPath(new URL('./helpers/viewsHost.ts', import.meta.url))], bundle: true, format: 'iife', platform: 'browser', target: 'es2022', write: false, logLevel: 'silent' });
  [running, hostScript] = await Promise.all([runDemoOver({ spaces: join(work, 'spaces'), benchmarks: join(work, 'benchmarks') }), bundled.then((r) => r.outputFiles[0]!.text)]);
  origin = new URL(running.url!).origin;
  browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await running?.close();
  if (work) rmSync(work, { recursive: true, force: true });
});

interface Hosted {
  page: Page;
  view: Frame;
  shown: ShownView;
  problems: string[];
  setTheme: (theme: 'light' | 'dark') => Promise<void>;
  shot: (name: string) => Promise<void>;
  close: () => Promise<void>;
}

/** The host page at the demo's origin (served by the test, not the demo), showing `tool`'s view with its real result. */
async function host(tool: string, args: Record<string, unknown>): Promise<Hosted> {
  const context = await browser.newContext({ viewport: { width: 820, height: 900 } });
  const page = await context.newPage();
  page.setDefaultTimeout(10_000);
  const problems: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') problems.push(`console: ${message.text()}`);
  });
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
  page.on('request', (request) => {
    const url = request.url();
    if (!url.startsWith(`${origin}/`) && !url.startsWith('data:') && !url.startsWith('about:')) problems.push(`request elsewhere: ${url}`);
  });
  await page.route(`${origin}/views-host`, (route) => route.fulfill({ contentType: 'text/html', body: `<!doctype html><html lang="en"><head><title>views host</title></head><body style="margin:0"><div id="host"></div><script>${hostScript.replace(/<\/(script)/gi, '<\\/$1')}</script></body></html>` }));
  await page.goto(`${origin}/views-host`);
  const shown = await page.evaluate(([t, a, q]) => (window as unknown as { views: { showView: (q: string, t: string, a: unknown, theme: string) => Promise<ShownView> } }).views.showView(q, t, a, 'light'), [tool, args, QUERY] as const);
  const frameHandle = await page.waitForSelector('iframe#view');
  const view = (await frameHandle.contentFrame())!;
  return {
    page,
    view,
    shown,
    problems,
    setTheme: async (theme) => {
      await page.evaluate((t) => (window as unknown as { views: { setTheme: (t: string) => void } }).views.setTheme(t), theme);
      await view.waitForFunction((t) => document.documentElement.dataset.theme === t, theme);
    },
    shot: async (name) => {
      await frameHandle.screenshot({ path: join(outputDir, `view-${name}.png`) });
    },
    close: () => context.close(),
  };
}

const background = (view: Frame) => view.evaluate(() => getComputedStyle(document.body).backgroundColor);

/** axe-core's serious and critical findings in the view (the iframe), e.g. contrast too low in a theme. */
async function seriousViolations(page: Page): Promise<string[]> {
  const results = await new AxeBuilder({ page }).include('#view').analyze();
  return results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).join('; ')})`);
}

/** Both themes: the view follows the host's theme when it changes (the host context), and reads well in each. */
async function bothThemes(hosted: Hosted, name: string): Promise<void> {
  await hosted.view.waitForFunction(() => document.documentElement.dataset.theme === 'light');
  const light = await background(hosted.view);
  expect(await seriousViolations(hosted.page)).toEqual([]);
  await hosted.shot(`${name}-light`);
  await hosted.setTheme('dark');
  const dark = await background(hosted.view);
  expect(dark).not.toBe(light);
  expect(await seriousViolations(hosted.page)).toEqual([]);
  await hosted.shot(`${name}-dark`);
}

describe('first-party views in Chromium through ext-apps AppBridge', () => {
  it('compare_runs: a chart of per-task deltas with the flipped tasks marked, and get_trajectory through the bridge', async () => {
    const hosted = await host('compare_runs', { baseline: 'run-base', candidate: 'run-new' });
    const { view, shown } = hosted;
    expect(shown).toMatchObject({ uri: 'ui://benchmarks/compare-runs', mimeType: 'text/html;profile=mcp-app', resultIsError: false });
    expect(shown.toolMeta).toMatchObject({ ui: { resourceUri: 'ui://benchmarks/compare-runs' } });
    await view.waitForSelector('svg.chart');
    expect(await view.textContent('h1')).toBe('arith: model-old → model-new');
    expect(await view.textContent('#fixed-count')).toBe('1 fixed');
    expect(await view.textContent('#broken-count')).toBe('1 broken');
    expect(await view.locator('svg.chart g.bar').count()).toBe(4);
    expect(await view.locator('g.bar.flipped').evaluateAll((bars) => bars.map((b) => `${b.getAttribute('data-task')} ${b.classList.contains('fixed') ? 'fixed' : 'broken'}`).sort())).toEqual(['arith/broken broken', 'arith/fixed fixed']);
    expect(await view.textContent('g.bar[data-task="arith/better"] .value')).toBe('+0.40');
    await bothThemes(hosted, 'compare-runs');
    // The control, from the keyboard: focus the fixed task's bar and press Enter.
    await view.focus('g.bar[data-task="arith/fixed"]');
    await hosted.page.keyboard.press('Enter');
    await view.waitForSelector('article.trajectory');
    expect(await view.textContent('article.trajectory pre.answer')).toBe('The answer is 42 (six times seven).');
    expect(await view.textContent('article.trajectory h2')).toContain('passed, score 1');
    // And the form: the same task in the baseline run.
    await view.selectOption('#run', 'run-base');
    await view.click('#show-trajectory');
    await view.waitForFunction(() => document.querySelector('article.trajectory pre.answer')?.textContent === 'forty');
    await hosted.shot('compare-runs-trajectory');
    expect(hosted.problems).toEqual([]);
    await hosted.close();
  }, 30_000);

  it('read_notebook: Markdown rendered and sanitized, code with its outputs, the image drawn', async () => {
    const hosted = await host('read_notebook', { space: 'ocean', path: 'analysis.ipynb' });
    const { view, shown } = hosted;
    expect(shown).toMatchObject({ uri: 'ui://spaces/notebook', mimeType: 'text/html;profile=mcp-app', resultIsError: false });
    await view.waitForSelector('.output img');
    expect(await view.textContent('.markdown h1')).toBe('Ocean temperatures');
    expect(await view.textContent('.markdown strong')).toBe('anomalies');
    expect(await view.locator('.markdown li').allTextContents()).toEqual(['north', 'south']);
    expect(await view.locator('.markdown script, .markdown img').count()).toBe(0);
    expect(await view.locator('.code-cell .source').allTextContents()).toEqual(['print("loaded 12 stations")', 'plot(anomalies)', '1 / 0']);
    expect(await view.textContent('.output.stream pre')).toBe('loaded 12 stations\n');
    // The PNG from the notebook file itself, decoded by the browser.
    expect(await view.$eval('.output img', (img) => [(img as HTMLImageElement).naturalWidth, (img as HTMLImageElement).src.slice(0, 22)])).toEqual([24, 'data:image/png;base64,']);
    expect(await view.textContent('.output.error pre')).toContain('ZeroDivisionError: division by zero');
    await bothThemes(hosted, 'notebook');
    expect(hosted.problems).toEqual([]);
    await hosted.close();
  }, 30_000);

  it('execute_code on a real kernel: streams, the image, and the error with its traceback, ANSI stripped', async () => {
    const code = [
      'import sys, base64',
      'from IPython.display import Image, display',
      'print("mean anomaly 0.42")',
      'print("low coverage in 1901", file=sys.stderr)',
      `display(Image(data=base64.b64decode("${PLOT}")))`,
      'def ratio(a, b):',
      '    return a / b',
      'ratio(1, 0)',
    ].join('\n');
    const hosted = await host('execute_code', { space: 'ocean', path: 'analysis.ipynb', code });
    const { view, shown } = hosted;
    expect(shown).toMatchObject({ uri: 'ui://kernels/execution', mimeType: 'text/html;profile=mcp-app', resultIsError: false });
    await view.waitForSelector('#status');
    expect(await view.textContent('#status')).toBe('error');
    expect(await view.textContent('.stream.stdout')).toContain('mean anomaly 0.42');
    expect(await view.textContent('.stream.stderr')).toContain('low coverage in 1901');
    expect(await view.$eval('.outputs img', (img) => (img as HTMLImageElement).naturalWidth)).toBe(24);
    expect(await view.textContent('.error .exception')).toBe('ZeroDivisionError: division by zero');
    const traceback = (await view.textContent('.error .traceback')) ?? '';
    expect(traceback).toContain('ratio(1, 0)');
    expect(traceback).toContain('return a / b');
    expect(traceback).not.toContain('\u001b');
    await bothThemes(hosted, 'execution');
    expect(hosted.problems).toEqual([]);
    await hosted.close();
  }, 60_000);
});
