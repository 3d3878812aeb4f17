/**
 * The tokenizer: OpenAI's `o200k_base` encoding through `js-tiktoken` (pure
 * JavaScript, no native addon, no download at run time — the ranks ship in
 * the npm package). Claude's own tokenizer is not published; `o200k_base` is
 * the current public encoding of the large models and a fair yardstick for
 * comparing toolsets. Building the encoder takes seconds on a small machine,
 * so it is built once per process, on the first count (not at start-up), and
 * the host counts once per blueprint.
 */
import { Tiktoken } from 'js-tiktoken/lite';
import o200kBase from 'js-tiktoken/ranks/o200k_base';
import type { TokenCounter } from '@reactor/host';

/** The name `/toolsets` and the page show for this tokenizer. */
export const TOKENIZER_NAME = 'o200k_base (js-tiktoken)';

let encoder: Tiktoken | undefined;

/** A token counter using `o200k_base`; pass it as `tokenCounter` to `createMcpApp`. */
export function createTokenCounter(): TokenCounter {
  return {
    name: TOKENIZER_NAME,
    count: (text) => (encoder ??= new Tiktoken(o200kBase)).encode(text).length,
  };
}
