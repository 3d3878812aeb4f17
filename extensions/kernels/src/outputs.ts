/**
 * A run's outputs as MCP content a model can read: text (streams, results,
 * displays — `text/markdown` or `text/plain`) with ANSI codes stripped, errors
 * as the exception and the last frames of the traceback, PNG and JPEG images
 * as image content. Bounded: the text keeps its head and tail around the
 * host's "N characters omitted" marker (`truncateMiddle`), within
 * `maxTextBytes` and the answer's token budget; a few images of bounded size
 * are shown and the rest summarised. One plot is 70–100k characters of
 * base64: never dumped as text.
 */
import { stripVTControlCharacters } from 'node:util';
import { fitAnswer, omittedMarker, truncateMiddle, type AnswerBudget } from '@reactor/host';

/** An nbformat 4 output, as collected from the kernel and saved into a notebook. */
export type NbOutput =
  | { output_type: 'stream'; name: 'stdout' | 'stderr'; text: string }
  | { output_type: 'display_data'; data: Record<string, unknown>; metadata: Record<string, unknown> }
  | { output_type: 'execute_result'; data: Record<string, unknown>; metadata: Record<string, unknown>; execution_count: number | null }
  | { output_type: 'error'; ename: string; evalue: string; traceback: string[] };

/** MCP content items this module makes. */
export type OutputContent = { type: 'text'; text: string } | { type: 'image'; data: string; mimeType: string };

/** The caps. */
export interface RenderLimits {
  readonly maxTextBytes: number;
  readonly maxImages: number;
  readonly maxImageBytes: number;
  readonly tracebackFrames: number;
}

/** What rendering made, and what it left out. */
export interface RenderedOutputs {
  /** The text of every output (possibly truncated), then the images shown. Empty when there was no output. */
  readonly content: OutputContent[];
  /** UTF-8 bytes of text left out (0 when nothing was). */
  readonly truncatedBytes: number;
  readonly imagesShown: number;
  readonly imagesOmitted: number;
}

const IMAGE_TYPES = ['image/png', 'image/jpeg'];
const TEXT_TYPES = ['text/markdown', 'text/plain', 'text/latex', 'application/json'];

/** Removes terminal control sequences (colours, cursor moves, hyperlinks) from text: Node's `util.stripVTControlCharacters`. */
export function stripAnsi(text: string): string {
  return stripVTControlCharacters(text);
}

/** The text of a mime value (nbformat keeps multi-line text as a string or an array of lines). */
export function mimeText(value: unknown): string {
  if (typeof value === 'string') return value;
  if (Array.isArray(value)) return value.filter((v): v is string => typeof v === 'string').join('');
  return JSON.stringify(value) ?? '';
}

/** Decoded size of base64 text. */
export function base64Bytes(text: string): number {
  const compact = text.replace(/\s/g, '');
  const padding = compact.endsWith('==') ? 2 : compact.endsWith('=') ? 1 : 0;
  return Math.max(0, Math.floor((compact.length * 3) / 4) - padding);
}

/** A size for people: `12 KB`. */
export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${Math.round(bytes / 1024)} KB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}

/**
 * Keeps the head and the tail of text longer than `maxBytes` (UTF-8, marker
 * included) — and, given a `budget`, longer than its tokens — with the host's
 * marker saying how many characters were left out (`truncateMiddle`). The
 * tail matters: the last lines of a log or a traceback are often the answer.
 * `truncatedBytes` counts the UTF-8 bytes left out.
 */
export function truncateText(text: string, maxBytes: number, budget?: AnswerBudget): { text: string; truncatedBytes: number } {
  const total = Buffer.byteLength(text, 'utf8');
  const withinBytes = (maxChars: number): string => {
    let chars = Math.min(maxChars, maxBytes);
    let cut = truncateMiddle(text, chars);
    // Characters are not bytes: shorten until the bytes fit too (a few rounds for non-ASCII text).
    for (let round = 0; round < 8 && Buffer.byteLength(cut, 'utf8') > maxBytes && chars > 0; round++) {
      chars = Math.max(0, Math.floor((chars * maxBytes) / Buffer.byteLength(cut, 'utf8')) - 1);
      cut = truncateMiddle(text, chars);
    }
    return cut;
  };
  const cut = budget === undefined ? withinBytes(Number.MAX_SAFE_INTEGER) : fitAnswer(budget, withinBytes, (t) => t);
  if (cut === text) return { text, truncatedBytes: 0 };
  // The marker says how many characters it replaced; the bytes left out are the rest.
  let omitted = text.length - cut.length;
  for (let round = 0; round < 3; round++) omitted = text.length - (cut.length - omittedMarker(omitted).length);
  return { text: cut, truncatedBytes: total - (Buffer.byteLength(cut, 'utf8') - Buffer.byteLength(omittedMarker(omitted), 'utf8')) };
}

