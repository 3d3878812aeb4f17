import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  EMPTY_SELECTION,
  activationKey,
  activeToolsets,
  compareCodePoints,
  mergeSelections,
  namesInSelection,
  onToolset,
  parseSelection,
  parseSelectionPair,
  selectionToQuery,
  withToolFilters,
  withToolsetOn,
  unknownNames,
  type Selection,
  type ToolsetActivation,
} from './selection.js';

// The toolsets of spec §3's examples.
const declared: ToolsetActivation[] = [
  { name: 'core', always: true },
  { name: 'spaces', default: true },
  { name: 'benchmarks', default: false },
  { name: 'library', default: false },
];

const sorted = (names: Iterable<string>): string[] => Array.from(names).sort(compareCodePoints);

/** A selection as plain, order-free data, for equality assertions. */
const plain = (selection: Selection) => ({
  named: sorted(selection.named),
  only: selection.only === null ? null : sorted(selection.only),
  without: sorted(selection.without),
  isEmpty: selection.isEmpty,
});

const active = (query: string): string[] => sorted(activeToolsets(declared, parseSelection(query)));

describe('the examples of spec §3 (core always, spaces default, benchmarks and library opt-in)', () => {
  it.each([
    { query: '', active: ['core', 'spaces'], unknown: [] },
    { query: 'benchmarks', active: ['benchmarks', 'core', 'spaces'], unknown: [] },
    { query: 'toolsets=benchmarks', active: ['benchmarks', 'core', 'spaces'], unknown: [] },
    { query: 'benchmarks=1', active: ['benchmarks', 'core', 'spaces'], unknown: [] },
    { query: 'benchmarks,library', active: ['benchmarks', 'core', 'library', 'spaces'], unknown: [] },
    { query: 'benchmarks&library', active: ['benchmarks', 'core', 'library', 'spaces'], unknown: [] },
    { query: 'only=benchmarks', active: ['benchmarks', 'core'], unknown: [] },
    { query: 'only=', active: ['core'], unknown: [] },
    { query: 'only=&benchmarks', active: ['core'], unknown: [] },
    { query: 'without=spaces', active: ['core'], unknown: [] },
    { query: 'without=core', active: ['core', 'spaces'], unknown: [] },
    { query: 'spaces=false', active: ['core'], unknown: [] },
    { query: 'nosuch', active: ['core', 'spaces'], unknown: ['nosuch'] },
    { query: 'Benchmarks', active: ['core', 'spaces'], unknown: ['Benchmarks'] },
  ])('?$query serves $active', ({ query, active: expected, unknown }) => {
    const selection = parseSelection(query);
    expect(sorted(activeToolsets(declared, selection))).toEqual(expected);
    expect(sorted(unknownNames(declared, selection))).toEqual(unknown);
  });

  it('serves the defaults and the always toolsets when there is no query at all', () => {
    expect(sorted(activeToolsets(declared, parseSelection(undefined)))).toEqual(['core', 'spaces']);
    expect(sorted(activeToolsets(declared, parseSelection(null)))).toEqual(['core', 'spaces']);
    expect(sorted(activeToolsets(declared))).toEqual(['core', 'spaces']);
  });
});

