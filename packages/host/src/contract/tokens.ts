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
  const { Tiktoken } = require('js-tiktoken/lite') as typeof import('js-tiktoken/lite');
  const ranks = require('js-tiktoken/ranks/o200k_base') as { default?: unknown } & Record<string, unknown>;
  const encoder = new Tiktoken((ranks.default ?? ranks) as ConstructorParameters<typeof Tiktoken>[0]);
  const counter: TokenCounter = { name: O200K_NAME, count: (text) => (text === '' ? 0 : encoder.encode(text).length) };
  encoders.set(lite, counter);
  return counter;
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
