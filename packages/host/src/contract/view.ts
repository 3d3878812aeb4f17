/**
 * Views: MCP Apps (the `io.modelcontextprotocol/ui` extension) as a contribution
 * attached to a tool. A view is an HTML document at a `ui://` URI that a client
 * renders in a sandboxed iframe when the tool is called, handing it the tool's
 * input and result. An author writes `defineView({ uri, html, csp })` and puts
 * it on a tool's `view`; the host sets the tool's `_meta.ui.resourceUri` (and
 * the legacy `_meta["ui/resourceUri"]`) and serves the resource with the apps
 * MIME type — only where the tool itself is served.
 *
 * The constants are ext-apps' (`@modelcontextprotocol/ext-apps/server`),
 * copied: that package takes `@modelcontextprotocol/client`/`core`/`zod` as
 * peers and ships 1.8 MB of app and bridge code, for three strings the host needs.
 */
import { readFile } from 'node:fs/promises';
import { describeValue, ErrorCodes, ReactorError } from '../kernel/errors.js';

/**
 * An origin a view's csp may name: a scheme, a host (or `*.` and a host) and an optional port — nothing
 * else, since clients splice these into a Content-Security-Policy, where `;`, `'`, `,` or a bare `*`
 * would add directives or open everything.
 */
const CSP_ORIGIN = /^[a-z][a-z0-9+.-]*:\/\/(?:\*\.)?[a-z0-9-]+(?:\.[a-z0-9-]+)*(?::\d{1,5})?$/i;

/** The MIME type of an MCP Apps view (ext-apps' `RESOURCE_MIME_TYPE`). */
export const VIEW_MIME_TYPE = 'text/html;profile=mcp-app';
/** The extension's identifier in `capabilities.extensions` (ext-apps' `EXTENSION_ID`). */
export const UI_EXTENSION_ID = 'io.modelcontextprotocol/ui';
/** The legacy flat tool `_meta` key older clients read (ext-apps' `RESOURCE_URI_META_KEY`); the host sets it beside `_meta.ui.resourceUri`. */
export const VIEW_URI_META_KEY = 'ui/resourceUri';
/** The largest view the host serves and `check` accepts, in bytes of UTF-8 HTML. */
export const MAX_VIEW_BYTES = 2 * 1024 * 1024;

/**
 * Which origins a view may reach (ext-apps' `McpUiResourceCsp`). Everything
 * left out is refused by the client's sandbox: a view is self-contained unless
 * it says otherwise.
 */
export interface ViewCsp {
  /** Origins for fetch/XHR/WebSocket (CSP `connect-src`). */
  readonly connectDomains?: readonly string[];
  /** Origins for images, scripts, stylesheets, fonts, media (`img-src`, `script-src`, `style-src`, `font-src`, `media-src`); `https://*.example.com` allowed. */
  readonly resourceDomains?: readonly string[];
  /** Origins for nested iframes (`frame-src`). */
  readonly frameDomains?: readonly string[];
  /** Allowed base URIs (`base-uri`). */
  readonly baseUriDomains?: readonly string[];
}

/** Browser capabilities a view asks for (ext-apps' `McpUiResourcePermissions`); clients may refuse. */
export interface ViewPermissions {
  readonly camera?: Record<string, never>;
  readonly microphone?: Record<string, never>;
  readonly geolocation?: Record<string, never>;
  readonly clipboardWrite?: Record<string, never>;
}

/**
 * Where a view's HTML comes from: the document itself, a `file:` URL read once
 * when first served (how an extension ships a bundled view:
 * `new URL('../views/run.html', import.meta.url)`), or a function called once.
 */
export type ViewHtml = string | URL | (() => string | Promise<string>);

/** A view, as `defineView` returns it and a tool's `view` holds. */
export interface ViewSpec {
  /** The view's resource URI: `ui://<server>/<name>`, e.g. `ui://benchmarks/compare-runs`. */
  readonly uri: string;
  /** The resource's name in `resources/list`; default: the URI's path. */
  readonly name?: string;
  readonly title?: string;
  readonly description?: string;
  /** The HTML document, self-contained (scripts and styles inlined). */
  readonly html: ViewHtml;
  /** Origins the view may reach; none by default. `check` refuses external scripts and styles of an origin not listed here. */
  readonly csp?: ViewCsp;
  readonly permissions?: ViewPermissions;
  /** A dedicated sandbox origin; its format is the client's (see ext-apps' `McpUiResourceMeta.domain`). */
  readonly domain?: string;
  /** True: the client draws a border and background around the view; false: none; absent: the client decides. */
  readonly prefersBorder?: boolean;
}

