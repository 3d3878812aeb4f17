import { describe, expect, it } from 'vitest';
import { errorText, renderOutputs, stripAnsi, truncateText, type NbOutput } from './outputs.js';

const LIMITS = { maxTextBytes: 200, maxImages: 1, maxImageBytes: 100, tracebackFrames: 2 };
const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';

describe('truncateText', () => {
  it('keeps short text whole', () => {
    expect(truncateText('hello', 10)).toEqual({ text: 'hello', truncatedBytes: 0 });
  });

  it('keeps the head and the tail of long text within the bytes, with the host\'s one marker, and says how many bytes were left out', () => {
    const { text, truncatedBytes } = truncateText(`${'a'.repeat(500)}${'z'.repeat(500)}`, 100);
    expect(Buffer.byteLength(text)).toBeLessThanOrEqual(100);
    const [, head, omitted, tail] = /^(a+)\n… \[([\d,]+) characters omitted\] …\n(z+)$/.exec(text)!;
    expect(head!.length + Number(omitted) + tail!.length).toBe(1000);
    expect(truncatedBytes).toBe(Number(omitted));
    const wide = truncateText('é'.repeat(1000), 100);
    expect(Buffer.byteLength(wide.text)).toBeLessThanOrEqual(100);
    expect(wide.truncatedBytes).toBe(2000 - (Buffer.byteLength(wide.text) - Buffer.byteLength(/\n… \[[\d,]+ characters omitted\] …\n/.exec(wide.text)![0])));
  });
});

describe('errorText', () => {
  it('gives the exception and only the last frames, without ANSI codes', () => {
    const text = errorText({ ename: 'ValueError', evalue: 'bad', traceback: ['\u001b[31mframe 1\u001b[0m', 'frame 2', 'frame 3', 'ValueError: bad'] }, 2);
    expect(text).toBe('ValueError: bad\nTraceback (last 2 of 3 frames):\nframe 2\nframe 3');
  });
});

describe('renderOutputs', () => {
  it('joins streams and results as one text, stderr labelled, ANSI stripped', () => {
    const outputs: NbOutput[] = [
      { output_type: 'stream', name: 'stdout', text: '\u001b[1mbold\u001b[0m\n' },
      { output_type: 'stream', name: 'stderr', text: 'careful\n' },
      { output_type: 'execute_result', data: { 'text/plain': '2', 'text/html': '<b>2</b>' }, metadata: {}, execution_count: 1 },
    ];
    expect(renderOutputs(outputs, LIMITS)).toEqual({ content: [{ type: 'text', text: 'bold\n[stderr]\ncareful\n2' }], truncatedBytes: 0, imagesShown: 0, imagesOmitted: 0 });
  });

  it('prefers Markdown over the plain-text repr of a display', () => {
    const rendered = renderOutputs([{ output_type: 'display_data', data: { 'text/markdown': '# Title', 'text/plain': '<IPython.core.display.Markdown object>' }, metadata: {} }], LIMITS);
    expect(rendered.content).toEqual([{ type: 'text', text: '# Title' }]);
  });

  it('returns PNGs as image content up to the caps and summarises the rest', () => {
    const image = (): NbOutput => ({ output_type: 'display_data', data: { 'image/png': PNG, 'text/plain': '<IPython.core.display.Image object>' }, metadata: {} });
    const big: NbOutput = { output_type: 'display_data', data: { 'image/png': 'A'.repeat(400) }, metadata: {} };
    const rendered = renderOutputs([image(), image(), big], LIMITS);
    expect(rendered.content).toEqual([
      { type: 'text', text: '[image/png 70 B not shown: more than 1 images]\n[image/png 300 B not shown: larger than 100 B]' },
      { type: 'image', data: PNG, mimeType: 'image/png' },
    ]);
    expect(rendered).toMatchObject({ imagesShown: 1, imagesOmitted: 2 });
  });

  it('names what it cannot show as text', () => {
    const rendered = renderOutputs([{ output_type: 'display_data', data: { 'text/html': '<table></table>' }, metadata: {} }], LIMITS);
    expect(rendered.content).toEqual([{ type: 'text', text: '[text/html 15 B]' }]);
  });

  it('bounds the text of all outputs together', () => {
    const rendered = renderOutputs([{ output_type: 'stream', name: 'stdout', text: 'x'.repeat(10_000) }], LIMITS);
    const text = (rendered.content[0] as { text: string }).text;
    expect(Buffer.byteLength(text)).toBeLessThanOrEqual(200);
    expect(rendered.truncatedBytes).toBe(10_000 - (text.length - /\n… \[[\d,]+ characters omitted\] …\n/.exec(text)![0].length));
  });

  it('gives no content for no output', () => {
    expect(renderOutputs([], LIMITS).content).toEqual([]);
    expect(stripAnsi('\u001b[0;31mred\u001b[0m')).toBe('red');
    // Every terminal control sequence, as util.stripVTControlCharacters knows them: C1 CSI too.
    expect(stripAnsi('\u009b31mred\u009b0m \u001b]8;;file:///x.py\u0007x.py\u001b]8;;\u0007')).toBe('red x.py');
  });
});
