/** The tokenizer counts with o200k_base: known strings give known counts. */
import { describe, expect, it } from 'vitest';
import { createTokenCounter, TOKENIZER_NAME } from './tokenizer.js';

describe('createTokenCounter', () => {
  it('counts o200k_base tokens', () => {
    const counter = createTokenCounter();
    expect(counter.name).toBe(TOKENIZER_NAME);
    expect(counter.count('')).toBe(0);
    expect(counter.count('hello world')).toBe(2);
    const entry = JSON.stringify({ name: 'list_spaces', description: 'List the spaces.', inputSchema: { type: 'object' } });
    expect(counter.count(entry)).toBeGreaterThan(10);
    expect(counter.count(entry)).toBeLessThan(entry.length);
  });
});
