/**
 * The short page a browser gets instead of the catalog when the server wants
 * a token the browser did not send: what the server wants and how a client
 * connects with a token (the MCP URL, the `Authorization` header, the Claude
 * Code command). The app keeps the 401 status and its `WWW-Authenticate`
 * header; this page only replaces the JSON body a person cannot use. No
 * script; the same inline styles (allowed by their hash) as the catalog.
 */
import type { CatalogContext } from '@reactor/host';
import { clientSnippets } from '../clients.js';
import { clientName, documentHead, escapeHtml as e, TOKEN_VARIABLE } from './render.js';

/** What the page is rendered from (as the app gives it to a renderer's `unauthorized`). */
export type UnauthorizedInput = Pick<CatalogContext, 'request' | 'server' | 'routes' | 'auth'>;

/** The page's HTML; `styles` is inlined (the CSP allows it by hash). */
export function renderUnauthorizedPage(input: UnauthorizedInput, assets: { styles: string }): string {
  const origin = new URL(input.request.url).origin;
  const endpoint = `${origin}${input.routes.mcp}`;
  const name = clientName(input.server.name);
  const claude = clientSnippets({ name, url: endpoint, auth: true, tokenVariable: TOKEN_VARIABLE }).find((s) => s.id === 'claude-code')!;
  const toolsets = input.routes.toolsets ? `${origin}${input.routes.toolsets}` : undefined;
  const listing = toolsets
    ? `<p>With a token, <code>curl -H &quot;Authorization: Bearer $${TOKEN_VARIABLE}&quot; ${e(toolsets)}</code> lists the toolsets and tools this page would show.</p>`
    : '';
  return `${documentHead(`${input.server.name} — a token is needed`, assets.styles)}
<body>
<header class="top">
<div>
<h1>${e(input.server.name)}</h1>
<p>MCP server ${e(input.server.version)} · Reactor MCP host ${e(input.server.hostVersion)}</p>
</div>
</header>
<main id="main">
<section class="panel" aria-labelledby="token-h">
<h2 id="token-h">This server wants a token</h2>
<p>Its catalog and its MCP endpoint answer only requests that carry a bearer token. Ask whoever runs this server for one; clients that support MCP authorization find where to get one from the server's <code>WWW-Authenticate</code> answer.</p>
<h3>Connect with a token</h3>
<dl class="urls">
<dt>MCP URL</dt><dd><code id="mcp-url">${e(endpoint)}</code></dd>
<dt>Header, on every request</dt><dd><code id="auth-header">Authorization: Bearer &lt;your token&gt;</code></dd>
</dl>
<p class="where">${e(claude.client)}, with the token in <code>${TOKEN_VARIABLE}</code>:</p>
<pre tabindex="0"><code id="snippet-claude-code">${e(claude.text)}</code></pre>
${listing}
</section>
</main>
<footer>Served by Reactor MCP.</footer>
</body>
</html>
`;
}
