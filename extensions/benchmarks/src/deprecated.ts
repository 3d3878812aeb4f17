/**
 * Names this package exported before answers were sized in tokens by the
 * host's helpers. Kept until the next major release; use `capAnswer`,
 * `answerBudget` and `truncateMiddle` from `@reactor/host` instead.
 */
import { answerBudget, capAnswer, truncateMiddle, type Truncation } from '@reactor/host';

/** @deprecated The old default character cap; answers are now within 10,000 tokens (`maxResponseTokens`). */
export const DEFAULT_MAX_RESPONSE_CHARS = 100_000;

/** @deprecated Strings `capAnswer` never cuts below. */
export const STRING_FLOOR = 200;

/** @deprecated Use `capAnswer(value, answerBudget({ maxTokens, maxChars, counter }))` from `@reactor/host`. */
export function boundAnswer<T extends object>(value: T, maxChars: number): T & Truncation {
  // No token cap: only characters count, as before (nothing is tokenized).
  return capAnswer(value, answerBudget({ maxTokens: Number.MAX_SAFE_INTEGER, maxChars, counter: { name: 'none (characters only)', count: () => 0 } }));
}

/** @deprecated Use `truncateMiddle` from `@reactor/host` (one marker format for every tool). */
export const cutMiddle: (text: string, length: number) => string = truncateMiddle;
