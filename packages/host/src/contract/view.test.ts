/**
 * Views as authors write them: `defineView` checks a view at once, and a tool
 * carries it on `view`. What the host makes of it (the tool's `_meta.ui`, the
 * served resource) is tested in `host/build/views.test.ts`.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { ErrorCodes, isReactorError } from '../kernel/errors.js';
import { defineTool } from './tool.js';
import { defineView, loadViewHtml, MAX_VIEW_BYTES, toolMetaWithView, viewResourceMeta, type ViewSpec } from './view.js';

function thrown(fn: () => unknown) {
  try {
    fn();
  } catch (error) {
    if (isReactorError(error)) return error;
    throw error;
  }
  throw new Error('expected a ReactorError');
}

const dir = mkdtempSync(path.join(tmpdir(), 'reactor-view-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('defineView', () => {
  it('takes a ui:// URI, the HTML and the origins the view may reach', () => {
    const view = defineView({ uri: 'ui://benchmarks/compare-runs', html: '<!doctype html><p>hi</p>', csp: { connectDomains: ['https://api.example.com'] }, prefersBorder: true });
    expect(viewResourceMeta(view)).toEqual({ ui: { csp: { connectDomains: ['https://api.example.com'] }, prefersBorder: true } });
  });

  it.each<[string, Partial<ViewSpec>, string]>([
    ['an https URI', { uri: 'https://example.com/view.html' }, 'invalid uri'],
    ['no HTML', { html: '' }, 'no html'],
    ['an http: URL as HTML', { html: new URL('https://example.com/view.html') }, 'no html'],
    ['a csp origin with a path', { csp: { resourceDomains: ['https://cdn.example.com/lib'] } }, 'csp.resourceDomains'],
    // Clients splice these into a Content-Security-Policy: a `;` would add a directive, a bare `*` open everything.
    ['a csp origin that smuggles a directive', { csp: { connectDomains: ["https://a.example.com;script-src 'unsafe-eval'"] } }, 'csp.connectDomains'],
    ['a csp origin that is only a wildcard', { csp: { connectDomains: ['https://*'] } }, 'csp.connectDomains'],
    ['an unknown csp field', { csp: { scriptDomains: ['https://cdn.example.com'] } as never }, 'unknown csp field'],
    ['HTML over the cap', { html: 'x'.repeat(MAX_VIEW_BYTES + 1) }, 'too large'],
  ])('refuses %s with REACTOR_VIEW_INVALID', (_label, change, problem) => {
    const error = thrown(() => defineView({ uri: 'ui://demo/view', html: '<p>ok</p>', ...change }));
    expect(error.code).toBe(ErrorCodes.VIEW_INVALID);
    expect(error.message).toContain(problem);
  });

  it('is checked again on a tool, naming the tool', () => {
    const error = thrown(() => defineTool({ name: 'show', description: 'Shows.', view: { uri: 'ui:/bad', html: '<p/>' }, handler: () => 'x' }));
    expect(error.code).toBe(ErrorCodes.VIEW_INVALID);
    expect(error.message).toContain('view "ui:/bad" of tool "show"');
  });
});

describe('the tool _meta a view sets', () => {
  it('is ext-apps\' registerAppTool shape: _meta.ui.resourceUri and the legacy ui/resourceUri, keeping the author\'s _meta', () => {
    const view = defineView({ uri: 'ui://demo/view', html: '<p/>' });
    expect(toolMetaWithView({ ui: { visibility: ['model'] }, owner: 'demo' }, view)).toEqual({
      owner: 'demo',
      ui: { visibility: ['model'], resourceUri: 'ui://demo/view' },
      'ui/resourceUri': 'ui://demo/view',
    });
  });
});

describe('loadViewHtml', () => {
  it('reads a bundled file once (an extension ships its view beside its code)', async () => {
    const file = path.join(dir, 'view.html');
    writeFileSync(file, '<!doctype html><p>first</p>');
    const view = defineView({ uri: 'ui://demo/file', html: pathToFileURL(file) });
    expect(await loadViewHtml(view)).toBe('<!doctype html><p>first</p>');
    writeFileSync(file, '<!doctype html><p>second</p>');
    expect(await loadViewHtml(view)).toBe('<!doctype html><p>first</p>');
  });

  it('refuses HTML a function returns over the cap, and tries again next time', async () => {
    let calls = 0;
    const view = defineView({ uri: 'ui://demo/lazy', html: () => (++calls === 1 ? 'x'.repeat(MAX_VIEW_BYTES + 1) : '<p>ok</p>') });
    await expect(loadViewHtml(view)).rejects.toMatchObject({ code: ErrorCodes.VIEW_INVALID });
    expect(await loadViewHtml(view)).toBe('<p>ok</p>');
  });
});
