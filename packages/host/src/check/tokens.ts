/**
 * Token counts: what a toolset costs a model's context on every `tools/list`.
 * Counted with the `o200k_base` encoding (GPT-4o and later) of `js-tiktoken`,
 * an optional peer dependency imported only when a check runs, so the host's
 * serving path never loads its 2 MB of ranks. Without it, counts are an
 * estimate (characters / 4) and say so.
 */

/** Counts the tokens of a text. */
export interface TokenCounter {
  /** `o200k_base` when exact, `estimate` otherwise. */
  readonly encoding: 'o200k_base' | 'estimate';
  count(text: string): number;
}

let loading: Promise<TokenCounter> | undefined;

/** The `o200k_base` counter when `js-tiktoken` is installed, else a chars/4 estimate. Loaded once. */
export function tokenCounter(): Promise<TokenCounter> {
  return (loading ??= load());
}

async function load(): Promise<TokenCounter> {
  try {
    const [{ Tiktoken }, ranks] = await Promise.all([import('js-tiktoken/lite'), import('js-tiktoken/ranks/o200k_base')]);
    const encoder = new Tiktoken(ranks.default);
    return { encoding: 'o200k_base', count: (text) => encoder.encode(text).length };
  } catch {
    return estimatingCounter;
  }
}

/** A rough count for when no tokenizer is installed: JSON averages about four characters a token. */
export const estimatingCounter: TokenCounter = { encoding: 'estimate', count: (text) => Math.ceil(text.length / 4) };
