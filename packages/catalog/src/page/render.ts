/**
 * The page's HTML, rendered on the server from the model: usable without
 * the script (every toolset, tool, URL and snippet is in the markup), and
 * enhanced by it. Every value from extensions is escaped; the page data the
 * script reads sits in a JSON block with `<` escaped.
 */
import type { ToolAnnotations } from '@reactor/host';
import { clientSnippets } from '../clients.js';
import type { ModelHostTool, ModelTool, ModelToolset, PageModel } from '../model.js';
import { selectionQuery } from '../query.js';

/** The environment variable (or secret) the snippets read a token from. */
export const TOKEN_VARIABLE = 'REACTOR_MCP_TOKEN';

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
/** Escapes text for HTML content and attribute values. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ESCAPES[c]!);
}
const e = escapeHtml;

/** A key clients list the server under: its name, kebab-cased. */
export function clientName(serverName: string): string {
  return serverName.toLowerCase().replace(/[^a-z0-9-]+/g, '-').replace(/^-+|-+$/g, '') || 'mcp-server';
}

const number = (n: number) => n.toLocaleString('en-US');

function toolsetRow(t: ModelToolset, active: ReadonlySet<string>): string {
  const id = `ts-${t.name}`;
  const checked = active.has(t.name) || t.always ? ' checked' : '';
  const disabled = t.always || t.denied ? ' disabled' : '';
  const badges = [
    t.always ? '<span class="badge">always on</span>' : t.default ? '<span class="badge ok">default</span>' : '<span class="badge">opt-in</span>',
    t.held ? '<span class="badge">held: loads on first use</span>' : '',
    ...t.scopes.map((s) => `<span class="badge">scope ${e(s)}</span>`),
    t.denied ? '<span class="badge warn">your token lacks its scopes</span>' : '',
  ].join('');
  const tokens = t.tokens !== undefined ? `${number(t.tokens)} tokens` : t.held ? 'counted when loaded' : '—';
  const offeredBy = t.extensions.map((x) => `${e(x.name)}@${e(x.version)}${x.package !== undefined && x.package !== x.name ? ` (npm ${e(x.package)})` : ''}`).join(', ');
  return `<div class="ts">
<input type="checkbox" id="${e(id)}" name="toolset" value="${e(t.name)}"${checked}${disabled} aria-describedby="${e(id)}-desc">
<label for="${e(id)}">${e(t.title)} <code>${e(t.name)}</code></label>
<span class="tokens" data-toolset-tokens="${e(t.name)}">${tokens}</span>
<p class="desc" id="${e(id)}-desc">${badges} ${e(t.description)}</p>
<p class="meta">Offered by ${offeredBy || 'no extension'}</p>
</div>`;
}

/** A tool the host serves itself, in no toolset: a line of its own, so the lines add up to the total. */
function hostToolRow(tool: ModelHostTool): string {
  const tokens = tool.tokens !== undefined ? `${number(tool.tokens)} tokens` : '—';
  return `<div class="ts host-tool">
<span class="label"><code>${e(tool.name)}</code></span>
<span class="tokens" data-host-tool-tokens="${e(tool.name)}">${tokens}</span>
<p class="desc">The server's own tool, in no toolset: served beside whichever toolsets are chosen.</p>
</div>`;
}

const ANNOTATIONS: Array<[keyof ToolAnnotations, string, string]> = [
  ['readOnlyHint', 'read-only', 'writes'],
  ['destructiveHint', 'destructive', 'non-destructive'],
  ['idempotentHint', 'idempotent', 'not idempotent'],
  ['openWorldHint', 'open world', 'closed world'],
];

function annotationBadges(annotations: ToolAnnotations | undefined): string {
  const badges = ANNOTATIONS.filter(([key]) => typeof annotations?.[key] === 'boolean').map(([key, yes, no]) => {
    const value = annotations![key] === true;
    const warn = (key === 'destructiveHint' && value) || (key === 'readOnlyHint' && !value);
    return `<li class="badge${warn ? ' warn' : ''}">${value ? yes : no}</li>`;
  });
  return badges.length > 0 ? `<ul class="chips" aria-label="Annotations">${badges.join('')}</ul>` : '<p class="meta">No annotations declared.</p>';
}

