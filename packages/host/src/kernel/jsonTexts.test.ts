import { describe, expect, it } from 'vitest';
import { JsonTexts } from './jsonTexts.js';

describe('JsonTexts', () => {
  it('gives JSON.stringify’s text of each string, kept or not', () => {
    const texts = new JsonTexts(2);
    const values = ['plain', 'say "hi"', 'back\\slash\n', '\ud800 alone', 'naïve 名前'];
    for (const round of [0, 1]) for (const value of values) expect(texts.of(value), `round ${round}`).toBe(JSON.stringify(value));
  });
});
