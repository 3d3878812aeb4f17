import { describe, expect, it } from 'vitest';
import { parseSelection, selectionToQuery, type Selection } from '../../../selection/selection.js';
import { RecentQueries } from './sharedServers.js';

/** A selection that counts how often its names are read (what writing its query does). */
function counted(name: string): { selection: Selection; reads: () => number } {
  const parsed = parseSelection(`toolsets=${name}`);
  let reads = 0;
  const selection = {
    ...parsed,
    get named() {
      reads++;
      return parsed.named;
    },
  } as Selection;
  return { selection, reads: () => reads };
}

describe('RecentQueries', () => {
  it('answers a selection\'s canonical query, written once for a selection seen again', () => {
    const queries = new RecentQueries();
    const { selection, reads } = counted('b,a');
    expect(queries.of(selection)).toBe('toolsets=a,b');
    const written = reads();
    expect(queries.of(selection)).toBe('toolsets=a,b');
    expect(reads()).toBe(written);
  });

  it('finds selections by identity, not by what they say, and stays right for more selections than it keeps', () => {
    const queries = new RecentQueries();
    const made = Array.from({ length: 20 }, (_, i) => parseSelection(i % 2 === 0 ? `toolsets=t${i}` : `without=w${i}&only=o${i}`));
    for (let round = 0; round < 3; round++) for (const selection of made) expect(queries.of(selection)).toBe(selectionToQuery(selection));
    // Two equal selections made apart are two entries, each with the same answer.
    const [one, two] = [parseSelection('toolsets=x'), parseSelection('toolsets=x')];
    expect(queries.of(one)).toBe(queries.of(two));
    expect(queries.of(parseSelection(''))).toBe('');
  });
});
