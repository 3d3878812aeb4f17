/**
 * What the README says about the sample data is what the fixtures hold.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

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
