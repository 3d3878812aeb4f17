/** The report's arithmetic: medians of per-round ratios, rotation, formatting. */
import { describe, expect, it } from 'vitest';
import { formatBytes, formatRate, formatRatio, markdownTable, median, ratioSummary, rotation, roundRatios } from '../src/driver/stats.js';

describe('median', () => {
  it('is the middle value of an odd count and the mean of the middle two of an even count', () => {
    expect(median([5, 1, 3])).toBe(3);
    expect(median([4, 1, 3, 2])).toBe(2.5);
  });
  it('refuses an empty list', () => {
    expect(() => median([])).toThrow(/no values/);
  });
});

describe('per-round ratios', () => {
  it('pairs the rounds of two series, so one round of drift cannot skew the median', () => {
    // Round 2 ran on a slow machine for both: its ratio is still 2.
    expect(roundRatios([200, 100, 220], [100, 50, 110])).toEqual([2, 2, 2]);
    expect(ratioSummary([300, 100, 200], [100, 100, 100])).toEqual({ median: 2, min: 1, max: 3 });
  });
  it('refuses series of different lengths', () => {
    expect(() => roundRatios([1, 2], [1])).toThrow(/cannot be paired/);
  });
});

describe('rotation', () => {
  it('starts every two rounds one item later (the second of them backwards), so no scenario always runs first', () => {
    expect(rotation(['a', 'b', 'c'], 0)).toEqual(['a', 'b', 'c']);
    expect(rotation(['a', 'b', 'c'], 1)).toEqual(['c', 'b', 'a']);
    expect(rotation(['a', 'b', 'c'], 2)).toEqual(['b', 'c', 'a']);
    expect(rotation(['a', 'b', 'c'], 3)).toEqual(['a', 'c', 'b']);
    expect(rotation(['a', 'b', 'c'], 10)).toEqual(['c', 'a', 'b']);
    expect(rotation([], 3)).toEqual([]);
  });

  it('runs backwards every other round, so of two neighbours each meets the server first half the time', () => {
    const firstOfPair = (round: number) => rotation(['x', 'on', 'off', 'y'], round).find((k) => k === 'on' || k === 'off');
    const firsts = Array.from({ length: 12 }, (_, round) => firstOfPair(round));
    expect(firsts.filter((k) => k === 'on')).toHaveLength(6);
    expect(firsts.filter((k) => k === 'off')).toHaveLength(6);
  });
});

describe('formatting', () => {
  it('writes rates, ratios and sizes the way the table shows them', () => {
    expect(formatRate(1234.5)).toBe('1,235');
    expect(formatRate(19.46)).toBe('19.5');
    expect(formatRatio(3.14159)).toBe('3.14×');
    expect(formatRatio(16.52)).toBe('16.5×');
    expect(formatBytes(1536)).toBe('1.5 KiB');
    expect(formatBytes(3 * 1024 * 1024)).toBe('3.0 MiB');
    expect(formatBytes(12)).toBe('12 B');
  });
  it('renders an aligned Markdown table', () => {
    expect(markdownTable(['a', 'bb'], [['1', '2'], ['333', '4']])).toBe('| a   | bb |\n| --- | -- |\n| 1   | 2  |\n| 333 | 4  |');
  });
});
