/**
 * The builder's query, checked against the host's own grammar: for every
 * combination of ticks over a catalog with always-on, default and opt-in
 * toolsets, `activeToolsets(parseSelection(query))` is exactly what was ticked
 * (plus the always-on ones) — the URL serves what the page says.
 */
import { activeToolsets, parseSelection, type Toolset } from '@reactor/host';
import { describe, expect, it } from 'vitest';
import { selectionQuery } from './query.js';

const declared: Toolset[] = [
  { name: 'core', always: true },
  { name: 'spaces' },
  { name: 'notes' },
  { name: 'benchmarks', default: false },
  { name: 'library', default: false },
];
const offered = declared.map((t) => ({ name: t.name, default: t.default !== false, always: t.always === true }));

describe('selectionQuery', () => {
  it('is empty for the defaults, and adds opt-in toolsets with toolsets=', () => {
    expect(selectionQuery(offered, ['spaces', 'notes'])).toBe('');
    expect(selectionQuery(offered, ['spaces', 'notes', 'library', 'benchmarks'])).toBe('toolsets=benchmarks,library');
  });

  it('picks the shorter of only= and without= when a default is left out', () => {
    expect(selectionQuery(offered, ['notes'])).toBe('only=notes');
    expect(selectionQuery(offered, ['benchmarks'])).toBe('only=benchmarks');
    expect(selectionQuery(offered, [])).toBe('only=');
  });

  it('turns on exactly the ticked toolsets (and the always-on ones), for every combination', () => {
    const choosable = offered.filter((t) => !t.always).map((t) => t.name);
    for (let mask = 0; mask < 1 << choosable.length; mask++) {
      const ticked = choosable.filter((_, i) => mask & (1 << i));
      const active = activeToolsets(declared, parseSelection(selectionQuery(offered, ticked)));
      expect([...active].sort()).toEqual(['core', ...ticked].sort());
    }
  });
});
