import { describe, expect, it } from 'vitest';
import { decodeListCursor, encodeListCursor } from './listCursor.js';

const listing = { space: 'climate-lab', path: 'data', recursive: true };

describe('list_files cursors', () => {
  it('round-trip, and read as opaque base64url', () => {
    const cursor = encodeListCursor({ ...listing, after: 'data/iris.csv' });
    expect(cursor).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(decodeListCursor(cursor, listing)).toEqual({ ...listing, after: 'data/iris.csv' });
  });

  it.each([['garbage!'], ['e30'], [Buffer.from('{"v":2,"s":"climate-lab","p":"data","r":true,"a":"x"}').toString('base64url')], ['']])('refuse %j, saying what was expected and how to start over', (bad) => {
    expect(() => decodeListCursor(bad, listing)).toThrow(/of list_files: is not a cursor list_files made; expected the nextCursor of a previous list_files call for space "climate-lab", path "data", recursive true; hint: omit cursor/);
  });

  it('refuse a cursor of another listing', () => {
    const other = encodeListCursor({ ...listing, recursive: false, after: 'data/iris.csv' });
    expect(() => decodeListCursor(other, listing)).toThrow(/belongs to another listing/);
  });
});
