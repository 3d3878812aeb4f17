/// <reference lib="dom" />
/**
 * The catalog page of the demo in a real browser: Debian's Chromium driven by
 * playwright-core, kept off the network, against the same command `pnpm start`
 * runs (on a free port). The page loads with no console error and nothing
 * from elsewhere; it lists spaces and benchmarks; ticking benchmarks changes
 * the URL and the token total; the Claude Code command's URL, given to a real
 * v2 client, serves exactly the tools the page said; axe-core finds no serious
 * or critical violation in light or dark; it fits a phone; it works from the
 * keyboard. Screenshots go to apps/demo/test-output/ (gitignored).
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { AxeBuilder } from '@axe-core/playwright';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { buildHost, loadExtensions, runCommand, silentLogger, type RunningCommand } from '@reactor/host';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoArgs, DEMO_INSTRUCTIONS } from '../src/demo.js';

const CHROMIUM = '/usr/bin/chromium';
const CHROMIUM_ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];
const appRoot = fileURLToPath(new URL('..', import.meta.url));
const outputDir = fileURLToPath(new URL('../test-output/', import.meta.url));

let running: RunningCommand;
let dataDir: string;
let browser: Browser;
let origin: string;

beforeAll(async () => {
  if (!existsSync(CHROMIUM)) throw new Error(`Chromium is not installed at ${CHROMIUM}: apt-get install chromium (CI's .ci/run does)`);
  mkdirSync(outputDir, { recursive: true });
  dataDir = mkdtempSync(join(tmpdir(), 'reactor-catalog-'));
  const started = await runCommand(demoArgs(['--port', '0', '--log-level', 'silent']), { REACTOR_BENCHMARKS_DATA: dataDir }, {
    loadExtensions: (options) => loadExtensions({ ...options, root: appRoot }),
    buildHost: (extensions, options) => buildHost(extensions, { ...options, instructions: DEMO_INSTRUCTIONS }),
    createLogger: () => silentLogger,
    signals: { once: () => process, removeListener: () => process },
    exit: () => {},
    root: appRoot,
  });
  if (!started) throw new Error('the demo did not start');
  running = started;
  origin = new URL(running.url!).origin;
  browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
}, 90_000);

afterAll(async () => {
  await browser?.close();
  await running?.close();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

/** Opens the page, recording console errors, page errors and any request that leaves this origin. */
async function openCatalog(colorScheme: 'light' | 'dark' = 'light', viewport = { width: 1280, height: 900 }) {
  const context = await browser.newContext({ colorScheme, viewport });
  const page = await context.newPage();
  const problems: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') problems.push(`console: ${message.text()}`);
  });
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
  page.on('request', (request) => {
    if (!request.url().startsWith(origin)) problems.push(`request elsewhere: ${request.url()}`);
  });
  const response = await page.goto(`${origin}/`, { waitUntil: 'load' });
  expect(response?.status()).toBe(200);
  return { page, problems, close: () => context.close() };
}

const text = async (page: Page, selector: string) => (await page.textContent(selector)) ?? '';
const figure = async (page: Page, selector: string) => Number((await text(page, selector)).replace(/[^\d]/g, ''));

/** The Claude Code command is whole in its box: it wraps rather than running past the edge. */
const commandFits = (page: Page) => page.evaluate(() => {
  const box = document.getElementById('snippet-claude-code')!.closest('pre')!;
  return box.scrollWidth <= box.clientWidth;
});