/** An error output as text: the exception, then the last frames of its traceback. */
export function errorText(output: { ename: string; evalue: string; traceback: readonly string[] }, frames: number): string {
  const trace = output.traceback.map(stripAnsi);
  // ipykernel's last traceback entry repeats "Name: value"; the frames come before it.
  const body = trace.length > 0 && trace[trace.length - 1]?.trim().startsWith(`${output.ename}`) ? trace.slice(0, -1) : trace;
  const kept = body.slice(-frames);
  const skipped = body.length - kept.length;
  const header = `${output.ename}: ${stripAnsi(output.evalue)}`;
  if (kept.length === 0) return header;
  return `${header}\nTraceback (${skipped > 0 ? `last ${kept.length} of ${body.length} frames` : `${kept.length} frame${kept.length === 1 ? '' : 's'}`}):\n${kept.join('\n')}`;
}

/** Renders outputs as bounded MCP content: text within `limits.maxTextBytes` and, given one, within `budget`'s tokens. */
export function renderOutputs(outputs: readonly NbOutput[], limits: RenderLimits, budget?: AnswerBudget): RenderedOutputs {
  const texts: string[] = [];
  const images: Array<{ data: string; mimeType: string }> = [];
  let omitted = 0;
  for (const output of outputs) {
    switch (output.output_type) {
      case 'stream':
        texts.push(output.name === 'stderr' ? `[stderr]\n${stripAnsi(output.text)}` : stripAnsi(output.text));
        break;
      case 'error':
        texts.push(errorText(output, limits.tracebackFrames));
        break;
      default: {
        const parts: string[] = [];
        for (const mime of IMAGE_TYPES) {
          const value = output.data[mime];
          if (value === undefined) continue;
          const data = mimeText(value).replace(/\s/g, '');
          const size = base64Bytes(data);
          if (images.length < limits.maxImages && size <= limits.maxImageBytes) images.push({ data, mimeType: mime });
          else {
            omitted++;
            parts.push(`[${mime} ${formatBytes(size)} not shown: ${size > limits.maxImageBytes ? `larger than ${formatBytes(limits.maxImageBytes)}` : `more than ${limits.maxImages} images`}]`);
          }
          break; // one image per output: a PNG and its JPEG twin are the same picture
        }
        const textType = TEXT_TYPES.find((mime) => output.data[mime] !== undefined);
        const hasImage = IMAGE_TYPES.some((mime) => output.data[mime] !== undefined);
        if (textType !== undefined) {
          const text = stripAnsi(mimeText(output.data[textType]));
          // A figure's text/plain is "<Figure size 640x480 with 1 Axes>": noise next to the image itself.
          if (!(hasImage && textType === 'text/plain' && /^<.*>$/.test(text.trim()))) parts.push(text);
        } else if (!hasImage) {
          for (const [mime, value] of Object.entries(output.data)) parts.push(`[${mime} ${formatBytes(Buffer.byteLength(mimeText(value), 'utf8'))}]`);
        }
        if (parts.length > 0) texts.push(parts.join('\n'));
      }
    }
  }
  const joined = texts.map((t) => (t.endsWith('\n') ? t.slice(0, -1) : t)).join('\n');
  const { text, truncatedBytes } = truncateText(joined, limits.maxTextBytes, budget);
  const content: OutputContent[] = [];
  if (text !== '') content.push({ type: 'text', text });
  for (const image of images) content.push({ type: 'image', data: image.data, mimeType: image.mimeType });
  return { content, truncatedBytes, imagesShown: images.length, imagesOmitted: omitted };
}
