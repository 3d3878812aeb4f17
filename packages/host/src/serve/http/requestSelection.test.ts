import { describe, expect, it } from 'vitest';
import { parseSelection, type Selection } from '../../selection/selection.js';
import { pathTail, requestSelection, selectionHeaderValues, splitTarget } from './requestSelection.js';

const plain = (s: Selection) => ({ named: [...s.named].sort(), only: s.only === null ? null : [...s.only].sort(), without: [...s.without].sort() });
const sources = (query = '', tail = '', headers: string[] = []) => ({ query, tail, headers });

describe('splitTarget', () => {
  it.each([
    ['/mcp', { pathname: '/mcp', query: '' }],
    ['/mcp?only=a&b', { pathname: '/mcp', query: 'only=a&b' }],
    ['/mcp/only=a?x#frag', { pathname: '/mcp/only=a', query: 'x' }],
    ['/mcp?a?b', { pathname: '/mcp', query: 'a?b' }],
  ])('splits %s into raw path and query', (url, expected) => {
    expect(splitTarget(url)).toEqual(expected);
  });

  it.each(['http://example.com/mcp', '*', '', undefined])('refuses a target that is not origin-form (%s)', (url) => {
    expect(splitTarget(url)).toBeUndefined();
  });
});

describe('pathTail', () => {
  it.each([
    ['/mcp', '/mcp', ''],
    ['/mcp/', '/mcp', ''],
    ['/mcp/only=a', '/mcp', 'only=a'],
    ['/mcp/a/b', '/mcp', 'a/b'],
    ['/mcpx', '/mcp', undefined],
    ['/other', '/mcp', undefined],
    ['/anything', '/', 'anything'],
  ])('%s below %s is %s', (pathname, base, tail) => {
    expect(pathTail(pathname, base)).toBe(tail);
  });
});

describe('requestSelection', () => {
  it('unites query, path tail and every header value', () => {
    const selection = requestSelection(sources('benchmarks', 'only=spaces', ['without=geo', 'library']));
    expect(plain(selection)).toEqual({ named: ['benchmarks', 'library'], only: ['spaces'], without: ['geo'] });
  });

  it('reads the tail as a query string: decoded once, `/` separating pairs', () => {
    expect(plain(requestSelection(sources('', 'only=a%2Cb')))).toEqual({ named: [], only: ['a', 'b'], without: [] });
    expect(plain(requestSelection(sources('', 'only=a/without=b/')))).toEqual({ named: [], only: ['a'], without: ['b'] });
    expect(plain(requestSelection(sources('', 'benchmarks,library')))).toEqual({ named: ['benchmarks', 'library'], only: null, without: [] });
  });

  it('keeps repeated headers apart, so one cannot change what another says', () => {
    expect(plain(requestSelection(sources('', '', ['only=a', 'b'])))).toEqual({ named: ['b'], only: ['a'], without: [] });
  });

  it('drops ignored keys everywhere', () => {
    const selection = requestSelection(sources('utm_source=x', 'utm_source', ['utm_source=y']), { ignore: new Set(['utm_source']) });
    expect(selection.isEmpty).toBe(true);
  });

  it('uses the default selection only when the request names nothing', () => {
    const defaultSelection = parseSelection('only=spaces');
    expect(requestSelection(sources('utm_source=x'), { ignore: ['utm_source'], defaultSelection })).toBe(defaultSelection);
    expect(plain(requestSelection(sources('only='), { defaultSelection }))).toEqual({ named: [], only: [], without: [] });
    expect(plain(requestSelection(sources('', '', ['library']), { defaultSelection }))).toEqual({ named: ['library'], only: null, without: [] });
  });

  it('never throws on hostile input', () => {
    for (const raw of ['%', '%%%FF', '&&&==', '\u0000', '%E0%A4%A', 'a=b=c', '/'.repeat(100)]) {
      expect(() => requestSelection(sources(raw, raw, [raw]))).not.toThrow();
    }
  });
});

describe('selectionHeaderValues', () => {
  it('prefers the per-line values Node keeps in headersDistinct', () => {
    expect(selectionHeaderValues({ 'x-mcp-toolsets': 'a, b' }, () => ({ 'x-mcp-toolsets': ['a', 'b'] }))).toEqual(['a', 'b']);
  });
  it('falls back to the joined header, or nothing', () => {
    expect(selectionHeaderValues({ 'x-mcp-toolsets': 'only=a' })).toEqual(['only=a']);
    expect(selectionHeaderValues({})).toEqual([]);
  });
  it('asks for the per-line values only when the header is there (Node builds them anew on every read)', () => {
    let asked = 0;
    const distinct = () => (asked++, { 'x-mcp-toolsets': ['a', 'b'] });
    expect(selectionHeaderValues({ accept: 'application/json' }, distinct)).toEqual([]);
    expect(asked).toBe(0);
    expect(selectionHeaderValues({ 'x-mcp-toolsets': 'a, b' }, distinct)).toEqual(['a', 'b']);
    expect(asked).toBe(1);
  });
});
