/**
 * `createCatalog()`: the renderer `createMcpApp`'s `catalog` option takes. It
 * answers `GET /` with the page and a strict Content-Security-Policy: nothing
 * but this page's own inline script and styles (allowed by their SHA-256,
 * computed once), requests to this origin only, no framing.
 */
import { createHash } from 'node:crypto';
import type { CatalogContext, CatalogRenderer, McpAppOptions } from '@reactor/host';
import { pageModel } from './model.js';
import { renderPage } from './page/render.js';
import { SCRIPT } from './page/script.js';
import { STYLES } from './page/styles.js';
import { renderUnauthorizedPage, type UnauthorizedInput } from './page/unauthorized.js';
import { createTokenCounter } from './tokenizer.js';

const hash = (text: string) => `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`;

/** The page's Content-Security-Policy. */
export const CONTENT_SECURITY_POLICY = [
  "default-src 'none'",
  `script-src ${hash(SCRIPT)}`,
  `style-src ${hash(STYLES)}`,
  "connect-src 'self'",
  "img-src 'self' data:",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

const HTML_HEADERS = {
  'content-type': 'text/html; charset=utf-8',
  'content-security-policy': CONTENT_SECURITY_POLICY,
  'cache-control': 'no-store',
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
};

/**
 * A catalog renderer for `createMcpApp(host, { catalog })`. Behind auth, a
 * browser without a token gets a short page on how to connect with one
 * (`unauthorized`; the app keeps the 401 and its `WWW-Authenticate`).
 */
export function createCatalog(): CatalogRenderer {
  const render = async (context: CatalogContext) => {
    const html = renderPage(await pageModel(context), { script: SCRIPT, styles: STYLES });
    return new Response(html, { status: 200, headers: HTML_HEADERS });
  };
  const unauthorized = (input: UnauthorizedInput) => new Response(renderUnauthorizedPage(input, { styles: STYLES }), { status: 401, headers: HTML_HEADERS });
  return Object.assign(render, { unauthorized });
}

/**
 * Both options at once — the page and the tokenizer — to spread into
 * `createMcpApp`: `createMcpApp(host, { ...catalogOptions() })`.
 */
export function catalogOptions(): Pick<McpAppOptions, 'catalog' | 'tokenCounter'> {
  return { catalog: createCatalog(), tokenCounter: createTokenCounter() };
}
