/**
 * Answers sized for a model's context. A tool answer is read by a model, and
 * clients warn or cut past a number of *tokens* (Claude Code warns past 10,000
 * and cuts at 25,000), so an answer is bounded in tokens: an
 * {@link AnswerBudget} says how many, and the cappers here cut an answer to
 * fit while the tool says what it left out and how to go on (a cursor, a next
 * offset or cell, `truncated`).
 *
 * Cost: counting tokens is far slower than counting characters, so every
 * capper cuts by characters and counts tokens only to check and adjust: an
 * answer shorter in UTF-8 bytes than the budget fits without being counted
 * (a token is at least one byte); a longer one is counted a few times at most,
 * each time a text of about the budget's size (a ratio of characters to
 * tokens, measured on the answer itself, picks the character cut).
 */
import type { TokenCounter } from './tokens.js';

/** The default budget of one answer: where Claude Code starts warning. */
export const DEFAULT_ANSWER_TOKENS = 10_000;

/** How many tokens (and, for a deprecated character cap, characters) one answer may take. */
export interface AnswerBudget {
  /** The most tokens of the answer's text (and, separately, of its structured content). */
  readonly maxTokens: number;
  /** A cap in characters also in force (the deprecated `maxResponseChars` options); undefined when none. */
  readonly maxChars: number | undefined;
  /** The tokenizer. */
  readonly counter: TokenCounter;
  /**
   * Tokens in `text`: 0 without counting when its UTF-8 bytes already fit
   * {@link maxTokens}; exact when it may fit; when it is long, the tokens of
   * a prefix of a few times the budget scaled to the whole (enough to know it
   * does not fit, and by how much) — a megabyte is never tokenized to learn it is too big.
   */
  tokens(text: string): number;
  /** Whether `text` fits: characters (when capped) and tokens. Counts only when it must. */
  fitsText(text: string): boolean;
  /** Whether `value` as the host sends it (compact JSON) fits. */
  fits(value: unknown): boolean;
}

/** Makes an {@link AnswerBudget}. */
export function answerBudget(options: { readonly maxTokens: number; readonly maxChars?: number | undefined; readonly counter: TokenCounter }): AnswerBudget {
  const { maxTokens, counter } = options;
  const maxChars = options.maxChars;
  const sample = maxTokens * 8;
  const tokens = (text: string) => {
    if (text.length <= maxTokens / 3 || Buffer.byteLength(text, 'utf8') <= maxTokens) return 0;
    if (text.length <= sample) return counter.count(text);
    const prefix = counter.count(text.slice(0, sample));
    if (prefix <= maxTokens) return counter.count(text); // very sparse text (long runs of spaces): count it all
    return Math.ceil((prefix * text.length) / sample);
  };
  const fitsText = (text: string) => (maxChars === undefined || text.length <= maxChars) && tokens(text) <= maxTokens;
  return { maxTokens, maxChars, counter, tokens, fitsText, fits: (value) => fitsText(jsonText(value)) };
}

/** `value` as the host sends it: compact JSON (empty for `undefined`). */
export function jsonText(value: unknown): string {
  return JSON.stringify(value) ?? '';
}

/**
 * The largest `n` in `[low, high]` for which `fits(n)` holds, when `fits` is
 * true up to some point and false after it (more items, more characters);
 * `low - 1` when even `low` does not fit. Binary search: O(log n) measurements.
 */
export function largestFitting(low: number, high: number, fits: (n: number) => boolean): number {
  if (high < low || !fits(low)) return low - 1;
  let good = low;
  let bad = high + 1;
  while (bad - good > 1) {
    const middle = Math.floor((good + bad) / 2);
    if (fits(middle)) good = middle;
    else bad = middle;
  }
  return good;
}

/**
 * Fits an answer to `budget` by characters: `cut(maxChars)` makes the answer
 * cut to at most that many characters of `measure` (default: its compact
 * JSON), by whatever means the tool chooses, and the whole answer when
 * it fits that many. Called first with the budget's character cap (or no
 * cap, `Number.MAX_SAFE_INTEGER`), so an answer that fits is measured once; then with fewer characters, in proportion to how
 * far over the budget the last answer's tokens were, until it fits (a handful
 * of rounds; the last answer is returned if it never does).
 */
export function fitAnswer<R>(budget: AnswerBudget, cut: (maxChars: number) => R, measure: (answer: R) => string = jsonText): R {
  let maxChars = budget.maxChars ?? Number.MAX_SAFE_INTEGER;
  let answer = cut(maxChars);
  for (let round = 0; round < 8; round++) {
    const text = measure(answer);
    if (budget.maxChars !== undefined && text.length > budget.maxChars) return answer; // the tool's own cut could do no better
    const tokens = budget.tokens(text);
    if (tokens <= budget.maxTokens) return answer;
    const next = Math.floor(Math.min(maxChars, text.length) * (budget.maxTokens / tokens) * 0.95);
    if (next >= maxChars || next < 1) return answer;
    maxChars = next;
    answer = cut(maxChars);
  }
  return answer;
}

/**
 * Keeps as many leading items of `items` as fit `budget`: `make(kept)` builds
 * the answer around them. Returns the answer and how many items were left out
 * (0 when all fit). When not even `min` items fit, `min` are kept anyway (a
 * page must advance); the caller shortens them further.
 */
export function capItems<T, R>(items: readonly T[], budget: AnswerBudget, make: (kept: readonly T[]) => R, min = 0): { readonly result: R; readonly omitted: number } {
  // The first cut (no character cap) keeps every item: the whole answer is measured once, in the first round.
  const kept = fitAnswer(
    budget,
    (maxChars) => Math.max(min, largestFitting(0, items.length, (n) => jsonText(make(items.slice(0, n))).length <= maxChars)),
    (n) => jsonText(make(items.slice(0, n))),
  );
  return { result: make(items.slice(0, kept)), omitted: items.length - kept };
}