describe('parseSelection: the pairs', () => {
  it('accepts the query with or without its leading ?', () => {
    expect(plain(parseSelection('?benchmarks'))).toEqual(plain(parseSelection('benchmarks')));
    expect(plain(parseSelection('?benchmarks')).named).toEqual(['benchmarks']);
  });

  it('strips only one leading ?: a second one is part of the key', () => {
    expect(plain(parseSelection('??a')).named).toEqual(['?a']);
  });

  it('splits pairs on & only, never on ;', () => {
    expect(plain(parseSelection('a;b&c')).named).toEqual(['a;b', 'c']);
  });

  it('skips empty pairs and pairs whose trimmed key is empty', () => {
    expect(parseSelection('&&&').isEmpty).toBe(true);
    expect(parseSelection('=x&%20=y& + =z').isEmpty).toBe(true);
  });

  it('gives a pair without = the value "", and splits a pair on its first = only', () => {
    expect(plain(parseSelection('toolsets')).named).toEqual([]);
    expect(plain(parseSelection('toolsets=a=b')).named).toEqual(['a=b']);
  });

  it('trims keys, so " only " is the keyword', () => {
    expect(plain(parseSelection('+only+=a')).only).toEqual(['a']);
  });

  it('reads toolsets=, only= and without= as lists of names, united across repeats', () => {
    expect(plain(parseSelection('toolsets=a,b&toolsets=c&only=d&only=e,d&without=f&without=g'))).toEqual({
      named: ['a', 'b', 'c'],
      only: ['d', 'e'],
      without: ['f', 'g'],
      isEmpty: false,
    });
  });

  it('reads any other key as a list of names, ignoring a true-ish value', () => {
    expect(plain(parseSelection('a,b=yes&c d=1&e=true&f=whatever'))).toMatchObject({ named: ['a', 'b', 'c', 'd', 'e', 'f'], without: [] });
  });

  it.each(['0', 'false', 'FALSE', 'False', 'off', 'Off', 'OFF', 'no', 'No', 'NO', ' no ', '+off+', '%20false%09'])(
    'puts a bare key with the false value %j in without',
    (value) => {
      expect(plain(parseSelection(`geo,maps=${value}`))).toMatchObject({ named: [], without: ['geo', 'maps'] });
    },
  );

  it.each(['', '1', 'true', 'on', 'yes', 'nope', '00', 'falsey'])('turns a bare key on when its value is %j', (value) => {
    expect(plain(parseSelection(`geo=${value}`))).toMatchObject({ named: ['geo'], without: [] });
  });

  it('takes a false value of a keyword as a name, not as a negation', () => {
    expect(plain(parseSelection('toolsets=false&without=no'))).toMatchObject({ named: ['false'], without: ['no'] });
  });

  it('makes only a set at the first only, even with an empty value, so ?only= is not empty', () => {
    const selection = parseSelection('?only=');
    expect(selection.only).toEqual(new Set());
    expect(selection.isEmpty).toBe(false);
    expect(parseSelection('only').only).toEqual(new Set());
  });

  it('leaves only null when the query never says only', () => {
    expect(parseSelection('a&without=b').only).toBeNull();
  });

  it('is empty exactly when nothing is named, nothing is without and only is null', () => {
    expect(parseSelection('').isEmpty).toBe(true);
    expect(parseSelection('?').isEmpty).toBe(true);
    expect(parseSelection('toolsets=&without=').isEmpty).toBe(true);
    expect(parseSelection('without=a').isEmpty).toBe(false);
    expect(parseSelection('a').isEmpty).toBe(false);
  });

  it('treats keywords as case-sensitive: ONLY=x names a toolset ONLY', () => {
    expect(plain(parseSelection('ONLY=x&Without=y&TOOLSETS=z'))).toEqual({
      named: ['ONLY', 'TOOLSETS', 'Without'],
      only: null,
      without: [],
      isEmpty: false,
    });
  });

  it('treats names as case-sensitive', () => {
    expect(plain(parseSelection('Spaces&spaces')).named).toEqual(['Spaces', 'spaces']);
  });
});

describe('parseSelection: names', () => {
  it('counts spaces as commas, trims names and drops empty ones', () => {
    expect(plain(parseSelection('toolsets=,a,, b  c ,')).named).toEqual(['a', 'b', 'c']);
  });

  it('counts any whitespace (tabs, newlines) as a separator, since trimming would remove it anyway', () => {
    expect(plain(parseSelection('toolsets=a%09b%0Ac')).named).toEqual(['a', 'b', 'c']);
  });
});

