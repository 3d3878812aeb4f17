/**
 * What the README says about the sample data is what the fixtures hold, and
 * its ts examples run against the package's sources.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { describeMarkdownExamples } from '../../../docExamples.js';

const read = (path: string) => readFileSync(new URL(`../${path}`, import.meta.url), 'utf8');
const WORDS = ['zero', 'one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine', 'ten', 'eleven', 'twelve'];

describe('the README', () => {
  it('counts the sample benchmarks and runs as fixtures/sample.jsonl holds them', () => {
    const records = read('fixtures/sample.jsonl').split('\n').filter((l) => l.trim() !== '').map((l) => JSON.parse(l) as { type?: string });
    const count = (type: string) => records.filter((r) => r.type === type).length;
    const claim = /from `fixtures\/sample\.jsonl` \((\w+) benchmarks, (\w+) runs\)/.exec(read('README.md'));
    expect(claim, 'the README names the sample counts').not.toBeNull();
    expect([WORDS.indexOf(claim![1]!), WORDS.indexOf(claim![2]!)]).toEqual([count('benchmark'), count('run')]);
  });
});

describeMarkdownExamples(fileURLToPath(new URL('../README.md', import.meta.url)), { outDir: fileURLToPath(new URL('./.readme-examples/', import.meta.url)) });
