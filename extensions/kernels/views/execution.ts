/**
 * @title Execution result
 * The view of a run (`execute_cell`, `execute_code`, `get_execution`): its
 * status, In [n] and time, the streams (stderr apart), rich outputs (images),
 * and an error's exception and traceback — terminal colour codes stripped.
 * Drawn from the tool's real result: the summary line, the outputs' text and
 * the image content.
 */
import type { CallToolResult } from '@modelcontextprotocol/client';
import { h, startView } from '@reactor/view-kit/view';

interface Execution { execution_id: string; status: string; execution_count: number | null; space: string; path: string; cell_id?: string; outputs: number; truncated_bytes: number; images_omitted: number; elapsed_ms: number; note?: string }

// CSI and OSC sequences (colours, cursor moves, hyperlinks): what the kernel's tracebacks are full of.
// eslint-disable-next-line no-control-regex
const ANSI = /\u001b\[[0-?]*[ -/]*[@-~]|\u001b\][^\u0007\u001b]*(?:\u0007|\u001b\\)|\u001b[@-Z\\-_]/g;
const stripAnsi = (text: string) => text.replace(ANSI, '');

/** The error's part of the outputs' text: its "Name: message" line and the "Traceback (…):" frames after it. */
const TRACEBACK = /(?:^|\n)([^\n]+)\nTraceback \((?:last \d+ of \d+ frames|\d+ frames?)\):\n([\s\S]*)$/;

function streams(text: string): HTMLElement[] {
  // The outputs' text joins each output's; stderr's begins with "[stderr]".
  return text.split(/(?:^|\n)\[stderr\]\n/).flatMap((part, i) => (part === '' ? [] : [h('pre', { class: i === 0 ? 'stream stdout' : 'stream stderr', 'aria-label': i === 0 ? 'output' : 'standard error' }, part)]));
}

function errorBlock(text: string): { before: string; block: HTMLElement } | undefined {
  const match = TRACEBACK.exec(text);
  const header = match?.[1] ?? text.split('\n').at(-1) ?? '';
  const frames = match?.[2];
  const before = match ? text.slice(0, match.index) : text.split('\n').slice(0, -1).join('\n');
  const colon = header.indexOf(': ');
  const block = h(
    'div',
    { class: 'error', role: 'group', 'aria-label': 'error' },
    h('p', { class: 'exception' }, h('strong', { class: 'ename' }, colon > 0 ? header.slice(0, colon) : header), colon > 0 ? `: ${header.slice(colon + 2)}` : ''),
    frames !== undefined ? h('details', { open: true }, h('summary', {}, 'Traceback'), h('pre', { class: 'traceback' }, frames)) : null,
  );
  return { before, block };
}

function render(result: CallToolResult): void {
  const main = document.getElementById('app')!;
  const run = result.structuredContent as Execution | undefined;
  const texts = result.content.filter((c) => c.type === 'text').map((c) => stripAnsi((c as { text: string }).text));
  const images = result.content.filter((c) => c.type === 'image') as Array<{ data: string; mimeType: string }>;
  // The first text is the summary line (and a note); the outputs' text follows it.
  const [, ...outputTexts] = texts;
  const outputs = outputTexts.join('\n').replace(/\n$/, '');
  const what = run ? (run.cell_id !== undefined ? `cell ${run.cell_id}` : 'code') : 'run';
  main.append(
    h(
      'header',
      {},
      h('h1', {}, run ? `${run.space}/${run.path}` : 'Execution'),
      h(
        'p',
        { class: 'meta' },
        h('span', { class: `status ${run?.status ?? 'unknown'}`, id: 'status' }, run?.status ?? 'unknown'),
        run ? ` · ${what}${run.execution_count ? ` · In [${run.execution_count}]` : ''} · ${(run.elapsed_ms / 1000).toFixed(2)} s · ${run.outputs} output${run.outputs === 1 ? '' : 's'}` : '',
      ),
      run?.note ? h('p', { class: 'note' }, run.note) : null,
    ),
  );
  const body = h('div', { class: 'outputs' });
  if (run?.status === 'error') {
    const { before, block } = errorBlock(outputs)!;
    body.append(...streams(before), block);
  } else if (outputs !== '' && outputs !== '(no output)') body.append(...streams(outputs));
  for (const image of images) body.append(h('img', { src: `data:${image.mimeType};base64,${image.data}`, alt: `${image.mimeType} output` }));
  if (run && run.images_omitted > 0) body.append(h('p', { class: 'muted' }, `${run.images_omitted} image${run.images_omitted === 1 ? '' : 's'} not shown (too many or too large).`));
  if (run && run.truncated_bytes > 0) body.append(h('p', { class: 'muted' }, `${run.truncated_bytes} bytes of output left out of this answer (head and tail kept).`));
  if (body.childElementCount === 0) body.append(h('p', { class: 'muted' }, 'No output.'));
  main.append(body);
}

startView('execution', render);