async function seriousViolations(page: Page) {
  const results = await new AxeBuilder({ page }).analyze();
  return results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).join('; ')})`);
}

describe('the catalog page in Chromium', () => {
  it('loads with no console error, nothing from elsewhere, and lists spaces and benchmarks', async () => {
    const { page, problems, close } = await openCatalog();
    expect(await page.isChecked('#ts-spaces')).toBe(true);
    expect(await page.isChecked('#ts-benchmarks')).toBe(false);
    expect(await text(page, 'label[for="ts-benchmarks"]')).toContain('benchmarks');
    expect(await page.locator('.tool h4 code', { hasText: 'list_spaces' }).count()).toBe(1);
    expect(Number((await text(page, '#selection-tokens')).replace(/,/g, ''))).toBeGreaterThan(0);
    expect(await commandFits(page)).toBe(true);
    // The adopted server: its own package's version, declared by the demo's package.json, in one flat line.
    const version = (file: string) => (JSON.parse(readFileSync(join(appRoot, file), 'utf8')) as { version: string }).version;
    expect(await text(page, '.ts:has(#ts-everything) .meta')).toBe(`Offered by everything@${version('node_modules/@modelcontextprotocol/server-everything/package.json')} (npm @reactor/demo@${version('package.json')})`);
    await page.screenshot({ path: join(outputDir, 'catalog-light.png') });
    expect(problems).toEqual([]);
    await close();
  }, 60_000);

  it('ticking benchmarks changes the URL and the token total, and a real client at that URL gets exactly the tools the page lists', async () => {
    const { page, problems, close } = await openCatalog();
    const before = await text(page, '#selection-tokens');
    expect(await text(page, '#url-query')).toBe(`${origin}/mcp`);
    await page.click('label[for="ts-benchmarks"]');
    await page.waitForFunction(() => document.getElementById('builder-status')?.textContent?.startsWith('Serves'));
    expect(await text(page, '#url-query')).toBe(`${origin}/mcp?toolsets=benchmarks`);
    expect(await text(page, '#url-path')).toBe(`${origin}/mcp/toolsets=benchmarks`);
    expect(await text(page, '#url-header')).toBe('X-MCP-Toolsets: toolsets=benchmarks');
    expect(page.url()).toBe(`${origin}/?toolsets=benchmarks`);
    const after = await text(page, '#selection-tokens');
    expect(Number(after.replace(/,/g, ''))).toBeGreaterThan(Number(before.replace(/,/g, '')));
    // The ticked toolsets' lines and the host's own tool's line add up to the total.
    const lines = (await figure(page, '[data-toolset-tokens="spaces"]')) + (await figure(page, '[data-toolset-tokens="benchmarks"]')) + (await figure(page, '[data-host-tool-tokens="list_server_toolsets"]'));
    expect(lines).toBe(Number(after.replace(/,/g, '')));
    const listed = ((await page.getAttribute('#served-tools', 'data-tools')) ?? '').split(',').sort();
    expect(listed).toContain('best_run');

    const command = await text(page, '#snippet-claude-code');
    const url = /^claude mcp add --transport http reactor-demo '([^']+)'$/.exec(command)?.[1];
    expect(url).toBe(`${origin}/mcp?toolsets=benchmarks`);
    const client = new Client({ name: 'catalog-browser-test', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(url!)));
    const served = (await client.listTools()).tools.map((t) => t.name).sort();
    await client.close();
    expect(served).toEqual(listed);
    await page.screenshot({ path: join(outputDir, 'catalog-benchmarks.png'), fullPage: true });
    expect(problems).toEqual([]);
    await close();
  }, 60_000);

  it('has no serious or critical accessibility violation, in light and in dark', async () => {
    for (const scheme of ['light', 'dark'] as const) {
      const { page, problems, close } = await openCatalog(scheme);
      expect(await seriousViolations(page), scheme).toEqual([]);
      await page.screenshot({ path: join(outputDir, `catalog-${scheme}-full.png`), fullPage: true });
      if (scheme === 'dark') await page.screenshot({ path: join(outputDir, 'catalog-dark.png') });
      expect(problems).toEqual([]);
      await close();
    }
  }, 90_000);

  it('fits a phone without sideways scrolling, and works from the keyboard', async () => {
    const { page, problems, close } = await openCatalog('light', { width: 390, height: 844 });
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
    expect(await commandFits(page)).toBe(true);
    await page.screenshot({ path: join(outputDir, 'catalog-phone.png') });
    // The skip link comes first; the checkboxes and the search box are reachable and usable by keyboard.
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Skip to content');
    await page.focus('#ts-benchmarks');
    await page.keyboard.press('Space');
    await page.waitForFunction(() => document.getElementById('url-query')?.textContent?.includes('benchmarks'));
    await page.focus('#tool-search');
    await page.keyboard.type('find_note');
    const visible = await page.locator('.tool:visible h4 code').allTextContents();
    expect(visible).toContain('find_notebooks');
    expect(await page.locator('.tool:visible', { hasText: 'list_spaces' }).count()).toBe(0);
    expect(problems).toEqual([]);
    await close();
  }, 60_000);
});
