/**
 * Counting tokens: the interface every tokenizer meets, and the one the
 * first-party extensions size their answers with — OpenAI's `o200k_base`
 * through `js-tiktoken`, the catalog's tokenizer. The core ships no tokenizer:
 * `js-tiktoken` is an optional peer of the host and a dependency of each
 * extension that counts, loaded from the extension's own place (so pnpm's
 * strict layout finds it), once per copy in a process, on the first count
 * that needs it — an answer shorter in UTF-8 bytes than its budget is never
 * tokenized (a token is at least one byte).
 */
import { createRequire } from 'node:module';
import type { Tiktoken as TiktokenClass } from 'js-tiktoken/lite';

/** Counts the tokens of a text. `name` says which tokenizer (shown on the catalog page and in `/toolsets`). */
export interface TokenCounter {
  /** The tokenizer and its encoding, e.g. `"o200k_base (js-tiktoken)"`. */
  readonly name: string;
  /** Tokens in `text`. Must be deterministic. */
  count(text: string): number;
}

/** The name of the `o200k_base` counter {@link answerTokenCounter} loads. */
export const O200K_NAME = 'o200k_base (js-tiktoken)';

/**
 * The counter used when `js-tiktoken` cannot be loaded: an over-estimate
 * (UTF-8 bytes / 3; prose is about 4.5 bytes a token, JSON and code 3 to 4),
 * so a budget it keeps is kept by the real tokenizer too, give or take dense text.
 */
export const ESTIMATING_COUNTER: TokenCounter = Object.freeze({
  name: 'estimate (UTF-8 bytes / 3)',
  count: (text: string) => Math.ceil(Buffer.byteLength(text, 'utf8') / 3),
});

// One encoder per copy of js-tiktoken in the process (its ranks are megabytes), keyed by where it resolved.
const encoders = new Map<string, TokenCounter>();

function load(from: string | URL): TokenCounter | undefined {
  let require: NodeRequire;
  let lite: string;
  try {
    require = createRequire(from);
    lite = require.resolve('js-tiktoken/lite');
  } catch {
    return undefined;
  }
  const known = encoders.get(lite);
  if (known) return known;
  const { Tiktoken } = require('js-tiktoken/lite') as { Tiktoken: typeof TiktokenClass };
  const ranks = require('js-tiktoken/ranks/o200k_base') as { default?: unknown } & Record<string, unknown>;
  const encoder = new Tiktoken((ranks.default ?? ranks) as ConstructorParameters<typeof Tiktoken>[0]);
  const counter: TokenCounter = { name: O200K_NAME, count: (text) => countInPieces(text, (piece) => encoder.encode(piece).length) };
  encoders.set(lite, counter);
  return counter;
}

/** The longest piece {@link countInPieces} hands the tokenizer. */
const PIECE = 2048;
/** The longest run of one kind of character (letters, or punctuation) handed over whole. */
const RUN = 64;

/**
 * Counts `text` a piece at a time: at most {@link PIECE} characters, cut
 * before a white space where there is one, and a run of one kind of
 * character (letters, punctuation) cut every {@link RUN} characters. BPE is
 * quadratic in the length of such a run (a line of dashes, a long identifier,
 * escaped quotes): measured here, 512 letters "x" take ~150 ms whole, 64
 * ~1 ms, where prose takes ~1 µs a character. A cut can split what would
 * be one token in two, never the reverse: the count is exact for text cut at
 * white space, and at most one token a cut over otherwise — a budget it
 * keeps is kept.
 */
export function countInPieces(text: string, count: (piece: string) => number): number {
  if (text.length <= RUN) return text === '' ? 0 : count(text);
  let total = 0;
  let start = 0;
  let lastSpace = -1;
  let kind = -1;
  let run = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    const k = kindOf(code);
    if (k === SPACE) lastSpace = i;
    run = k === kind ? run + 1 : 1;
    kind = k;
    if (k !== SPACE && run > RUN && !isLowSurrogate(code)) {
      total += count(text.slice(start, i));
      start = i;
      run = 1;
      lastSpace = -1;
    } else if (i - start >= PIECE) {
      const end = lastSpace > start ? lastSpace : isLowSurrogate(code) ? i - 1 : i;
      total += count(text.slice(start, end));
      start = end;
      lastSpace = -1;
    }
  }
  return total + (start < text.length ? count(text.slice(start)) : 0);
}

const SPACE = 0;
const LETTER = 1;
const DIGIT = 2;
const OTHER = 3;

function kindOf(code: number): number {
  if (code === 0x20 || code === 0x0a || code === 0x09 || code === 0x0d) return SPACE;
  if (code >= 0x30 && code <= 0x39) return DIGIT;
  if ((code >= 0x41 && code <= 0x5a) || (code >= 0x61 && code <= 0x7a) || code >= 0x80) return LETTER;
  return OTHER;
}

function isLowSurrogate(code: number): boolean {
  return code >= 0xdc00 && code <= 0xdfff;
}

/**
 * The `o200k_base` counter, loading `js-tiktoken` as the module at `from`
 * (pass your `import.meta.url`) would, else as the host would, else
 * {@link ESTIMATING_COUNTER}. Lazy: nothing is loaded until the first count,
 * and the encoder is built once per copy of `js-tiktoken` in the process.
 */
export function answerTokenCounter(from?: string | URL): TokenCounter {
  let resolved: TokenCounter | undefined;
  const get = () => (resolved ??= (from === undefined ? undefined : load(from)) ?? load(import.meta.url) ?? ESTIMATING_COUNTER);
  return {
    get name() {
      return get().name;
    },
    count: (text) => get().count(text),
  };
}
