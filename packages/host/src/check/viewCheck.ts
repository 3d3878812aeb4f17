/**
 * Checking a view (MCP Apps) as `reactor-mcp-server check` does: its HTML
 * loads and fits the size cap, and it is self-contained — every external
 * script, stylesheet, CSS `@import`, module `import` and `<base href>` comes
 * from an origin its `csp` declares (`resourceDomains`), since a client's
 * sandbox refuses anything
 * else and a view that depends on it draws nothing. A `ui://` resource an
 * extension declares by hand must carry the apps MIME type.
 */
import { loadViewHtml, VIEW_MIME_TYPE, type ViewSpec } from '../contract/view.js';
import { errorMessage, isReactorError } from '../kernel/errors.js';
import { FindingCodes, type CheckFinding, type FindingCode } from './findings.js';

type Add = (severity: CheckFinding['severity'], code: FindingCode, subject: string, message: string, hint?: string) => void;

/** A reference from a view's HTML to something it would fetch. */
export interface ViewReference {
  readonly kind: 'script' | 'stylesheet' | '@import' | 'module import' | '<base href>';
  readonly url: string;
}

const ATTRIBUTE = /([^\s=/>]+)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>]+)))?/g;
const IMPORT = /@import\s+(?:url\(\s*)?["']?([^"')\s;]+)/gi;
/** A module's static `import … from "x"` / `import "x"` (at a statement's start), and any script's `import("x")`. */
const STATIC_IMPORT = /(?:^|[;{}\n])\s*import\s*(?:[\w$*{}\s,]+?\s*from\s*)?["']([^"'\n]+)["']/g;
const DYNAMIC_IMPORT = /\bimport\s*\(\s*["'`]([^"'`\n]+)["'`]\s*\)/g;

function attributes(source: string): Map<string, string> {
  const found = new Map<string, string>();
  for (const m of source.matchAll(ATTRIBUTE)) found.set(m[1]!.toLowerCase(), m[2] ?? m[3] ?? m[4] ?? '');
  return found;
}

/**
 * The scripts, stylesheets, `@import`s, module imports and `<base href>` an
 * HTML document would fetch from. Reads tags and import statements, not text:
 * what an inline script's strings or a comment hold is not a reference.
 */
export function viewReferences(html: string): ViewReference[] {
  const found: ViewReference[] = [];
  const source = html.replace(/<!--[\s\S]*?-->/g, '');
  const tag = /<(script|link|style|base)\b([^>]*)>/gi;
  let m: RegExpExecArray | null;
  while ((m = tag.exec(source)) !== null) {
    const name = m[1]!.toLowerCase();
    const attrs = attributes(m[2]!);
    if (name === 'link') {
      const rel = (attrs.get('rel') ?? '').toLowerCase().split(/\s+/);
      const href = attrs.get('href');
      if (href !== undefined && (rel.includes('stylesheet') || rel.includes('modulepreload') || (rel.includes('preload') && ['script', 'style'].includes(attrs.get('as') ?? '')))) {
        found.push({ kind: rel.includes('stylesheet') || attrs.get('as') === 'style' ? 'stylesheet' : 'script', url: href });
      }
      continue;
    }
    if (name === 'base') {
      // Every relative reference of the page resolves against it.
      const href = attrs.get('href');
      if (href !== undefined) found.push({ kind: '<base href>', url: href });
      continue;
    }
    // An element's body is skipped (a script) or read for @import (a style), never taken for tags.
    const end = source.toLowerCase().indexOf(`</${name}`, tag.lastIndex);
    const body = source.slice(tag.lastIndex, end === -1 ? source.length : end);
    tag.lastIndex = end === -1 ? source.length : end;
    if (name === 'script') {
      const src = attrs.get('src');
      if (src !== undefined) found.push({ kind: 'script', url: src });
      else {
        // An inline script's text is not read for tags, but what it imports is fetched like a script.
        const module = (attrs.get('type') ?? '').toLowerCase() === 'module';
        if (module) for (const i of body.matchAll(STATIC_IMPORT)) found.push({ kind: 'module import', url: i[1]! });
        for (const i of body.matchAll(DYNAMIC_IMPORT)) found.push({ kind: 'module import', url: i[1]! });
      }
    } else {
      for (const i of body.matchAll(IMPORT)) found.push({ kind: '@import', url: i[1]! });
    }
  }
  return found;
}

/** Whether `origin` is one a CSP origin list allows (`https://*.example.com` takes subdomains). */
export function originAllowed(origin: string, declared: readonly string[]): boolean {
  return declared.some((entry) => {
    const wildcard = /^([a-z][a-z0-9+.-]*:\/\/)\*\.(.+)$/i.exec(entry);
    if (!wildcard) return entry.toLowerCase() === origin.toLowerCase();
    const [, scheme, rest] = wildcard;
    return origin.toLowerCase().startsWith(scheme!.toLowerCase()) && origin.toLowerCase().endsWith(`.${rest!.toLowerCase()}`);
  });
}

/** Checks one view: loads its HTML (size-capped) and refuses what it would fetch from an origin it does not declare. */
export async function checkView(view: ViewSpec, subject: string, add: Add): Promise<void> {
  let html: string;
  try {
    html = await loadViewHtml(view);
  } catch (error) {
    if (isReactorError(error)) add('error', FindingCodes.VIEW_INVALID, subject, error.message.replace(/; hint: .*$/, ''), error.hint);
    else add('error', FindingCodes.VIEW_INVALID, subject, `its HTML cannot be loaded: ${errorMessage(error)}`, 'check the file it points at exists and is shipped in the package ("files")');
    return;
  }
  if (!/^\s*(<!doctype html|<html)/i.test(html)) {
    add('warning', FindingCodes.VIEW_INVALID, subject, 'its HTML does not start with <!doctype html>, so a client renders it in quirks mode', 'begin the document with <!doctype html>');
  }
  const declared = view.csp?.resourceDomains ?? [];
  for (const ref of viewReferences(html)) {
    if (/^(data|blob):/i.test(ref.url)) continue;
    let origin: string | undefined;
    try {
      const url = new URL(ref.url.startsWith('//') ? `https:${ref.url}` : ref.url);
      origin = url.protocol === 'ui:' ? undefined : url.origin;
    } catch {
      origin = undefined;
    }
    if (origin === undefined) {
      add('error', FindingCodes.VIEW_EXTERNAL, subject, `its ${ref.kind} "${ref.url}" is a file beside the page, which a client rendering the view cannot fetch`, 'inline it when bundling (esbuild or Vite with a single-file plugin), so the view is self-contained');
    } else if (!originAllowed(origin, declared)) {
      add('error', FindingCodes.VIEW_EXTERNAL, subject, `its ${ref.kind} "${ref.url}" comes from ${origin}, which its csp does not declare, so the client's sandbox refuses it`, `inline it when bundling, or declare the origin: csp: { resourceDomains: ["${origin}"] }`);
    }
  }
}

/** Checks a resource an extension declares by hand: a `ui://` one must be served as the apps MIME type. */
export function checkUiResource(resource: { readonly uri?: string; readonly template?: string; readonly mimeType?: string }, subject: string, add: Add): void {
  const uri = resource.uri ?? resource.template ?? '';
  if (!uri.startsWith('ui://') || resource.mimeType === VIEW_MIME_TYPE) return;
  add('error', FindingCodes.VIEW_INVALID, subject, `is a ui:// resource served as ${resource.mimeType === undefined ? 'no MIME type' : `"${resource.mimeType}"`}; clients render a view only as "${VIEW_MIME_TYPE}"`, "attach the view to its tool with defineView({ uri, html }) (the host serves it right), or set mimeType: 'text/html;profile=mcp-app'");
}
