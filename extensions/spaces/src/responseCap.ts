/**
 * Bounding what one tool answers. The host sends a result as compact JSON
 * text (and the same object as structured content), so an answer's size is
 * the length of its JSON. Each tool decides *what* to leave out — entries
 * (with a cursor to continue), matches, cells (with `nextCell`), part of a
 * page (with `nextOffset`) — and says that it did; this module only measures
 * and finds how much fits.
 */

/** The characters of `value` as the host sends it (compact JSON). */
export function jsonChars(value: unknown): number {
  return JSON.stringify(value)?.length ?? 0;
}

/**
 * The largest `n` in `[low, high]` for which `fits(n)` holds, when `fits` is
 * true up to some point and false after it (more items, more characters);
 * `low - 1` when even `low` does not fit. Binary search: O(log n) measurements.
 */
export function largestFitting(low: number, high: number, fits: (n: number) => boolean): number {
  if (high < low || !fits(low)) return low - 1;
  let good = low;
  let bad = high + 1;
  while (bad - good > 1) {
    const middle = Math.floor((good + bad) / 2);
    if (fits(middle)) good = middle;
    else bad = middle;
  }
  return good;
}

/**
 * Keeps as many leading items of `items` as fit: `make(kept)` builds the
 * answer around them, and the answer's JSON must be at most `maxChars`.
 * Returns the answer and how many items were left out (0 when all fit).
 * When not even `min` items fit, `min` are kept anyway (a page must advance);
 * the caller shortens them further.
 */
export function fitItems<T, R>(items: readonly T[], maxChars: number, make: (kept: readonly T[]) => R, min = 0): { readonly result: R; readonly omitted: number } {
  const all = make(items);
  if (jsonChars(all) <= maxChars) return { result: all, omitted: 0 };
  const kept = Math.max(min, largestFitting(0, items.length - 1, (n) => jsonChars(make(items.slice(0, n))) <= maxChars));
  return { result: make(items.slice(0, kept)), omitted: items.length - kept };
}
