/**
 * The page's one script: the URL builder, the client snippets, tool search
 * and copy buttons. It embeds the source of `selectionQuery` and
 * `clientSnippets`, so what it builds is what the server rendered and what the
 * tests checked; the served tools and token totals it shows are `/toolsets`'
 * own answer for the built query. Inlined and allowed by its hash (no eval,
 * no inline handlers).
 */
import { clientSnippets } from '../clients.js';
import { selectionQuery } from '../query.js';

const MAIN = String.raw`
const data = JSON.parse(document.getElementById('catalog-data').textContent);
const form = document.getElementById('builder');
const $ = (id) => document.getElementById(id);
const offered = data.toolsets.map((t) => ({ name: t.name, default: t.default, always: t.always }));
let sequence = 0;

function ticked() {
  return Array.from(form.querySelectorAll('input[name="toolset"]')).filter((i) => i.checked && !i.disabled).map((i) => i.value);
}

function setText(id, text) {
  const el = $(id);
  if (el) el.textContent = text;
}

function showServed(answer) {
  const list = $('served-tools');
  list.replaceChildren(...answer.tools.map((name) => {
    const li = document.createElement('li');
    li.textContent = name;
    return li;
  }));
  list.dataset.tools = answer.tools.join(',');
  for (const name of answer.active) {
    const note = document.querySelector('.toolset-tools[data-toolset="' + CSS.escape(name) + '"] .held-note');
    if (note) note.textContent = 'Loaded now: its tools are in the list above; reload the page for their details.';
  }
  setText('selection-count', String(answer.tools.length));
  if (answer.tokens) {
    setText('selection-tokens', answer.tokens.total.toLocaleString('en-US'));
    for (const [name, count] of Object.entries(answer.tokens.toolsets)) {
      const cell = document.querySelector('[data-toolset-tokens="' + CSS.escape(name) + '"]');
      if (cell) cell.textContent = count.toLocaleString('en-US') + ' tokens';
    }
    for (const cell of document.querySelectorAll('[data-host-tool-tokens]')) {
      const count = answer.tokens.tools[cell.dataset.hostToolTokens];
      cell.textContent = answer.tools.includes(cell.dataset.hostToolTokens) && count !== undefined ? count.toLocaleString('en-US') + ' tokens' : 'not served';
    }
  }
}

async function update() {
  const query = selectionQuery(offered, ticked());
  const endpoint = data.origin + data.routes.mcp;
  const queryUrl = query ? endpoint + '?' + query : endpoint;
  setText('url-query', queryUrl);
  setText('url-path', query ? endpoint + '/' + query : endpoint);
  setText('url-header', query ? 'X-MCP-Toolsets: ' + query : '(none: the defaults)');
  for (const snippet of clientSnippets({ name: data.clientName, url: queryUrl, auth: data.auth.required, tokenVariable: data.tokenVariable })) {
    setText('snippet-' + snippet.id, snippet.text);
    const link = $('link-' + snippet.id);
    if (link && snippet.link) link.setAttribute('href', snippet.link.href);
  }
  history.replaceState(null, '', query ? '?' + query : location.pathname);
  if (!data.routes.toolsets) return;
  const mine = ++sequence;
  $('builder-status').textContent = 'Asking the server…';
  try {
    const response = await fetch(data.routes.toolsets + (query ? '?' + query : ''), { headers: { accept: 'application/json' }, credentials: 'same-origin' });
    if (!response.ok) throw new Error('the server answered ' + response.status);
    const answer = await response.json();
    if (mine !== sequence) return;
    showServed(answer);
    $('builder-status').textContent = 'Serves ' + answer.tools.length + ' tools.';
  } catch (error) {
    if (mine === sequence) $('builder-status').textContent = 'Could not ask the server: ' + error.message;
  }
}

form.addEventListener('change', () => { void update(); });

const search = $('tool-search');
search.addEventListener('input', () => {
  const words = search.value.toLowerCase().split(/\s+/).filter(Boolean);
  let shown = 0;
  for (const tool of document.querySelectorAll('.tool')) {
    const match = words.every((w) => tool.dataset.search.includes(w));
    tool.hidden = !match;
    if (match) shown++;
  }
  for (const group of document.querySelectorAll('.toolset-tools')) {
    group.hidden = words.length > 0 && !group.querySelector('.tool:not([hidden])');
  }
  $('search-status').textContent = words.length ? shown + ' tools match' : '';
});

document.addEventListener('click', async (event) => {
  const button = event.target.closest('button[data-copy]');
  if (!button) return;
  const text = $(button.dataset.copy).textContent;
  try {
    await navigator.clipboard.writeText(text);
    button.textContent = 'Copied';
  } catch {
    const range = document.createRange();
    range.selectNodeContents($(button.dataset.copy));
    getSelection().removeAllRanges();
    getSelection().addRange(range);
    button.textContent = 'Selected: press Ctrl+C';
  }
  setTimeout(() => { button.textContent = 'Copy'; }, 1500);
});
`;

/** The script, exactly as inlined (its hash goes in the CSP). */
export const SCRIPT = `"use strict";\n(() => {\n${String(selectionQuery)}\n${String(clientSnippets)}\n${MAIN}\n})();\n`;