/** The URI scheme of views. */
export const VIEW_URI_PATTERN = /^ui:\/\/[^/?#\s]+(\/[^\s?#]*)?$/;

/**
 * Defines a view and checks it at once: a URI that is not `ui://…`, missing
 * HTML or a malformed `csp` throws a {@link ReactorError} (`REACTOR_VIEW_INVALID`).
 */
export function defineView(definition: ViewSpec): ViewSpec {
  assertValidView(definition);
  return definition;
}

/** Checks a view's shape, naming its tool and extension when known. */
export function assertValidView(view: ViewSpec, owner?: { readonly tool?: string; readonly extension?: string }): void {
  const of = `${owner?.tool === undefined ? '' : ` of tool "${owner.tool}"`}${owner?.extension === undefined ? '' : ` of extension "${owner.extension}"`}`;
  const fail = (problem: string, expected: string, received: string, hint: string): never => {
    throw new ReactorError(ErrorCodes.VIEW_INVALID, {
      subject: `view ${typeof view?.uri === 'string' ? JSON.stringify(view.uri) : '(no uri)'}${of}`,
      problem,
      expected,
      received,
      hint,
      ...(owner?.extension === undefined ? {} : { extension: owner.extension }),
    });
  };
  if (typeof view !== 'object' || view === null) fail('is not a view', 'an object with uri and html', describeValue(view), 'build views with defineView({ uri, html })');
  if (typeof view.uri !== 'string' || !VIEW_URI_PATTERN.test(view.uri)) {
    fail('has an invalid uri', 'a ui:// URI such as "ui://benchmarks/compare-runs"', describeValue(view.uri), 'MCP Apps views live at ui:// URIs');
  }
  const html = view.html;
  if (!(typeof html === 'string' && html.trim() !== '') && !(html instanceof URL && html.protocol === 'file:') && typeof html !== 'function') {
    fail('has no html', 'the HTML document, a file: URL of it, or a function returning it', describeValue(html), "html: new URL('../views/view.html', import.meta.url)");
  }
  if (typeof html === 'string' && Buffer.byteLength(html) > MAX_VIEW_BYTES) {
    fail('is too large', `at most ${MAX_VIEW_BYTES} bytes of HTML`, `${Buffer.byteLength(html)} bytes`, 'minify the bundle, or load large data through the tool result');
  }
  if (view.csp !== undefined) {
    if (typeof view.csp !== 'object' || view.csp === null) fail('has an invalid csp', 'an object of origin lists', describeValue(view.csp), 'csp: { connectDomains: ["https://api.example.com"] }');
    for (const [key, origins] of Object.entries(view.csp)) {
      if (!['connectDomains', 'resourceDomains', 'frameDomains', 'baseUriDomains'].includes(key)) {
        fail(`has an unknown csp field "${key}"`, 'connectDomains, resourceDomains, frameDomains or baseUriDomains', JSON.stringify(key), 'see MCP Apps McpUiResourceCsp');
      }
      if (!Array.isArray(origins) || origins.some((o) => typeof o !== 'string' || !CSP_ORIGIN.test(o))) {
        fail(`has an invalid csp.${key}`, 'an array of origins such as "https://cdn.example.com" or "https://*.example.com"', describeValue(origins), 'give scheme and host, no path');
      }
    }
  }
  for (const key of ['name', 'title', 'description', 'domain'] as const) {
    if (view[key] !== undefined && typeof view[key] !== 'string') fail(`has an invalid ${key}`, 'a string', describeValue(view[key]), `leave ${key} out or give a string`);
  }
  if (view.prefersBorder !== undefined && typeof view.prefersBorder !== 'boolean') fail('has an invalid prefersBorder', 'true or false', describeValue(view.prefersBorder), 'leave it out to let the client decide');
}

/** The view's `_meta.ui` (ext-apps' `McpUiResourceMeta`): on its `resources/list` entry and its read contents. */
export function viewResourceMeta(view: ViewSpec): Record<string, unknown> | undefined {
  const ui: Record<string, unknown> = {};
  if (view.csp !== undefined) ui.csp = view.csp;
  if (view.permissions !== undefined) ui.permissions = view.permissions;
  if (view.domain !== undefined) ui.domain = view.domain;
  if (view.prefersBorder !== undefined) ui.prefersBorder = view.prefersBorder;
  return Object.keys(ui).length === 0 ? undefined : { ui };
}

/**
 * A tool's `_meta` with its view linked as ext-apps' `registerAppTool` does:
 * `_meta.ui.resourceUri` (other `_meta.ui` fields the author set, such as
 * `visibility`, kept) and the legacy `_meta["ui/resourceUri"]`.
 */
export function toolMetaWithView(meta: Record<string, unknown> | undefined, view: ViewSpec): Record<string, unknown> {
  const ui = meta?.ui;
  return { ...meta, ui: { ...(typeof ui === 'object' && ui !== null ? ui : {}), resourceUri: view.uri }, [VIEW_URI_META_KEY]: view.uri };
}

const loaded = new WeakMap<ViewSpec, Promise<string>>();

/**
 * The view's HTML, loaded once per view (a file read or the function called on
 * first use; a failure is not kept, so the next read tries again). Refuses a
 * document over {@link MAX_VIEW_BYTES}.
 */
export function loadViewHtml(view: ViewSpec): Promise<string> {
  let pending = loaded.get(view);
  if (pending === undefined) {
    pending = (async () => {
      const { html } = view;
      const text = typeof html === 'string' ? html : html instanceof URL ? await readFile(html, 'utf8') : await html();
      if (typeof text !== 'string' || text.trim() === '') {
        throw new ReactorError(ErrorCodes.VIEW_INVALID, { subject: `view "${view.uri}"`, problem: 'has no HTML', expected: 'a non-empty HTML document', received: describeValue(text), hint: 'check the bundled file exists and is listed in the package\'s "files"' });
      }
      const bytes = Buffer.byteLength(text);
      if (bytes > MAX_VIEW_BYTES) {
        throw new ReactorError(ErrorCodes.VIEW_INVALID, { subject: `view "${view.uri}"`, problem: 'is too large to serve', expected: `at most ${MAX_VIEW_BYTES} bytes of HTML`, received: `${bytes} bytes`, hint: 'minify the bundle, or load large data through the tool result' });
      }
      return text;
    })();
    loaded.set(view, pending);
    const settled = pending;
    settled.catch(() => {
      if (loaded.get(view) === settled) loaded.delete(view);
    });
  }
  return pending;
}
