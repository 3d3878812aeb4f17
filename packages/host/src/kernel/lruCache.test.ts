import { describe, expect, it } from 'vitest';
import { LruCache } from './lruCache.js';

describe('LruCache', () => {
  it('keeps at most its limit, dropping the least recently used', () => {
    const cache = new LruCache<string, number>(2);
    cache.set('a', 1).set('b', 2);
    expect(cache.get('a')).toBe(1); // a is now the most recently used
    cache.set('c', 3);
    expect(cache.size).toBe(2);
    expect(cache.get('b')).toBeUndefined();
    expect(cache.get('a')).toBe(1);
    expect(cache.get('c')).toBe(3);
  });

  it('re-setting a key refreshes it instead of growing', () => {
    const cache = new LruCache<string, number>(2);
    cache.set('a', 1).set('b', 2).set('a', 10).set('c', 3);
    expect([...cache.values()]).toEqual([10, 3]);
  });

  it('getOrCreate computes once per key while it is kept', () => {
    const cache = new LruCache<string, string>(1);
    let made = 0;
    const make = (k: string) => `${k}${++made}`;
    expect(cache.getOrCreate('x', make)).toBe('x1');
    expect(cache.getOrCreate('x', make)).toBe('x1');
    expect(cache.getOrCreate('y', make)).toBe('y2');
    expect(cache.getOrCreate('x', make)).toBe('x3'); // evicted by y, so made again
  });

  it('says whether a key still holds a value and is the newest, without reordering', () => {
    const cache = new LruCache<string, { n: number }>(3);
    const a = { n: 1 };
    cache.set('a', a);
    expect(cache.holdsNewest('a', a)).toBe(true);
    expect(cache.holdsNewest('a', { n: 1 })).toBe(false); // another value under the same key
    cache.set('b', { n: 2 });
    expect(cache.holdsNewest('a', a)).toBe(false); // no longer the newest
    expect(cache.get('a')).toBe(a);
    expect(cache.holdsNewest('a', a)).toBe(true);
    cache.delete('a');
    expect(cache.holdsNewest('a', a)).toBe(false); // gone
    cache.clear();
    const again = { n: 1 };
    cache.set('a', again);
    expect(cache.holdsNewest('a', a)).toBe(false); // cleared and made again: not what was remembered
    expect(cache.holdsNewest('a', again)).toBe(true);
  });

  it('keeps an undefined value as a hit', () => {
    const cache = new LruCache<string, undefined | number>(2);
    let made = 0;
    cache.getOrCreate('u', () => (made++, undefined));
    cache.getOrCreate('u', () => (made++, undefined));
    expect(made).toBe(1);
  });

  it('orders and evicts exactly as a plain least-recently-used list, through any mix of reads, writes and deletes', () => {
    // A reference model: an array, oldest first, that moves a key to the end on every touch.
    let seed = 7;
    const random = (n: number) => ((seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31), seed % n);
    for (const limit of [1, 2, 3, 5]) {
      const cache = new LruCache<string, number>(limit);
      let model: Array<[string, number]> = [];
      const touch = (key: string, value: number) => {
        model = model.filter(([k]) => k !== key);
        model.push([key, value]);
        if (model.length > limit) model = model.slice(model.length - limit);
      };
      for (let step = 0; step < 5_000; step++) {
        const key = `k${random(limit + 3)}`;
        const op = random(10);
        if (op < 5) {
          const known = model.find(([k]) => k === key);
          expect(cache.get(key)).toBe(known?.[1]);
          if (known) touch(key, known[1]);
        } else if (op < 9) {
          cache.set(key, step);
          touch(key, step);
        } else {
          expect(cache.delete(key)).toBe(model.some(([k]) => k === key));
          model = model.filter(([k]) => k !== key);
        }
        expect([...cache.values()]).toEqual(model.map(([, v]) => v));
      }
    }
  });

  it('treats a limit below 1 as 1', () => {
    const cache = new LruCache<string, number>(0);
    cache.set('a', 1).set('b', 2);
    expect(cache.limit).toBe(1);
    expect([...cache.values()]).toEqual([2]);
  });
});
