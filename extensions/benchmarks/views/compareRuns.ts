/**
 * @title Compare runs
 * The `compare_runs` view: per-task score deltas as an inline SVG chart, the
 * tasks that flipped (fixed: fail→pass, broken: pass→fail) highlighted, and a
 * control that asks the server for a task's trajectory (`get_trajectory`,
 * through the host) and shows its answer.
 */
import type { App } from '@modelcontextprotocol/ext-apps';
import type { CallToolResult } from '@modelcontextprotocol/client';
import { h, startView, textOf } from '@reactor/view-kit/view';

interface TaskDelta { task: string; title: string | null; delta: number; change: 'fixed' | 'broken' | 'improved' | 'regressed' | 'unchanged'; baseline: { status: string; score: number | null }; candidate: { status: string; score: number | null } }
interface Run { id: string; model: string; score: number; passed: number; total: number }
interface Comparison { benchmark: string; baseline: Run; candidate: Run; scoreDelta: number; passedDelta: number; fixed: string[]; broken: string[]; tasks: TaskDelta[]; summary?: string }
interface Step { kind: string; content?: string; tool?: string }
interface Trajectory { run: string; task: string; title: string | null; status: string; score: number; output: string | null; feedback: string | null; steps: Step[] }

/** The chart shows this many tasks at most: the flipped ones first, then the largest deltas. */
const MAX_BARS = 40;
const SVG = 'http://www.w3.org/2000/svg';

function svg<K extends keyof SVGElementTagNameMap>(tag: K, attrs: Record<string, string | number>, text?: string): SVGElementTagNameMap[K] {
  const el = document.createElementNS(SVG, tag);
  for (const [key, value] of Object.entries(attrs)) el.setAttribute(key, String(value));
  if (text !== undefined) el.textContent = text;
  return el;
}

const signed = (n: number) => `${n > 0 ? '+' : n < 0 ? '−' : '±'}${Math.abs(n).toFixed(2)}`;
const rank = (t: TaskDelta) => (t.change === 'fixed' || t.change === 'broken' ? 0 : 1);

function chart(tasks: TaskDelta[], select: (task: string) => void): SVGSVGElement {
  const shown = [...tasks].sort((a, b) => rank(a) - rank(b) || Math.abs(b.delta) - Math.abs(a.delta)).slice(0, MAX_BARS);
  const row = 22;
  const label = 200;
  const width = 560;
  const half = (width - label - 100) / 2;
  const axis = label + half;
  const max = Math.max(1, ...shown.map((t) => Math.abs(t.delta)));
  // A group, not an image: its bars are controls (a task's trajectory on Enter or click).
  const root = svg('svg', { viewBox: `0 0 ${width} ${shown.length * row + 24}`, width: '100%', role: 'group', 'aria-labelledby': 'chart-title', class: 'chart' });
  root.append(svg('title', { id: 'chart-title' }, `Score delta per task, candidate minus baseline (${shown.length} of ${tasks.length} tasks)`));
  root.append(svg('line', { x1: axis, x2: axis, y1: 0, y2: shown.length * row, class: 'axis' }));
  shown.forEach((t, i) => {
    const y = i * row;
    const flipped = t.change === 'fixed' || t.change === 'broken';
    const g = svg('g', { class: `bar ${t.change}${flipped ? ' flipped' : ''}`, 'data-task': t.task, tabindex: 0, role: 'button', 'aria-label': `${t.task}: ${t.change}, delta ${signed(t.delta)}. Show its trajectory` });
    const length = (Math.abs(t.delta) / max) * half;
    g.append(svg('text', { x: label - 8, y: y + 15, 'text-anchor': 'end', class: 'label' }, t.task.length > 28 ? `…${t.task.slice(-27)}` : t.task));
    g.append(svg('rect', { x: t.delta >= 0 ? axis : axis - length, y: y + 4, width: Math.max(length, 1.5), height: row - 8, rx: 2 }));
    g.append(svg('text', { x: axis + half + 8, y: y + 15, class: 'value' }, `${signed(t.delta)}${flipped ? ` ${t.change}` : ''}`));
    g.append(svg('title', {}, `${t.title ?? t.task}: ${t.baseline.status} → ${t.candidate.status}`));
    g.addEventListener('click', () => select(t.task));
    g.addEventListener('keydown', (event) => {
      if (event.key === 'Enter' || event.key === ' ') {
        event.preventDefault();
        select(t.task);
      }
    });
    root.append(g);
  });
  root.append(svg('text', { x: axis, y: shown.length * row + 18, 'text-anchor': 'middle', class: 'muted-text' }, '0'));
  return root;
}