describe('parseSelection: decoding', () => {
  it('reads + as a space, in keys and values', () => {
    expect(plain(parseSelection('toolsets=a+b&c+d'))).toMatchObject({ named: ['a', 'b', 'c', 'd'] });
  });

  it('reads %2B as a literal +, not a space', () => {
    expect(plain(parseSelection('toolsets=a%2Bb')).named).toEqual(['a+b']);
  });

  it('decodes before splitting names, so an encoded comma separates names', () => {
    expect(plain(parseSelection('toolsets=a%2Cb')).named).toEqual(['a', 'b']);
    expect(plain(parseSelection('a%2cb')).named).toEqual(['a', 'b']);
  });

  it('decodes once: %252C is the literal name %2C, not a comma', () => {
    expect(plain(parseSelection('toolsets=%252C')).named).toEqual(['%2C']);
  });

  it('splits pairs before decoding, so %26 and %3D are data', () => {
    expect(plain(parseSelection('toolsets=a%26b%3Dc')).named).toEqual(['a&b=c']);
    expect(plain(parseSelection('only%3Dx')).named).toEqual(['only=x']);
  });

  it('decodes percent escapes as UTF-8', () => {
    expect(plain(parseSelection('toolsets=caf%C3%A9,%E2%82%AC,%F0%9F%98%80')).named).toEqual(['café', '€', '😀']);
  });

  it('replaces invalid UTF-8 with U+FFFD instead of throwing', () => {
    expect(() => parseSelection('%FF')).not.toThrow();
    expect(plain(parseSelection('%FF')).named).toEqual(['\uFFFD']);
    expect(plain(parseSelection('toolsets=a%C3b')).named).toEqual(['a\uFFFDb']);
    expect(plain(parseSelection('toolsets=%E2%82')).named).toEqual(['\uFFFD']);
  });

  it('keeps an encoded byte-order mark rather than dropping it: like any whitespace, it separates names', () => {
    // A UTF-8 decoder strips a leading BOM by default, which would have glued these into 'ab'.
    expect(plain(parseSelection('toolsets=a%EF%BB%BFb')).named).toEqual(['a', 'b']);
  });

  it('keeps a % that is not followed by two hex digits literally', () => {
    expect(plain(parseSelection('%')).named).toEqual(['%']);
    expect(plain(parseSelection('toolsets=50%,%G1,%4,a%')).named).toEqual(['%4', '%G1', '50%', 'a%']);
  });

  it('accepts hex digits in either case', () => {
    expect(plain(parseSelection('toolsets=%c3%a9%C3%A9')).named).toEqual(['éé']);
  });

  it('copies raw non-ASCII characters, even a lone surrogate, as they are', () => {
    expect(plain(parseSelection('toolsets=é,\uD800')).named).toEqual(['é', '\uD800']);
  });
});

describe('parseSelection: options and input kinds', () => {
  it('skips keys listed in ignore, compared after trimming and decoding', () => {
    const selection = parseSelection('utm_source=x&token=abc&%20token%20=def&benchmarks', { ignore: ['utm_source', 'token'] });
    expect(plain(selection).named).toEqual(['benchmarks']);
  });

  it('ignores keys case-sensitively, like the keywords', () => {
    expect(plain(parseSelection('Token=x', { ignore: ['token'] })).named).toEqual(['Token']);
  });

  it('can ignore a keyword', () => {
    expect(parseSelection('only=a', { ignore: ['only'] }).isEmpty).toBe(true);
  });

  it('reads a single string as one ignored key, not as its characters', () => {
    expect(plain(parseSelection('token&t&o', { ignore: 'token' as unknown as Iterable<string> })).named).toEqual(['o', 't']);
  });

  it('is empty when every key is ignored, so a defaultSelection can apply', () => {
    expect(parseSelection('session=1', { ignore: new Set(['session']) }).isEmpty).toBe(true);
  });

  it('reads a URLSearchParams as already decoded, applying the same key and value rules', () => {
    const params = new URLSearchParams();
    params.append(' only ', 'a b,c');
    params.append('geo', 'OFF');
    params.append('x%2Cy', '1'); // already decoded: the key is literally x%2Cy
    params.append('ignored', '');
    params.append('', 'nothing');
    expect(plain(parseSelection(params, { ignore: ['ignored'] }))).toEqual({
      named: ['x%2Cy'],
      only: ['a', 'b', 'c'],
      without: ['geo'],
      isEmpty: false,
    });
  });

  it('says nothing for input that is neither a string nor URLSearchParams', () => {
    expect(parseSelection(42 as unknown as string)).toBe(EMPTY_SELECTION);
  });

  it('returns the shared EMPTY_SELECTION when nothing was said', () => {
    expect(parseSelection('')).toBe(EMPTY_SELECTION);
    expect(plain(EMPTY_SELECTION)).toEqual({ named: [], only: null, without: [], isEmpty: true });
  });
});

