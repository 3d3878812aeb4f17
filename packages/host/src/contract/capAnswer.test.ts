import { describe, expect, it } from 'vitest';
import { truncateMiddle } from './answers.js';
import { answerBudget } from './budget.js';
import { capAnswer, STRING_FLOOR } from './capAnswer.js';

// A cap in characters only (the deprecated maxResponseChars): nothing is tokenized.
const chars = (maxChars: number) => answerBudget({ maxTokens: Number.MAX_SAFE_INTEGER, maxChars, counter: { name: 'none', count: () => 0 } });
const boundAnswer = <T extends object>(value: T, maxChars: number) => capAnswer(value, chars(maxChars));
const jsonChars = (value: unknown) => JSON.stringify(value).length;

const run = (i: number, output: string) => ({ task: `task-${i}`, status: 'passed', score: 1, output });

describe('capAnswer, with a cap in characters', () => {
  it('leaves an answer that fits whole, saying truncated: false', () => {
    expect(boundAnswer({ runs: [1, 2, 3] }, 2000)).toEqual({ runs: [1, 2, 3], truncated: false });
  });

  it('cuts long texts first, to one length, keeping every item, their ids and enum values', () => {
    const answer = { id: 'run-1', results: Array.from({ length: 10 }, (_, i) => run(i, `${i}:`.padEnd(2000, 'x'))) };
    const bounded = boundAnswer(answer, 6000);
    expect(jsonChars(bounded)).toBeLessThanOrEqual(6000);
    expect(bounded.results.map((r) => [r.task, r.status])).toEqual(answer.results.map((r) => [r.task, r.status]));
    expect(bounded.results[3]?.output).toMatch(/^3:x+\n… \[[\d,]+ characters omitted\] …\nx+$/);
    expect(bounded.truncated).toBe(true);
    expect(bounded.omitted).toEqual([expect.stringMatching(/^10 long text field\(s\) cut to \d+ characters, head and tail kept$/)]);
  });

  it('then drops trailing items of the largest array, naming it', () => {
    const answer = { benchmark: 'b', runs: Array.from({ length: 500 }, (_, i) => ({ id: `run-${i}`, model: 'model-with-a-long-name', score: i / 500 })) };
    const bounded = boundAnswer(answer, 3000);
    expect(jsonChars(bounded)).toBeLessThanOrEqual(3000);
    expect(bounded.runs.length).toBeGreaterThan(0);
    expect(bounded.runs).toEqual(answer.runs.slice(0, bounded.runs.length));
    expect(bounded.omitted).toEqual([`runs: ${bounded.runs.length} of 500 item(s) kept`]);
  });

  it('never cuts a text below the floor', () => {
    expect(truncateMiddle('a'.repeat(1000), STRING_FLOOR).length).toBeLessThanOrEqual(STRING_FLOOR);
    expect(truncateMiddle('short', STRING_FLOOR)).toBe('short');
    const bounded = boundAnswer({ notes: Array.from({ length: 50 }, () => 'n'.repeat(1000)) }, 2000);
    expect(jsonChars(bounded)).toBeLessThanOrEqual(2000);
    for (const note of bounded.notes) expect(note.length).toBeGreaterThan(STRING_FLOOR - 10);
  });
});