function trajectoryPanel(t: Trajectory): HTMLElement {
  const answer = t.output ?? [...t.steps].reverse().find((s) => s.kind === 'answer')?.content ?? null;
  return h(
    'article',
    { class: 'trajectory', 'aria-label': `Trajectory of ${t.task}` },
    h('h2', {}, `${t.title ?? t.task} `, h('span', { class: `status ${t.status}` }, `${t.status}, score ${t.score}`)),
    h('p', { class: 'muted' }, `Run ${t.run} · task ${t.task} · ${t.steps.length} step${t.steps.length === 1 ? '' : 's'}`),
    h('h3', {}, 'Answer'),
    h('pre', { class: 'answer' }, answer ?? '(no answer)'),
    t.feedback ? h('p', { class: 'feedback' }, h('strong', {}, 'Grader: '), t.feedback) : null,
    t.steps.length > 0 ? h('details', {}, h('summary', {}, 'Steps'), h('ol', {}, ...t.steps.map((s) => h('li', {}, h('strong', {}, s.tool ? `${s.kind} (${s.tool})` : s.kind), ' ', s.content ?? '')))) : null,
  );
}

function render(result: CallToolResult, app: App): void {
  const main = document.getElementById('app')!;
  const c = result.structuredContent as Comparison | undefined;
  if (!c || !Array.isArray(c.tasks)) {
    main.append(h('pre', {}, textOf(result)));
    return;
  }
  const panel = h('section', { id: 'trajectory', 'aria-live': 'polite' });
  const taskSelect = h('select', { id: 'task', name: 'task' }, ...[...c.tasks].sort((a, b) => rank(a) - rank(b)).map((t) => h('option', { value: t.task }, `${t.task}${t.change === 'fixed' || t.change === 'broken' ? ` (${t.change})` : ''}`)));
  const runSelect = h('select', { id: 'run', name: 'run' }, h('option', { value: c.candidate.id }, `candidate ${c.candidate.id}`), h('option', { value: c.baseline.id }, `baseline ${c.baseline.id}`));
  const button = h('button', { type: 'button', id: 'show-trajectory' }, 'Show trajectory');
  // Not a <form>: a sandboxed view may lack allow-forms, where submitting is blocked.
  const control = h('div', { class: 'control', role: 'group', 'aria-label': 'Show a task’s trajectory' }, h('label', { for: 'task' }, 'Task '), taskSelect, h('label', { for: 'run' }, ' in '), runSelect, ' ', button);
  let asked = 0;
  const show = () => {
    const ask = ++asked;
    const args = { run: runSelect.value, task: taskSelect.value };
    button.disabled = true;
    panel.replaceChildren(h('p', { class: 'muted' }, `Asking for the trajectory of ${args.task} in ${args.run}…`));
    app.callServerTool({ name: 'get_trajectory', arguments: args }).then(
      (answer) => {
        if (ask !== asked) return;
        const t = answer.structuredContent as Trajectory | undefined;
        panel.replaceChildren(answer.isError || !t ? h('p', { class: 'error', role: 'alert' }, textOf(answer) || 'get_trajectory failed') : trajectoryPanel(t));
      },
      (error: unknown) => {
        if (ask === asked) panel.replaceChildren(h('p', { class: 'error', role: 'alert' }, `get_trajectory failed: ${error instanceof Error ? error.message : String(error)}`));
      },
    ).finally(() => (button.disabled = false));
  };
  button.addEventListener('click', show);
  const select = (task: string) => {
    taskSelect.value = task;
    show();
  };
  main.append(
    h('h1', {}, `${c.benchmark}: ${c.baseline.model} → ${c.candidate.model}`),
    h(
      'p',
      { class: 'totals' },
      h('span', { class: c.scoreDelta >= 0 ? 'good' : 'bad', id: 'score-delta' }, `score ${signed(c.scoreDelta)}`),
      ` (${c.baseline.score.toFixed(2)} → ${c.candidate.score.toFixed(2)}), passed ${c.baseline.passed} → ${c.candidate.passed} of ${c.candidate.total}`,
    ),
    h('p', { class: 'flips' }, h('span', { class: 'good', id: 'fixed-count' }, `${c.fixed.length} fixed`), ' · ', h('span', { class: 'bad', id: 'broken-count' }, `${c.broken.length} broken`), ` · ${c.tasks.length} tasks`),
    chart(c.tasks, select),
    control,
    panel,
  );
}

startView('compare-runs', render);