describe('activeToolsets', () => {
  it('removes with without= after only=', () => {
    expect(active('only=benchmarks,library&without=library')).toEqual(['benchmarks', 'core']);
  });

  it('turns a default toolset off with a false bare key, but never an always one', () => {
    expect(active('spaces=no&core=off')).toEqual(['core']);
  });

  it('lets without win over a name the same query adds', () => {
    expect(active('benchmarks&without=benchmarks')).toEqual(['core', 'spaces']);
  });

  it('ignores named ones when only is said, in any order', () => {
    expect(active('benchmarks&only=library')).toEqual(['core', 'library']);
    expect(active('only=library&benchmarks')).toEqual(['core', 'library']);
  });

  it('reads default and always from the first declaration of a name', () => {
    const twice: ToolsetActivation[] = [
      { name: 'geo', default: false },
      { name: 'geo', default: true, always: true },
    ];
    expect(sorted(activeToolsets(twice))).toEqual([]);
    expect(sorted(activeToolsets(twice, parseSelection('geo')))).toEqual(['geo']);
  });

  it('keeps an always toolset on even when it says default: false', () => {
    expect(sorted(activeToolsets([{ name: 'core', always: true, default: false }]))).toEqual(['core']);
  });

  it('lists active toolsets in declaration order', () => {
    expect(Array.from(activeToolsets(declared, parseSelection('library&benchmarks')))).toEqual(['core', 'spaces', 'benchmarks', 'library']);
  });
});

describe('unknownNames', () => {
  it('reports unknown names wherever the selection uses them', () => {
    expect(sorted(unknownNames(declared, parseSelection('x&only=y,spaces&without=z,core')))).toEqual(['x', 'y', 'z']);
  });

  it('reports nothing for the empty selection', () => {
    expect(unknownNames(declared).size).toBe(0);
  });
});

describe('activationKey', () => {
  it('gives ?a&b, ?b&a and ?toolsets=b,a one key', () => {
    const decl = [{ name: 'a', default: false }, { name: 'b', default: false }];
    const keys = ['?a&b', '?b&a', '?toolsets=b,a'].map((q) => activationKey(activeToolsets(decl, parseSelection(q))));
    expect(keys).toEqual(['a,b', 'a,b', 'a,b']);
  });

  it('sorts by code point, not by locale', () => {
    expect(activationKey(['b', 'B', 'a', 'é', 'Z'])).toBe('B,Z,a,b,é');
  });

  it('sorts astral characters after U+E000–FFFF, as code points do (UTF-16 order would not)', () => {
    expect(activationKey(['😀', '\uFF21'])).toBe('\uFF21,😀');
  });

  it('is the one name of a set of one, and "" for an empty set (the common requests, answered without sorting)', () => {
    expect(activationKey(new Set(['spaces']))).toBe('spaces');
    expect(activationKey(new Set())).toBe('');
    expect(activationKey(new Set(['b', 'a']))).toBe('a,b');
  });

  it('counts a repeated name once and is "" for no toolsets', () => {
    expect(activationKey(['a', 'a'])).toBe('a');
    expect(activationKey([])).toBe('');
  });
});