function toolCard(tool: ModelTool): string {
  const search = [tool.name, tool.title ?? '', tool.description, tool.toolset].join(' ').toLowerCase();
  const extended = tool.extendedBy.length > 0 ? `Extended by ${tool.extendedBy.map((x) => `<code>${e(x)}</code>`).join(' → ')} (in order)` : 'Not extended';
  return `<li class="tool" data-search="${e(search)}">
<h4>${e(tool.title ?? tool.name)} <code>${e(tool.name)}</code></h4>
<p>${e(tool.description)}</p>
${annotationBadges(tool.annotations)}${tool.view !== undefined ? `\n<p class="meta view">Has a view: clients that render MCP Apps show <code>${e(tool.view)}</code> with its result.</p>` : ''}
<p class="meta">Offered by <code>${e(tool.offeredBy ?? '?')}</code>. ${extended}.${tool.tokens !== undefined ? ` ${number(tool.tokens)} tokens.` : ''}</p>
</li>`;
}

function toolsetTools(t: ModelToolset, tools: readonly ModelTool[]): string {
  const mine = tools.filter((tool) => tool.toolset === t.name);
  const body = t.held
    ? `<p class="muted held-note">Held: its extension loads when a URL asks for <code>${e(t.name)}</code>. Tick it above to load it.</p>`
    : t.denied
      ? '<p class="muted">Your token lacks the scopes of this toolset.</p>'
      : mine.length === 0
        ? '<p class="muted">No tools.</p>'
        : `<ul class="tool-list">${mine.map(toolCard).join('\n')}</ul>`;
  return `<section class="toolset-tools" data-toolset="${e(t.name)}" aria-labelledby="tools-${e(t.name)}">
<h3 id="tools-${e(t.name)}">${e(t.title)} <code>${e(t.name)}</code></h3>
${body}
</section>`;
}

