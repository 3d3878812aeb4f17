/**
 * @title Notebook
 * The `read_notebook` view: the notebook drawn as a notebook — Markdown cells
 * rendered (marked, then sanitized by DOMPurify; only inline images kept),
 * code cells with their In [n] and outputs. read_notebook names images rather
 * than sending them ("[image/png 12 KB]"), so when the page has any, the view
 * reads the notebook's JSON through the host (`read_file`, paged, bounded) and
 * draws the images themselves.
 */
import DOMPurify from 'dompurify';
import { marked } from 'marked';
import type { App } from '@modelcontextprotocol/ext-apps';
import type { CallToolResult } from '@modelcontextprotocol/client';
import { h, startView, textOf } from '@reactor/view-kit/view';

interface Output { outputType: string; name?: string; text: string }
interface Cell { index: number; type: 'code' | 'markdown' | 'raw'; source: string; executionCount?: number | null; outputs?: Output[] }
interface Notebook { space: string; path: string; title?: string; kernel?: string; language?: string; cellCount: number; cells: Cell[]; nextCell: number | null; truncated: boolean }
interface RawOutput { output_type: string; data?: Record<string, unknown> }
interface ReadFilePage { text: string; nextOffset: number | null }

/** The notebook's JSON is read in at most this many pages, this many characters in all. */
const MAX_PAGES = 40;
const MAX_CHARS = 8 * 1024 * 1024;
const IMAGE_TYPES = ['image/png', 'image/jpeg', 'image/gif', 'image/svg+xml'];
const IMAGE_MARK = /\[image\/(png|jpeg|gif|svg\+xml) [^\]]*\]/;

// Nothing in rendered Markdown may load from elsewhere: only inline (data:) images are kept.
DOMPurify.addHook('uponSanitizeElement', (node, data) => {
  if (data.tagName === 'img' && !(node as Element).getAttribute('src')?.startsWith('data:image/')) node.parentNode?.removeChild(node);
});

function markdown(source: string, app: App): HTMLElement {
  const div = h('div', { class: 'markdown' });
  // Tags and attributes that can fetch from elsewhere (srcset, a style's url(), a poster, media sources, SVG's
  // image/use hrefs) go too: a notebook's author must not get a beacon from whoever opens it in a lax client.
  div.innerHTML = DOMPurify.sanitize(marked.parse(source, { async: false, gfm: true }), {
    FORBID_TAGS: ['style', 'form', 'input', 'iframe', 'video', 'audio', 'source', 'picture', 'track', 'svg', 'math', 'object', 'embed', 'link', 'meta', 'base'],
    FORBID_ATTR: ['srcset', 'style', 'poster', 'background', 'xlink:href', 'action', 'formaction'],
  });
  for (const a of div.querySelectorAll('a[href]')) {
    a.addEventListener('click', (event) => {
      event.preventDefault();
      void app.openLink({ url: (a as HTMLAnchorElement).href }).catch(() => {});
    });
  }
  return div;
}

function output(o: Output, raw: RawOutput | undefined): HTMLElement {
  const kind = o.outputType === 'stream' ? `stream ${o.name ?? 'stdout'}` : o.outputType;
  const box = h('div', { class: `output ${kind}`, 'data-output-type': o.outputType });
  const image = raw?.data ? IMAGE_TYPES.find((mime) => typeof raw.data?.[mime] === 'string' || Array.isArray(raw.data?.[mime])) : undefined;
  if (image !== undefined) {
    const value = raw!.data![image];
    const text = Array.isArray(value) ? value.join('') : String(value);
    const data = image === 'image/svg+xml' ? btoa(unescape(encodeURIComponent(text))) : text.replace(/\s/g, '');
    box.append(h('img', { src: `data:${image};base64,${data}`, alt: o.text.replace(IMAGE_MARK, '').trim() || `${image} output` }));
    const rest = o.text.replace(IMAGE_MARK, '').trim();
    if (rest !== '' && !/^<.*>$/.test(rest)) box.append(h('pre', {}, rest));
    return box;
  }
  box.append(h('pre', {}, o.text));
  return box;
}

function cell(c: Cell, app: App, raw: RawOutput[] | undefined): HTMLElement {
  if (c.type === 'markdown') return h('section', { class: 'cell markdown-cell', 'data-cell': c.index }, markdown(c.source, app));
  if (c.type === 'raw') return h('section', { class: 'cell raw-cell', 'data-cell': c.index }, h('pre', {}, c.source));
  return h(
    'section',
    { class: 'cell code-cell', 'data-cell': c.index },
    h('div', { class: 'prompt', 'aria-label': 'execution count' }, `In [${c.executionCount ?? ' '}]:`),
    h('pre', { class: 'source' }, h('code', {}, c.source)),
    ...(c.outputs ?? []).map((o, i) => output(o, raw?.[i])),
  );
}

/** The notebook's own JSON, read through the host in pages; undefined when it cannot be had within the bounds. */
async function rawCells(app: App, nb: Notebook): Promise<Array<{ outputs?: RawOutput[] }> | undefined> {
  let text = '';
  let offset: number | null = 0;
  for (let page = 0; page < MAX_PAGES && offset !== null && text.length < MAX_CHARS; page++) {
    const answer = await app.callServerTool({ name: 'read_file', arguments: { space: nb.space, path: nb.path, offset, limit: 1_000_000 } });
    const got = answer.structuredContent as ReadFilePage | undefined;
    if (answer.isError || !got) return undefined;
    text += got.text;
    offset = got.nextOffset;
  }
  if (offset !== null) return undefined;
  return (JSON.parse(text) as { cells?: Array<{ outputs?: RawOutput[] }> }).cells;
}

function render(result: CallToolResult, app: App): void {
  const main = document.getElementById('app')!;
  const nb = result.structuredContent as Notebook | undefined;
  if (!nb || !Array.isArray(nb.cells)) {
    main.append(h('pre', {}, textOf(result)));
    return;
  }
  const shown = nb.cells.length;
  const first = nb.cells[0]?.index ?? 0;
  const header = h(
    'header',
    {},
    // The notebook's own first heading is drawn with its Markdown: the header names the file.
    h('h1', { class: 'path' }, nb.path),
    h('p', { class: 'muted' }, `${nb.space}${nb.kernel ? ` · ${nb.kernel}` : ''} · cells ${shown === 0 ? 0 : `${first + 1}–${first + shown}`} of ${nb.cellCount}`),
  );
  const cells = h('div', { class: 'cells' }, ...nb.cells.map((c) => cell(c, app, undefined)));
  main.append(header, cells);
  if (nb.nextCell !== null) main.append(h('p', { class: 'muted more' }, `More cells follow: read_notebook with cells.start = ${nb.nextCell}.`));
  const hasImages = nb.cells.some((c) => c.outputs?.some((o) => IMAGE_MARK.test(o.text)));
  if (!hasImages) return;
  const status = h('p', { class: 'muted', id: 'images-status' }, 'Loading the images…');
  header.append(status);
  rawCells(app, nb).then(
    (raw) => {
      if (!raw) {
        status.textContent = 'The images could not be loaded (the notebook is too large to read here).';
        return;
      }
      cells.replaceChildren(...nb.cells.map((c) => cell(c, app, raw[c.index]?.outputs)));
      status.remove();
    },
    (error: unknown) => (status.textContent = `The images could not be loaded: ${error instanceof Error ? error.message : String(error)}`),
  );
}

startView('read-notebook', render);