describe('mergeSelections', () => {
  it('unites query string, path tail and header', () => {
    const merged = mergeSelections(parseSelection('a'), parseSelection('only=b&without=c'), parseSelection('only=d'));
    expect(plain(merged)).toEqual({ named: ['a'], only: ['b', 'd'], without: ['c'], isEmpty: false });
  });

  it('keeps only null unless some part said only, and keeps an empty only', () => {
    expect(mergeSelections(parseSelection('a'), parseSelection('without=b')).only).toBeNull();
    expect(mergeSelections(parseSelection('a'), parseSelection('only=')).only).toEqual(new Set());
  });

  it('is empty for no parts or only empty parts', () => {
    expect(mergeSelections().isEmpty).toBe(true);
    expect(mergeSelections(EMPTY_SELECTION, parseSelection('')).isEmpty).toBe(true);
  });

  it('equals parsing the parts joined with &', () => {
    expect(plain(mergeSelections(parseSelection('a&only=b'), parseSelection('without=a&c=off')))).toEqual(
      plain(parseSelection('a&only=b&without=a&c=off')),
    );
  });
});

describe('onToolset and namesInSelection', () => {
  it('names the activation event of a toolset', () => {
    expect(onToolset('benchmarks')).toBe('onToolset:benchmarks');
  });

  it('fires for named and only names, not for without', () => {
    expect(sorted(namesInSelection(parseSelection('a&only=b&without=c')))).toEqual(['a', 'b']);
    expect(namesInSelection(EMPTY_SELECTION).size).toBe(0);
  });
});

describe('selectionToQuery', () => {
  it('writes a canonical, sorted query string', () => {
    expect(selectionToQuery(parseSelection('b&a&without=d,c&only=f,e'))).toBe('toolsets=a,b&only=e,f&without=c,d');
  });

  it('writes "" for the empty selection and only= for an empty only', () => {
    expect(selectionToQuery(EMPTY_SELECTION)).toBe('');
    expect(selectionToQuery(parseSelection('only='))).toBe('only=');
  });

  it('percent-encodes names that the grammar would otherwise read differently', () => {
    const selection = parseSelection('toolsets=a%26b%3Dc%2Bd%25,caf%C3%A9');
    expect(selectionToQuery(selection)).toBe('toolsets=a%26b%3Dc%2Bd%25,caf%C3%A9');
  });

  it('writes a lone surrogate as is instead of throwing', () => {
    const selection = parseSelection('\uD800x');
    expect(selectionToQuery(selection)).toBe('toolsets=\uD800x');
    expect(plain(parseSelection(selectionToQuery(selection)))).toEqual(plain(selection));
  });
});

// ---------------------------------------------------------------------------
// Properties

/** A small pool, so declared toolsets and selections often share names. */
const nameArb = fc.constantFrom<string>('a', 'b', 'c', 'core', 'spaces', 'Spaces', 'é', '😀', 'x.y', 'only', 'ONLY');

/** Fragments of the grammar, including its traps: escapes, separators, false values. */
const tokenArb = fc.oneof(
  nameArb,
  fc.constantFrom('&', '=', '?', ',', ' ', '+', 'toolsets', 'only', 'without', 'false', 'OFF', '0', 'no'),
  fc.constantFrom('%', '%2', '%G0', '%2C', '%2c', '%20', '%25', '%252C', '%26', '%3D', '%2B', '%FF', '%C3', '%C3%A9', '%E2%82%AC', '%F0%9F%98%80', '%EF%BB%BF'),
  fc.string({ unit: 'binary', maxLength: 3 }),
);
const grammarStringArb = fc.array(tokenArb, { maxLength: 30 }).map((tokens) => tokens.join(''));

/** Any UTF-16 sequence, lone surrogates included ('binary' leaves them out). */
const utf16StringArb = fc.string({ unit: fc.integer({ min: 0, max: 0xffff }).map((unit) => String.fromCharCode(unit)), maxLength: 40 });

const anyQueryArb = fc.oneof(fc.string({ unit: 'binary', maxLength: 60 }), utf16StringArb, grammarStringArb);

