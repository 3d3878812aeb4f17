/**
 * The SDK's verdicts on 2026-07-28 request envelopes, kept: a client sends
 * the same envelope (`_meta`'s protocol version, client info, capabilities
 * and log level) on every request, and asking costs a zod parse or more —
 * the classifier the fast path asks (about 20 µs), and the era codec's
 * `checkInboundEnvelope` every dispatch asks (`envelopeCheck.ts`).
 *
 * Two tiers. The few envelopes seen last are kept as parsed values and found
 * by comparing values, key for key: that needs no JSON text and no object of
 * its own per request. Any other is looked up by its JSON text; what the
 * text finds joins the recent ones. Comparing values is as faithful as the
 * text, and in one case more: the SDK reads values, and a number too large
 * for a double parses to `Infinity`, which prints as `null` — an envelope
 * whose text has a `null` is asked every time, but its values find their
 * verdict.
 */

import { CLIENT_CAPABILITIES_META_KEY, CLIENT_INFO_META_KEY, LOG_LEVEL_META_KEY, PROTOCOL_VERSION_META_KEY } from '@modelcontextprotocol/server';

/** The envelope's keys in `_meta`. */
export type EnvelopeKeys = readonly string[];

/** The `_meta` keys the SDK lifts into a 2026-07-28 request's envelope and checks (its `RESERVED_ENVELOPE_META_KEYS`, in its order). */
export const ENVELOPE_META_KEYS = [PROTOCOL_VERSION_META_KEY, CLIENT_INFO_META_KEY, CLIENT_CAPABILITIES_META_KEY, LOG_LEVEL_META_KEY] as const;

/** Verdicts kept by JSON text; longer envelopes are asked every time (about 1 MiB at most, whatever clients send). */
const MAX_TEXT_VERDICTS = 512;
const MAX_KEPT_ENVELOPE_CHARS = 2048;
/** Envelopes kept as values, most recent first. */
const RECENT = 4;

interface Recent<T> {
  readonly values: readonly unknown[];
  readonly verdict: T;
}

/** Verdicts of type `T` (whether an envelope is valid; the refusal it earns, if any). */
export class EnvelopeVerdicts<T = boolean> {
  readonly #byText = new Map<string, T>();
  readonly #recent: Array<Recent<T>> = [];

  /**
   * @param keys the envelope's keys in `_meta`, in the order the text key lists them
   * @param classify asks the SDK about an envelope made of those keys (its answer must depend on nothing else)
   */
  constructor(
    private readonly keys: EnvelopeKeys,
    private readonly classify: (envelope: Record<string, unknown>) => T,
  ) {}

  /** The verdict on the envelope in `meta` (its {@link keys}; others are not the envelope's). */
  verdict(meta: Record<string, unknown>): T {
    const keys = this.keys;
    for (const recent of this.#recent) {
      let same = true;
      for (let at = 0; at < keys.length && same; at++) same = sameJsonValue(meta[keys[at]!], recent.values[at]);
      if (same) return recent.verdict;
    }
    const envelope: Record<string, unknown> = {};
    for (const key of keys) if (meta[key] !== undefined) envelope[key] = meta[key];
    const text = JSON.stringify(envelope);
    let verdict: T;
    if (this.#byText.has(text)) verdict = this.#byText.get(text) as T;
    else {
      verdict = this.classify(envelope);
      if (this.#byText.size < MAX_TEXT_VERDICTS && text.length <= MAX_KEPT_ENVELOPE_CHARS && !text.includes('null')) this.#byText.set(text, verdict);
    }
    // Only envelopes small enough to keep as text are kept as values: comparing a large one would cost what asking the text does.
    if (text.length <= MAX_KEPT_ENVELOPE_CHARS) {
      // Copies: the request's own objects go on to its handler, which could change them.
      this.#recent.unshift({ values: keys.map((key) => structuredClone(meta[key])), verdict });
      if (this.#recent.length > RECENT) this.#recent.pop();
    }
    return verdict;
  }
}

/**
 * Whether two values parsed from JSON are the same JSON value: equal
 * primitives, or arrays and objects with the same items and the same own
 * keys (in any order: the classifier's schema reads keys, not their order).
 * Own keys only — a `__proto__` key from JSON is an own property, and reading
 * it from an object without one would find `Object.prototype`.
 */
export function sameJsonValue(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  const isArray = Array.isArray(a);
  if (isArray !== Array.isArray(b)) return false;
  if (isArray) {
    const left = a as unknown[];
    const right = b as unknown[];
    if (left.length !== right.length) return false;
    for (let at = 0; at < left.length; at++) if (!sameJsonValue(left[at], right[at])) return false;
    return true;
  }
  const left = a as Record<string, unknown>;
  const right = b as Record<string, unknown>;
  let count = 0;
  for (const key in left) {
    if (!Object.hasOwn(left, key)) continue;
    if (!Object.hasOwn(right, key) || !sameJsonValue(left[key], right[key])) return false;
    count++;
  }
  for (const key in right) if (Object.hasOwn(right, key)) count--;
  return count === 0;
}
