/**
 * Fuzzing selections with fast-check, the count asserted: 100,000 generated
 * selections written in all three HTTP forms at once (query string, path tail,
 * `X-MCP-Toolsets` lines). Parsing never throws, `active ⊆ declared`,
 * `always ⊆ active`, the forms unite like one query string whatever the order
 * and placement of the pairs, and equal sets of active toolsets give equal
 * cache keys (different sets, different keys).
 *
 * The seed is fixed so a failure reproduces; `FUZZ_SEED` overrides it.
 * (The malformed-HTTP fuzzing is in reliability-fuzz-http.test.ts.)
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { requestSelection, type SelectionSources } from '../src/serve/http/requestSelection.js';
import { activationKey, activeToolsets, parseSelection, unknownNames, type Selection } from '../src/selection/selection.js';

const SEED = process.env.FUZZ_SEED === undefined ? 20_260_728 : Number(process.env.FUZZ_SEED);

/** A small pool, so declared toolsets and selections share names; `x/y` tests the path form's separator. */
const NAMES = ['a', 'b', 'c', 'core', 'spaces', 'Spaces', 'é', '😀', 'x.y', 'x/y', 'only', 'ONLY', 'toolsets', 'without'] as const;
const nameArb: fc.Arbitrary<string> = fc.constantFrom(...NAMES);

/** A name list as a client might encode it. `/` is always escaped, as a path segment must. */
const namesArb = fc
  .tuple(fc.array(nameArb, { maxLength: 4 }), fc.constantFrom(',', '+', '%2C', ' ,', '%20'))
  .map(([names, separator]) => names.map((n) => encodeURIComponent(n)).join(separator));

/** One well-formed pair: a keyword with names, or bare names with a true, false or no value. */
const pairArb = fc.oneof(
  fc.tuple(fc.constantFrom('toolsets', 'only', 'without'), namesArb).map(([key, value]) => `${key}=${value}`),
  fc.tuple(namesArb, fc.constantFrom('', '=', '=1', '=true', '=false', '=OFF', '=no', '=0', '=yes')).map(([key, value]) => `${key}${value}`),
);

const declaredArb = fc.uniqueArray(
  fc.record({ name: nameArb, default: fc.option(fc.boolean(), { nil: undefined }), always: fc.option(fc.boolean(), { nil: undefined }) }),
  { selector: (t) => t.name, maxLength: 8 },
);

/** Where each pair is written: 0 the query, 1 the path tail, 2–4 one of three header lines. */
const FORMS = 5;
type Placed = ReadonlyArray<readonly [pair: string, form: number]>;

function sourcesOf(placed: Placed, tailSeparator: '&' | '/'): SelectionSources {
  const by = (form: number) => placed.filter(([, f]) => f === form).map(([pair]) => pair);
  const headers = [2, 3, 4].map((form) => by(form).join('&')).filter((line) => line !== '');
  return { query: by(0).join('&'), tail: by(1).join(tailSeparator), headers };
}

/** Any string at all, lone surrogates and control characters included. */
const anyStringArb = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.string({ unit: fc.integer({ min: 0, max: 0xffff }).map((u) => String.fromCharCode(u)), maxLength: 40 }),
  fc.array(fc.oneof(pairArb, fc.constantFrom('&', '=', '/', '%', '%2F', '%FF', '+', '?', '#')), { maxLength: 8 }).map((parts) => parts.join('')),
);
const hostileSourcesArb = fc.record({ query: anyStringArb, tail: anyStringArb, headers: fc.array(anyStringArb, { maxLength: 3 }) });