/** One well-formed pair: `key`, `key=value`, with keywords, name lists and false values. */
const namesArb = fc.array(nameArb, { maxLength: 4 }).chain((names) =>
  fc.constantFrom(',', '+', '%2C', ' ,').map((separator) => names.map(encodeURIComponent).join(separator)),
);
const pairArb = fc.oneof(
  fc.tuple(fc.constantFrom('toolsets', 'only', 'without'), namesArb).map(([key, value]) => `${key}=${value}`),
  fc.tuple(namesArb, fc.constantFrom('', '=', '=1', '=false', '=OFF', '=no', '=0', '=yes')).map(([key, value]) => `${key}${value}`),
);

const declaredArb = fc.uniqueArray(
  fc.record({ name: nameArb, default: fc.option(fc.boolean(), { nil: undefined }), always: fc.option(fc.boolean(), { nil: undefined }) }),
  { selector: (toolset) => toolset.name, maxLength: 8 },
);

const nameLengths = (selection: Selection): number =>
  [...selection.named, ...(selection.only ?? []), ...selection.without].reduce((sum, name) => sum + name.length, 0);

describe('dynamic and withToolsetOn (dynamic toolsets)', () => {
  it('reads dynamic as a flag that is never a toolset name, and writes it back', () => {
    expect(parseSelection('dynamic')).toMatchObject({ dynamic: true, isEmpty: true, named: new Set() });
    expect(parseSelection('dynamic=false&spaces').dynamic).toBe(false);
    expect(parseSelection('spaces').dynamic).toBeUndefined();
    expect(selectionToQuery(parseSelection('benchmarks&dynamic'))).toBe('toolsets=benchmarks&dynamic');
    expect(mergeSelections(parseSelection('dynamic=off'), parseSelection('dynamic')).dynamic).toBe(true);
  });

  it('turns one toolset on as a URL would: into only= when said, out of without=, filters kept', () => {
    expect(selectionToQuery(withToolsetOn(parseSelection('dynamic&readonly'), 'benchmarks'))).toBe('toolsets=benchmarks&readonly&dynamic');
    expect(selectionToQuery(withToolsetOn(parseSelection('only=spaces&without=benchmarks&tools=a'), 'benchmarks'))).toBe('only=benchmarks,spaces&tools=a');
  });
});

