import { describe, expect, it } from 'vitest';
import { fitItems, jsonChars, largestFitting } from './responseCap.js';

describe('responseCap', () => {
  it('measures an answer as the compact JSON the host sends', () => {
    expect(jsonChars({ a: [1, 2], b: 'x' })).toBe('{"a":[1,2],"b":"x"}'.length);
  });

  it('finds the largest count that fits, or one below the lowest when none does', () => {
    expect(largestFitting(0, 100, (n) => n <= 37)).toBe(37);
    expect(largestFitting(0, 100, () => true)).toBe(100);
    expect(largestFitting(1, 100, () => false)).toBe(0);
  });

  it('keeps the leading items that fit and counts those left out', () => {
    const items = Array.from({ length: 100 }, (_, i) => `item-${String(i).padStart(3, '0')}`);
    const { result, omitted } = fitItems(items, 200, (kept) => ({ items: kept, truncated: kept.length < items.length }));
    expect(jsonChars(result)).toBeLessThanOrEqual(200);
    expect(result.items.length + omitted).toBe(100);
    expect(result.items).toEqual(items.slice(0, result.items.length));
    expect(result.truncated).toBe(true);
    expect(fitItems(items.slice(0, 3), 200, (kept) => ({ items: kept })).omitted).toBe(0);
  });

  it('keeps the minimum asked for even when it does not fit, so a page always advances', () => {
    const { result, omitted } = fitItems(['x'.repeat(500), 'y'], 100, (kept) => kept, 1);
    expect(result).toEqual(['x'.repeat(500)]);
    expect(omitted).toBe(1);
  });
});