/** A Fisher–Yates shuffle driven by a seed (a small LCG), so the property stays reproducible. */
function shuffle<T>(items: readonly T[], seed: number): T[] {
  const out = [...items];
  let state = seed >>> 0;
  for (let i = out.length - 1; i > 0; i--) {
    state = (Math.imul(state, 1_103_515_245) + 12_345) >>> 0;
    const j = state % (i + 1);
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}

/** A plain throw: vitest's matchers cost more than the property itself at 100,000 runs. */
function check(ok: boolean, what: string, input: unknown): void {
  if (!ok) throw new Error(`${what}; input: ${JSON.stringify(input)}`);
}

const sameSet = (a: ReadonlySet<string>, b: ReadonlySet<string>) => a.size === b.size && [...a].every((x) => b.has(x));
const samePlain = (a: Selection, b: Selection) =>
  a.isEmpty === b.isEmpty && sameSet(a.named, b.named) && sameSet(a.without, b.without) && (a.only === null ? b.only === null : b.only !== null && sameSet(a.only, b.only));

const SELECTION_RUNS = 100_000;

describe('fuzzing selections in all three forms', () => {
  it(`holds its invariants over ${SELECTION_RUNS.toLocaleString('en')} generated selections`, () => {
    let runs = 0;
    let hostile = 0;
    const tally = { query: 0, tail: 0, header: 0 };
    const placedArb = fc.array(fc.tuple(pairArb, fc.nat(FORMS - 1)), { maxLength: 8 });
    fc.assert(
      fc.property(
        declaredArb,
        placedArb,
        // The same pairs again, shuffled and written in other forms (both drawn from this seed).
        fc.nat(),
        // An unrelated selection, to check that different sets get different keys.
        placedArb,
        fc.constantFrom('&' as const, '/' as const),
        // One run in four also parses hostile input in every slot.
        fc.oneof({ arbitrary: fc.constant(null), weight: 3 }, { arbitrary: hostileSourcesArb, weight: 1 }),
        (declared, placed, shuffleSeed, unrelated, tailSeparator, garbage) => {
          runs++;
          const pairs = placed.map(([pair]) => pair);
          for (const [, form] of placed) tally[form === 0 ? 'query' : form === 1 ? 'tail' : 'header']++;
          const always = declared.filter((t) => t.always === true).map((t) => t.name);
          const names = new Set(declared.map((t) => t.name));

          // The forms unite like one query string.
          const selection = requestSelection(sourcesOf(placed, tailSeparator));
          check(samePlain(selection, parseSelection(pairs.join('&'))), 'the three forms unite like one query string', placed);

          // active ⊆ declared, always ⊆ active, unknown ∩ active = ∅.
          const active = activeToolsets(declared, selection);
          for (const name of active) check(names.has(name), `active "${name}" is declared`, placed);
          for (const name of always) check(active.has(name), `always "${name}" is active`, placed);
          for (const name of unknownNames(declared, selection)) check(!active.has(name), `unknown "${name}" is not active`, placed);

          // Order and placement do not matter.
          const moved = requestSelection(sourcesOf(shuffle(pairs, shuffleSeed).map((pair, i) => [pair, (shuffleSeed >>> (i * 3)) % FORMS] as const), tailSeparator === '&' ? '/' : '&'));
          check(samePlain(moved, selection), 'shuffled and moved pairs give the same selection', placed);
          check(activationKey(activeToolsets(declared, moved)) === activationKey(active), 'shuffled and moved pairs give the same key', placed);

          // Equal sets, equal keys; different sets, different keys.
          const otherActive = activeToolsets(declared, requestSelection(sourcesOf(unrelated, '&')));
          check((activationKey(otherActive) === activationKey(active)) === sameSet(otherActive, active), 'keys are equal exactly when the sets are', [placed, unrelated]);

          // Hostile input: never throws, and the invariants still hold.
          if (garbage !== null) {
            hostile++;
            const anything = activeToolsets(declared, requestSelection(garbage, { ignore: ['utm_source'] }));
            for (const name of anything) check(names.has(name), `active "${name}" is declared (hostile input)`, garbage);
            for (const name of always) check(anything.has(name), `always "${name}" is active (hostile input)`, garbage);
          }
        },
      ),
      { numRuns: SELECTION_RUNS, seed: SEED },
    );
    expect(runs).toBe(SELECTION_RUNS);
    // Every form was exercised many times over.
    expect(Math.min(tally.query, tally.tail, tally.header)).toBeGreaterThan(SELECTION_RUNS / 2);
    expect(hostile).toBeGreaterThan(SELECTION_RUNS / 5);
    process.stdout.write(`selections: ${runs} runs; pairs by form ${JSON.stringify(tally)}; ${hostile} runs with hostile input\n`);
  }, 180_000); // a count, not a speed: generous so a loaded CI machine does not cut the run short
});