describe('properties', () => {
  it('parseSelection never throws, on any string', () => {
    fc.assert(
      fc.property(anyQueryArb, (query) => {
        parseSelection(query);
      }),
      { numRuns: 2000 },
    );
  });

  it('parseSelection output is bounded by its input: the names together are no longer than the query', () => {
    fc.assert(
      fc.property(anyQueryArb, (query) => {
        const selection = parseSelection(query);
        expect(nameLengths(selection)).toBeLessThanOrEqual(query.length);
      }),
      { numRuns: 2000 },
    );
  });

  it('every parsed name is non-empty and holds no comma or whitespace', () => {
    fc.assert(
      fc.property(anyQueryArb, (query) => {
        const selection = parseSelection(query);
        for (const name of [...selection.named, ...(selection.only ?? []), ...selection.without]) {
          expect(name).toMatch(/^[^\s,]+$/u);
        }
      }),
      { numRuns: 1000 },
    );
  });

  it('active toolsets are always declared ones, and always include every always toolset', () => {
    fc.assert(
      fc.property(declaredArb, fc.array(pairArb, { maxLength: 8 }), (decl, pairs) => {
        const result = activeToolsets(decl, parseSelection(pairs.join('&')));
        const names = new Set(decl.map((toolset) => toolset.name));
        for (const name of result) expect(names.has(name)).toBe(true);
        for (const toolset of decl) if (toolset.always === true) expect(result.has(toolset.name)).toBe(true);
      }),
      { numRuns: 2000 },
    );
  });

  it('unknown names and active toolsets never overlap', () => {
    fc.assert(
      fc.property(declaredArb, fc.array(pairArb, { maxLength: 8 }), (decl, pairs) => {
        const selection = parseSelection(pairs.join('&'));
        const unknown = unknownNames(decl, selection);
        for (const name of activeToolsets(decl, selection)) expect(unknown.has(name)).toBe(false);
      }),
      { numRuns: 1000 },
    );
  });

  it('order does not matter: shuffled pairs give the same selection and the same activation key', () => {
    const pairsAndShuffle = fc
      .array(pairArb, { maxLength: 8 })
      .chain((pairs) => fc.tuple(fc.constant(pairs), fc.shuffledSubarray(pairs, { minLength: pairs.length, maxLength: pairs.length })));
    fc.assert(
      fc.property(declaredArb, pairsAndShuffle, (decl, [pairs, shuffled]) => {
        const a = parseSelection(pairs.join('&'));
        const b = parseSelection(shuffled.join('&'));
        expect(plain(b)).toEqual(plain(a));
        expect(activationKey(activeToolsets(decl, b))).toBe(activationKey(activeToolsets(decl, a)));
      }),
      { numRuns: 2000 },
    );
  });

  it('equal sets give equal activation keys, and different sets different keys', () => {
    fc.assert(
      fc.property(fc.array(nameArb, { maxLength: 8 }), fc.array(nameArb, { maxLength: 8 }), (xs, ys) => {
        const sameSet = sorted(new Set(xs)).join('\0') === sorted(new Set(ys)).join('\0');
        expect(activationKey(xs) === activationKey(ys)).toBe(sameSet);
        expect(activationKey(xs)).toBe(activationKey([...xs].reverse().concat(xs)));
      }),
      { numRuns: 2000 },
    );
  });

  it('selectionToQuery round-trips: parsing it gives an equal selection, and it is a fixed point', () => {
    fc.assert(
      fc.property(fc.oneof(anyQueryArb, fc.array(pairArb, { maxLength: 8 }).map((pairs) => pairs.join('&'))), (query) => {
        const selection = parseSelection(query);
        const canonical = selectionToQuery(selection);
        const reparsed = parseSelection(canonical);
        expect(plain(reparsed)).toEqual(plain(selection));
        expect(selectionToQuery(reparsed)).toBe(canonical);
      }),
      { numRuns: 2000 },
    );
  });

  it('mergeSelections of parsed parts equals parsing the parts joined with &', () => {
    fc.assert(
      fc.property(fc.array(fc.array(pairArb, { maxLength: 4 }), { maxLength: 4 }), (parts) => {
        const queries = parts.map((pairs) => pairs.join('&'));
        expect(plain(mergeSelections(...queries.map((q) => parseSelection(q))))).toEqual(plain(parseSelection(queries.join('&'))));
      }),
      { numRuns: 1000 },
    );
  });

  it('compareCodePoints agrees with comparing the strings code point by code point', () => {
    const byCodePoints = (a: string, b: string): number => {
      const xs = Array.from(a, (ch) => ch.codePointAt(0)!);
      const ys = Array.from(b, (ch) => ch.codePointAt(0)!);
      for (let i = 0; i < Math.min(xs.length, ys.length); i++) if (xs[i] !== ys[i]) return xs[i]! - ys[i]!;
      return xs.length - ys.length;
    };
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 6 }), fc.string({ unit: 'binary', maxLength: 6 }), (a, b) => {
        expect(Math.sign(compareCodePoints(a, b))).toBe(Math.sign(byCodePoints(a, b)));
      }),
      { numRuns: 2000 },
    );
  });
});

