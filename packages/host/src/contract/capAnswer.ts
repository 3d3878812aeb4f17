/**
 * Cutting a whole answer to its budget while keeping its shape (every field
 * its schema requires stays). In two steps:
 *
 * 1. when cutting long strings (outputs, prompts, steps) alone makes it fit,
 *    they are cut to the longest length that fits, never below
 *    {@link STRING_FLOOR}, keeping their head and tail around the one
 *    omitted-marker ({@link truncateMiddle}) — ids, names and enum values are
 *    far shorter and are never touched;
 * 2. otherwise the largest part goes first, again and again: an array loses
 *    its trailing items, a long text is cut (not below the floor).
 *
 * The answer then says `truncated: true` and, in `omitted`, what was left out.
 * For answers whose items page (a listing with a cursor), {@link capItems}
 * keeps whole items instead.
 */
import { truncateMiddle } from './answers.js';
import { fitAnswer, type AnswerBudget } from './budget.js';

/** Strings are never cut below this many characters. */
export const STRING_FLOOR = 200;

/** Characters kept back for the `truncated` and `omitted` fields themselves. */
const NOTES_RESERVE = 600;

/** The fields every answer cut by {@link capAnswer} carries. */
export interface Truncation {
  /** True when anything was left out of this answer. */
  readonly truncated: boolean;
  /** What was left out, one sentence each (present when `truncated`). */
  readonly omitted?: string[];
}

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/**
 * `value` with `truncated` (and `omitted`), cut to fit `budget` as described
 * above. A value that fits is returned with `truncated: false` and otherwise unchanged.
 */
export function capAnswer<T extends object>(value: T, budget: AnswerBudget): T & Truncation {
  const whole = { ...value, truncated: false };
  return fitAnswer(budget, (maxChars) => (jsonChars(whole) <= maxChars ? whole : cutToChars(value, maxChars)));
}

// The cut in characters: at most `maxChars` of JSON (fitAnswer picks `maxChars` for the token budget).
function cutToChars<T extends object>(value: T, maxChars: number): T & Truncation {
  const budget = Math.max(0, maxChars - NOTES_RESERVE);
  const copy = JSON.parse(JSON.stringify(value)) as { [key: string]: Json };
  const omitted: string[] = [];
  const fits = () => jsonChars(copy) <= budget;

  // 1. When cutting long strings alone makes it fit: all to one length, the longest that fits (never below the floor).
  const original = JSON.stringify(copy);
  const at = (length: number) => cutStrings(JSON.parse(original) as Json, length) as { [key: string]: Json };
  const cutTo = (length: number) => {
    const count = countLonger(JSON.parse(original) as Json, length);
    if (count === 0) return;
    for (const key of Object.keys(copy)) delete copy[key];
    Object.assign(copy, at(length));
    omitted.push(`${count} long text field(s) cut to ${length.toLocaleString('en-US')} characters, head and tail kept`);
  };
  const longest = maxStringLength(copy);
  if (longest > STRING_FLOOR && jsonChars(at(STRING_FLOOR)) <= budget) {
    let low = STRING_FLOOR;
    let high = longest;
    while (high - low > 1) {
      const middle = Math.floor((low + high) / 2);
      if (jsonChars(at(middle)) <= budget) low = middle;
      else high = middle;
    }
    cutTo(low);
  }

  // 2. Otherwise the largest part first, again and again: an array loses trailing items, a long string is cut (not below the floor).
  for (let round = 0; round < 100 && !fits(); round++) {
    const largest = partsIn(copy, '').sort((x, y) => y.size - x.size)[0];
    if (largest === undefined) break;
    if (largest.kind === 'array') {
      const array = largest.parent[largest.key as never] as Json[];
      const items = array.splice(0, array.length);
      let keep = 0;
      let high = items.length;
      // The most leading items that fit, by bisection (0 when none does).
      while (high - keep > 1) {
        const middle = Math.floor((keep + high) / 2);
        array.splice(0, array.length, ...items.slice(0, middle));
        if (fits()) keep = middle;
        else high = middle;
      }
      array.splice(0, array.length, ...items.slice(0, keep));
      omitted.push(`${largest.path}: ${keep} of ${items.length} item(s) kept`);
    } else {
      const text = largest.parent[largest.key as never] as string;
      const set = (length: number) => ((largest.parent as Record<string, Json>)[largest.key] = truncateMiddle(text, length));
      let low = STRING_FLOOR;
      let high = text.length;
      while (high - low > 1) {
        const middle = Math.floor((low + high) / 2);
        set(middle);
        if (fits()) low = middle;
        else high = middle;
      }
      set(low);
      omitted.push(`${largest.path}: cut to ${low.toLocaleString('en-US')} of ${text.length.toLocaleString('en-US')} characters, head and tail kept`);
    }
  }
  return { ...(copy as T), truncated: true, omitted: summarize(omitted) };
}

function summarize(notes: string[]): string[] {
  const shown = notes.slice(0, 5).map((n) => (n.length > 100 ? `${n.slice(0, 99)}…` : n));
  return notes.length > shown.length ? [...shown, `and ${notes.length - shown.length} more`] : shown;
}

function maxStringLength(value: Json): number {
  if (typeof value === 'string') return value.length;
  if (Array.isArray(value)) return value.reduce<number>((max, v) => Math.max(max, maxStringLength(v)), 0);
  if (value !== null && typeof value === 'object') return Object.values(value).reduce<number>((max, v) => Math.max(max, maxStringLength(v)), 0);
  return 0;
}

function countLonger(value: Json, length: number): number {
  if (typeof value === 'string') return value.length > length ? 1 : 0;
  if (Array.isArray(value)) return value.reduce<number>((n, v) => n + countLonger(v, length), 0);
  if (value !== null && typeof value === 'object') return Object.values(value).reduce<number>((n, v) => n + countLonger(v, length), 0);
  return 0;
}

/** Every string longer than `length` shortened to about `length`, its head and tail kept around a marker. */
function cutStrings(value: Json, length: number): Json {
  if (typeof value === 'string') return truncateMiddle(value, length);
  if (Array.isArray(value)) return value.map((v) => cutStrings(v, length));
  if (value !== null && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, cutStrings(v, length)]));
  return value;
}

interface Part {
  readonly kind: 'array' | 'string';
  readonly parent: Json[] | { [key: string]: Json };
  readonly key: string;
  readonly path: string;
  readonly size: number;
}

// Every non-empty array and every string longer than the floor, with where it sits and its size in JSON.
function partsIn(value: Json, path: string): Part[] {
  const parts: Part[] = [];
  const visit = (parent: Json[] | { [key: string]: Json }, key: string, child: Json, at: string) => {
    if (Array.isArray(child) && child.length > 0) parts.push({ kind: 'array', parent, key, path: at, size: jsonChars(child) });
    if (typeof child === 'string' && child.length > STRING_FLOOR) parts.push({ kind: 'string', parent, key, path: at, size: child.length });
    parts.push(...partsIn(child, at));
  };
  if (Array.isArray(value)) value.forEach((child, i) => visit(value, String(i), child, `${path}[${i}]`));
  else if (value !== null && typeof value === 'object') for (const [key, child] of Object.entries(value)) visit(value, key, child, path === '' ? key : `${path}.${key}`);
  return parts;
}

function jsonChars(value: unknown): number {
  return JSON.stringify(value)?.length ?? 0;
}
