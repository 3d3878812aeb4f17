import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { notebookTranscript, parseNotebook, summarizeOutput } from './notebook.js';

const sample = (rel: string) => readFileSync(new URL(`../sample/${rel}`, import.meta.url), 'utf8');

describe('summarizeOutput of an error', () => {
  it('strips every terminal control sequence from a traceback: colours, private modes, hyperlinks (util.stripVTControlCharacters)', () => {
    const traceback = ['\u001b[0;31mValueError\u001b[0m', '\u001b[?25lCell \u001b]8;;file:///work/run.py\u0007run.py\u001b]8;;\u0007, line 3'];
    const error = summarizeOutput({ output_type: 'error', ename: 'ValueError', evalue: 'bad', traceback }, 1000, true);
    expect(error.text).toBe('ValueError: bad\nValueError\nCell run.py, line 3');
  });
});

describe('parseNotebook', () => {
  it('reads the sample temperature notebook: metadata, title, cells with joined sources', () => {
    const nb = parseNotebook(sample('climate-lab/temperature_trends.ipynb'));
    expect(nb.nbformat).toBe('4.5');
    expect(nb.language).toBe('python');
    expect(nb.kernel).toBe('Python 3 (ipykernel)');
    expect(nb.title).toBe('Global temperature trends');
    expect(nb.cells).toHaveLength(10);
    expect(nb.cells[0]).toMatchObject({ index: 0, type: 'markdown' });
    expect(nb.cells[2]?.source).toBe('df = pd.read_csv("data/global_temperatures.csv")\ndf.head()');
    expect(nb.cells[2]?.executionCount).toBe(2);
  });

  it('prefers text/plain over HTML in an execute_result', () => {
    const nb = parseNotebook(sample('climate-lab/temperature_trends.ipynb'));
    const head = nb.cells[2]?.outputs?.[0];
    expect(head?.outputType).toBe('execute_result');
    expect(head?.text).toMatch(/^\s+year\s+anomaly_c\s+uncertainty_c\n0\s+1880/);
    expect(head?.text).not.toContain('<table');
  });

  it('summarises an image with its type and decoded size instead of base64', () => {
    const nb = parseNotebook(sample('climate-lab/temperature_trends.ipynb'));
    const figure = nb.cells[7]?.outputs?.[0];
    expect(figure?.outputType).toBe('display_data');
    expect(figure?.text).toBe('[image/png 5.1 KB]\n<Figure size 640x320 with 1 Axes>');
  });

  it('keeps stream names and shows errors as "ename: evalue" without ANSI colours', () => {
    const nb = parseNotebook(sample('climate-lab/iris_classifier.ipynb'));
    const fit = nb.cells[4]?.outputs ?? [];
    expect(fit.map((o) => o.name)).toEqual(['stderr', 'stdout']);
    expect(fit[0]?.text).toContain('ConvergenceWarning');
    const error = nb.cells[7]?.outputs?.[0];
    expect(error).toEqual({ outputType: 'error', text: 'ValueError: X has 2 features, but LogisticRegression is expecting 4 features as input.' });
  });

  it('truncates a long stream, keeping its head and its tail', () => {
    const nb = parseNotebook(sample('climate-lab/sea_level_exploration.ipynb'), { maxOutputChars: 600 });
    const log = nb.cells[4]?.outputs?.[0]?.text ?? '';
    expect(log.startsWith('bootstrap   1/200')).toBe(true);
    expect(log).toMatch(/characters omitted/);
    expect(log.trimEnd().endsWith('mm/yr²')).toBe(true);
    expect(log).toContain('bootstrap 200/200');
    expect(log.length).toBeLessThan(700);
  });

  it('accepts sources given as one string, missing outputs and unrun cells', () => {
    const nb = parseNotebook(JSON.stringify({ nbformat: 4, nbformat_minor: 2, metadata: {}, cells: [{ cell_type: 'code', source: 'x = 1', metadata: {} }, { cell_type: 'raw', source: ['raw\n', 'text'] }] }));
    expect(nb.cells).toEqual([
      { index: 0, type: 'code', source: 'x = 1', executionCount: null, outputs: [] },
      { index: 1, type: 'raw', source: 'raw\ntext' },
    ]);
    expect(nb.title).toBeUndefined();
    expect(nb.language).toBeUndefined();
  });

  it('refuses invalid JSON, JSON that is no notebook, and nbformat 3, saying which', () => {
    expect(() => parseNotebook('{ nope', { name: 'a/b.ipynb' })).toThrow(/notebook "a\/b.ipynb": is not valid JSON/);
    expect(() => parseNotebook('{"hello": 1}')).toThrow(/is not a Jupyter notebook/);
    expect(() => parseNotebook('{"nbformat": 3, "worksheets": []}')).toThrow(/nbformat 3, which is not supported.*nbconvert/);
  });
});

describe('summarizeOutput', () => {
  it('falls back to markdown or JSON when there is no text/plain', () => {
    expect(summarizeOutput({ output_type: 'display_data', data: { 'text/markdown': ['**bold**'] } }).text).toBe('**bold**');
    expect(summarizeOutput({ output_type: 'execute_result', data: { 'application/json': { a: 1 } } }).text).toBe('{"a":1}');
  });

  it('names each type with its size when no text form exists', () => {
    const text = summarizeOutput({ output_type: 'display_data', data: { 'text/html': '<b>hi</b>', 'application/vnd.jupyter.widget-view+json': { model_id: 'x' } } }).text;
    expect(text).toBe('[text/html 9 B]\n[application/vnd.jupyter.widget-view+json 16 B]');
  });

  it('sizes a base64 image by its decoded bytes', () => {
    const png = Buffer.alloc(3000, 7).toString('base64');
    expect(summarizeOutput({ output_type: 'display_data', data: { 'image/png': png } }).text).toBe('[image/png 2.9 KB]');
  });

  it('describes an unknown output type rather than failing', () => {
    expect(summarizeOutput({ output_type: 'pyout' }).text).toBe('[unknown output type "pyout"]');
  });
});

describe('notebookTranscript', () => {
  it('renders cells under headings with fenced code and outputs', () => {
    const nb = parseNotebook(sample('climate-lab/iris_classifier.ipynb'));
    const text = notebookTranscript(nb);
    expect(text).toContain('### Cell 0 (markdown)\n\n# Iris species classifier');
    expect(text).toContain('### Cell 2 (code, In [2])\n\n```python\niris = pd.read_csv("data/iris.csv")\niris.shape\n```\n\nOutput (result):\n```\n(30, 5)\n```');
    expect(text).toContain('Output (error):\n```\nValueError: X has 2 features');
  });

  it('stops at the character budget and says how many cells it left out', () => {
    const nb = parseNotebook(sample('climate-lab/iris_classifier.ipynb'));
    const text = notebookTranscript(nb, 400);
    expect(text).toMatch(/\[\d+ more cells not shown\]$/);
    expect(text).toContain('### Cell 0');
  });
});
