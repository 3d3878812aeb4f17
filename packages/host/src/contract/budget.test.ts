import { Tiktoken } from 'js-tiktoken/lite';
import o200kBase from 'js-tiktoken/ranks/o200k_base';
import { describe, expect, it } from 'vitest';
import { answerBudget, capItems, DEFAULT_ANSWER_TOKENS, fitAnswer, jsonText, largestFitting } from './budget.js';
import { capAnswer, STRING_FLOOR } from './capAnswer.js';
import { answerTokenCounter, ESTIMATING_COUNTER, O200K_NAME, type TokenCounter } from './tokens.js';
import { truncateMiddle } from './answers.js';

const encoder = new Tiktoken(o200kBase);
const o200k = (text: string) => encoder.encode(text).length;

/** A counter that counts its calls and the characters it tokenized. */
function countingCounter(): TokenCounter & { calls: number; chars: number } {
  const counter = { name: 'o200k (counted)', calls: 0, chars: 0, count: (text: string) => { counter.calls++; counter.chars += text.length; return o200k(text); } };
  return counter;
}

const words = (n: number) => Array.from({ length: n }, (_, i) => ['alpha', 'station', 'anomaly', 'decade', 'ocean'][i % 5]).join(' ');
const digits = (n: number) => Array.from({ length: n }, (_, i) => String((i * 7919) % 100003)).join(',');

describe('answerTokenCounter', () => {
  it('counts with o200k_base through js-tiktoken, resolved from the caller', () => {
    const counter = answerTokenCounter(import.meta.url);
    expect(counter.count('Hello, world!')).toBe(o200k('Hello, world!'));
    expect(counter.name).toBe(O200K_NAME);
  });

  it('falls back to the host\'s copy, then to an over-estimate, when the caller has none', () => {
    expect(answerTokenCounter('file:///nowhere/module.js').name).toBe(O200K_NAME); // the host's dev copy
    expect(ESTIMATING_COUNTER.count('abcdef')).toBe(2);
    expect(ESTIMATING_COUNTER.count(words(2000))).toBeGreaterThan(o200k(words(2000)));
  });
});

describe('counting in pieces', () => {
  it('is exact on prose, and fast and at most a token a piece over on a run without white space', () => {
    const counter = answerTokenCounter(import.meta.url);
    const text = words(20_000);
    expect(counter.count(text)).toBe(o200k(text));
    const json = JSON.stringify(Array.from({ length: 2000 }, (_, i) => ({ path: `data/station-${i}.csv`, size: i })));
    expect(counter.count(json)).toBeGreaterThanOrEqual(o200k(json));
    expect(counter.count(json)).toBeLessThanOrEqual(o200k(json) * 1.02);
    // 20,000 characters of punctuation: one BPE word, quadratic as a whole (minutes); in pieces of 64, at most one token a piece over.
    const run = '"\\'.repeat(10_000);
    const exact64 = o200k(run.slice(0, 64));
    expect(counter.count(run)).toBeGreaterThanOrEqual(exact64 * (run.length / 64) - 1);
    expect(counter.count(run)).toBeLessThanOrEqual((exact64 + 1) * (run.length / 64));
  });
});

describe('an answer budget', () => {
  it('does not tokenize an answer whose UTF-8 bytes fit the budget', () => {
    const counter = countingCounter();
    const budget = answerBudget({ maxTokens: 1000, counter });
    expect(budget.fits({ text: 'x'.repeat(900) })).toBe(true);
    expect(budget.fitsText('é'.repeat(400))).toBe(true);
    expect(counter.calls).toBe(0);
    expect(budget.fitsText(words(1200))).toBe(false);
    expect(counter.calls).toBe(1);
  });

  it('also holds a deprecated cap in characters', () => {
    const budget = answerBudget({ maxTokens: 1000, maxChars: 100, counter: countingCounter() });
    expect(budget.fitsText('x'.repeat(101))).toBe(false);
  });
});

describe('capItems', () => {
  const items = Array.from({ length: 3000 }, (_, i) => ({ path: `data/station-${i}/monthly-anomalies.csv`, size: i }));
  const page = (kept: readonly unknown[]) => ({ entries: [...kept], truncated: kept.length < items.length });

  it('keeps whole leading items up to the budget, counted with the real tokenizer, filling most of it', () => {
    const counter = countingCounter();
    const { result, omitted } = capItems(items, answerBudget({ maxTokens: 2000, counter }), page);
    const tokens = o200k(jsonText(result));
    expect(tokens).toBeLessThanOrEqual(2000);
    expect(tokens).toBeGreaterThan(1800);
    expect(omitted).toBe(items.length - result.entries.length);
    // Tokenized a few budget-sized texts, never the whole listing again and again.
    expect(counter.calls).toBeLessThanOrEqual(5);
    expect(counter.chars).toBeLessThan(jsonText(page(items)).length);
  });

  it('answers everything untouched when it fits, and keeps `min` items even when they do not', () => {
    expect(capItems(items.slice(0, 3), answerBudget({ maxTokens: 2000, counter: countingCounter() }), page).omitted).toBe(0);
    expect(capItems([{ path: words(3000) }], answerBudget({ maxTokens: 100, counter: countingCounter() }), page, 1).result.entries).toHaveLength(1);
  });
});

describe('fitAnswer', () => {
  it('cuts dense text (more tokens a character than prose) to the token budget', () => {
    const text = digits(100_000);
    const cut = fitAnswer(answerBudget({ maxTokens: 3000, counter: countingCounter() }), (n) => truncateMiddle(text, n), (t) => t);
    expect(o200k(cut)).toBeLessThanOrEqual(3000);
    expect(o200k(cut)).toBeGreaterThan(2500);
    expect(cut).toContain('characters omitted]');
  });
});

describe('capAnswer', () => {
  it('cuts long strings to one length, head and tail kept, within the budget, and says so', () => {
    const answer = { id: 'run-1', output: words(20_000), steps: [words(300), words(5000)] };
    const cut = capAnswer(answer, answerBudget({ maxTokens: 1500, counter: countingCounter() }));
    expect(o200k(jsonText(cut))).toBeLessThanOrEqual(1500);
    expect(cut.id).toBe('run-1');
    expect(cut.truncated).toBe(true);
    expect(cut.omitted?.[0]).toMatch(/long text field\(s\) cut to [\d,]+ characters, head and tail kept/);
    expect(cut.output.length).toBeGreaterThanOrEqual(STRING_FLOOR);
  });

  it('drops trailing array items when cutting strings is not enough', () => {
    const answer = { results: Array.from({ length: 2000 }, (_, i) => ({ task: `t/${i}`, passed: i % 2 === 0 })) };
    const cut = capAnswer(answer, answerBudget({ maxTokens: 1000, counter: countingCounter() }));
    expect(o200k(jsonText(cut))).toBeLessThanOrEqual(1000);
    expect(cut.results.length).toBeLessThan(2000);
    expect(cut.omitted?.[0]).toMatch(/^results: \d+ of 2000 item\(s\) kept$/);
  });

  it('leaves an answer that fits as it is, with truncated: false', () => {
    expect(capAnswer({ a: 1 }, answerBudget({ maxTokens: DEFAULT_ANSWER_TOKENS, counter: countingCounter() }))).toEqual({ a: 1, truncated: false });
  });
});

describe('largestFitting', () => {
  it('finds the boundary by bisection', () => {
    expect(largestFitting(0, 100, (n) => n <= 37)).toBe(37);
    expect(largestFitting(5, 100, () => false)).toBe(4);
  });
});
