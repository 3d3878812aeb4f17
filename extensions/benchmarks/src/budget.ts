/**
 * What one benchmarks answer may take: `maxResponseTokens` (10,000 tokens by
 * default, counted with o200k_base), and the deprecated `maxResponseChars`.
 */
import { answerBudget, answerTokenCounter, DEFAULT_ANSWER_TOKENS, type AnswerBudget } from '@reactor/host';

/** The budget when none is given: 10,000 tokens, counted with o200k_base as this package resolves js-tiktoken. */
export function defaultBudget(maxTokens: number = DEFAULT_ANSWER_TOKENS, maxChars?: number): AnswerBudget {
  return answerBudget({ maxTokens, maxChars, counter: answerTokenCounter(import.meta.url) });
}