/** The start of every page up to `<body>`: the same meta, icon and inline styles (the CSP hashes them). */
export function documentHead(title: string, styles: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light dark">
<link rel="icon" href="data:,">
<title>${escapeHtml(title)}</title>
<style>${styles}</style>
</head>`;
}

/** The whole page for a model; `script` and `styles` are inlined (the CSP allows them by hash). */
export function renderPage(model: PageModel, assets: { script: string; styles: string }): string {
  const active = new Set(model.initial.active);
  const offered = model.toolsets.map((t) => ({ name: t.name, default: t.default && !t.denied, always: t.always }));
  const query = selectionQuery(offered, model.toolsets.filter((t) => active.has(t.name)).map((t) => t.name));
  const endpoint = `${model.origin}${model.routes.mcp}`;
  const queryUrl = query ? `${endpoint}?${query}` : endpoint;
  const name = clientName(model.server.name);
  const snippets = clientSnippets({ name, url: queryUrl, auth: model.auth.required, tokenVariable: TOKEN_VARIABLE });
  const tokens = model.initial.tokens;
  const data = {
    origin: model.origin,
    routes: model.routes,
    auth: model.auth,
    clientName: name,
    tokenVariable: TOKEN_VARIABLE,
    toolsets: offered,
  };
  const nav = [
    model.routes.toolsets ? `<a href="${e(model.routes.toolsets)}">/toolsets (JSON)</a>` : '',
    model.routes.serverCard ? `<a href="${e(model.routes.serverCard)}">server card</a>` : '',
  ].join(' ');
  const authNote = model.auth.required
    ? `<p>This server wants a bearer token: each snippet says where yours goes (the environment variable <code>${TOKEN_VARIABLE}</code>, or a placeholder to replace).</p>`
    : '<p>No token needed.</p>';
  return `${documentHead(`${model.server.name} — MCP toolsets`, assets.styles)}
<body>
<a class="skip" href="#main">Skip to content</a>
<header class="top">
<div>
<h1>${e(model.server.name)}</h1>
<p>MCP server ${e(model.server.version)} · Reactor MCP host ${e(model.server.hostVersion)} · endpoint <code>${e(endpoint)}</code></p>
</div>
<nav aria-label="Machine-readable">${nav}</nav>
</header>
<main id="main">
<section class="panel" id="builder-panel" aria-labelledby="build-h">
<h2 id="build-h">Choose toolsets</h2>
<form id="builder">
<fieldset>
<legend>Toolsets on offer (${model.toolsets.length})</legend>
${model.toolsets.map((t) => toolsetRow(t, active)).join('\n')}
${model.hostTools.map(hostToolRow).join('\n')}
</fieldset>
</form>
<div class="summary">
<p><strong class="total" id="selection-tokens">${tokens ? number(tokens.total) : '—'}</strong> tokens of tool definitions for <span id="selection-count">${model.initial.tools.length}</span> tools</p>
<p class="muted">Counted with ${e(model.tokenizer ?? 'no tokenizer')} over each tool's <code>tools/list</code> entry, once per selection: the ticked toolsets' lines${model.hostTools.length > 0 ? ' and the server\'s own tools' : ''} add up to it. An unticked toolset's line is what it would cost beside them.</p>
<p id="builder-status" role="status"></p>
</div>
<h3>Your URL</h3>
<dl class="urls">
<dt>Query</dt><dd><code id="url-query">${e(queryUrl)}</code><button type="button" data-copy="url-query">Copy</button></dd>
<dt>Path (for clients that drop query strings)</dt><dd><code id="url-path">${e(query ? `${endpoint}/${query}` : endpoint)}</code><button type="button" data-copy="url-path">Copy</button></dd>
<dt>Header (on <code>${e(endpoint)}</code>)</dt><dd><code id="url-header">${e(query ? `X-MCP-Toolsets: ${query}` : '(none: the defaults)')}</code><button type="button" data-copy="url-header">Copy</button></dd>
</dl>
<h3>It serves</h3>
<ul class="chips" id="served-tools" data-tools="${e(model.initial.tools.join(','))}">${model.initial.tools.map((t) => `<li>${e(t)}</li>`).join('')}</ul>
<h3>Or let the model choose</h3>
<p id="dynamic">A dynamic session, <code id="url-dynamic">${e(`${endpoint}?${model.dynamic.query}`)}</code><button type="button" data-copy="url-dynamic">Copy</button>, starts with <code>list_available_toolsets</code>, <code>get_toolset_tools</code> and <code>enable_toolset</code> (and the always-on toolsets)${
  model.dynamic.tokens !== undefined && model.dynamic.fullTokens !== undefined
    ? `: <strong id="dynamic-tokens">${number(model.dynamic.tokens)}</strong> tokens up front, against <strong id="dynamic-full-tokens">${number(model.dynamic.fullTokens)}</strong> for every toolset listed with a count above`
    : ''
}; the model turns on the toolsets it needs, and pays for them then.${
  model.dynamic.tokens !== undefined && model.dynamic.fullTokens !== undefined && model.dynamic.tokens >= model.dynamic.fullTokens ? ' With this few tools on offer, a plain URL costs less here.' : ''
}</p>
</section>
<section class="panel" id="connect" aria-labelledby="connect-h">
<h2 id="connect-h">Connect a client</h2>
${authNote}
${snippets
  .map(
    (s, i) => `<details${i === 0 ? ' open' : ''}>
<summary>${e(s.client)}</summary>
<p class="where">In ${e(s.where)}:</p>
<pre tabindex="0"><code id="snippet-${s.id}" data-client="${s.id}">${e(s.text)}</code></pre>
<div class="actions"><button type="button" data-copy="snippet-${s.id}">Copy</button>${s.link ? `<a id="link-${s.id}" href="${e(s.link.href)}">${e(s.link.label)}</a>` : ''}</div>
${s.token ? `<p class="token">Token: ${e(s.token)}</p>` : ''}
</details>`,
  )
  .join('\n')}
</section>
<section class="panel" id="tools" aria-labelledby="tools-h">
<h2 id="tools-h">Tools</h2>
<div class="search"><label for="tool-search">Search tools</label><input type="search" id="tool-search" autocomplete="off" placeholder="name, title or description"><span id="search-status" role="status"></span></div>
${model.toolsets.map((t) => toolsetTools(t, model.tools)).join('\n')}
</section>
</main>
<footer>Served by Reactor MCP. Works offline; nothing on this page loads from elsewhere.</footer>
<script type="application/json" id="catalog-data">${JSON.stringify(data).replace(/</g, '\\u003c')}</script>
<script>${assets.script}</script>
</body>
</html>
`;
}