describe('per-tool selection: tools=, exclude_tools= and readonly', () => {
  const tools = (selection: Selection) => (selection.tools === undefined ? undefined : sorted(selection.tools));
  const excluded = (selection: Selection) => (selection.excludeTools === undefined ? undefined : sorted(selection.excludeTools));

  it('reads tools= and exclude_tools= as name lists, united across repeats and separators', () => {
    const selection = parseSelection('tools=get_run&tools=best_run+list_runs&exclude_tools=a%2Cb&exclude_tools=c%20d');
    expect(tools(selection)).toEqual(['best_run', 'get_run', 'list_runs']);
    expect(excluded(selection)).toEqual(['a', 'b', 'c', 'd']);
  });

  it('never takes the reserved keys for toolset names, so the toolset part stays empty', () => {
    const selection = parseSelection('tools=get_run&readonly');
    expect(plain(selection)).toEqual({ named: [], only: null, without: [], isEmpty: true });
    expect(selection.readonly).toBe(true);
  });

  it('reads readonly as a flag: bare, any true-ish value, and a false value recorded as false', () => {
    expect(parseSelection('readonly').readonly).toBe(true);
    expect(parseSelection('readonly=true').readonly).toBe(true);
    expect(parseSelection('readonly=yes').readonly).toBe(true);
    expect(parseSelection('readonly=false').readonly).toBe(false);
    expect(parseSelection('readonly=OFF').readonly).toBe(false);
  });

  it('lets one readonly win over a readonly=false, in any order and across parts', () => {
    expect(parseSelection('readonly=false&readonly').readonly).toBe(true);
    expect(parseSelection('readonly&readonly=0').readonly).toBe(true);
    expect(mergeSelections(parseSelection('readonly=no'), parseSelection('readonly')).readonly).toBe(true);
  });

  it('says nothing for an empty tools= (a blank form field must not hide every tool)', () => {
    expect(parseSelection('tools=').tools).toBeUndefined();
    expect(parseSelection('tools=').isEmpty).toBe(true);
    expect(parseSelection('exclude_tools=,,')).toBe(EMPTY_SELECTION);
  });

  it('adds no member a selection did not say, so the spec\'s shape is unchanged', () => {
    expect(Object.keys(parseSelection('a&only=b'))).toEqual(['named', 'only', 'without', 'isEmpty']);
  });

  it('treats the reserved keys case-sensitively, like the keywords: TOOLS=x names a toolset', () => {
    expect(plain(parseSelection('TOOLS=x'))).toEqual({ named: ['TOOLS'], only: null, without: [], isEmpty: false });
    expect(parseSelection('TOOLS=x').tools).toBeUndefined();
  });

  it('can ignore a reserved key', () => {
    expect(parseSelection('readonly&tools=a', { ignore: ['readonly', 'tools'] })).toBe(EMPTY_SELECTION);
  });

  it('reads one header value as one key\'s value: an & in it stays data', () => {
    const selection = parseSelectionPair('tools', 'a,b&only=x');
    expect(tools(selection)).toEqual(['a', 'b&only=x']);
    expect(selection.only).toBeNull();
    expect(parseSelectionPair('readonly', 'true').readonly).toBe(true);
  });

  it('round-trips through selectionToQuery', () => {
    const selection = parseSelection('benchmarks&tools=b,a&exclude_tools=c&readonly');
    expect(selectionToQuery(selection)).toBe('toolsets=benchmarks&tools=a,b&exclude_tools=c&readonly');
    expect(selectionToQuery(parseSelection(selectionToQuery(selection)))).toBe(selectionToQuery(selection));
    expect(selectionToQuery(parseSelection('readonly=off'))).toBe('readonly=false');
  });

  it('applies a default toolset selection under a request\'s own tool filters', () => {
    const merged = withToolFilters(parseSelection('only=spaces'), parseSelection('tools=read_file&readonly'));
    expect(plain(merged)).toEqual({ named: [], only: ['spaces'], without: [], isEmpty: false });
    expect(tools(merged)).toEqual(['read_file']);
    expect(merged.readonly).toBe(true);
    const base = parseSelection('only=spaces');
    expect(withToolFilters(base, EMPTY_SELECTION)).toBe(base);
  });

  it('never throws and stays bounded by its input on any string (property)', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 60 }), fc.constantFrom('', 'tools=', 'exclude_tools=', 'readonly='), (raw, prefix) => {
        const selection = parseSelection(prefix + raw);
        const total = [...(selection.tools ?? []), ...(selection.excludeTools ?? []), ...selection.named, ...selection.without].join('').length;
        expect(total).toBeLessThanOrEqual((prefix + raw).length);
      }),
      { seed: 21, numRuns: 2_000 },
    );
  });
});
