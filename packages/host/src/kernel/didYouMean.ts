/**
 * "Did you mean …?": the candidate nearest to a mistyped name (an option key,
 * a flag, a toolset), by edit distance. Small enough to own rather than add a
 * dependency to the host for it.
 */

/**
 * Edit distance counting insertions, deletions, substitutions and swaps of two
 * neighbours (the commonest typo: `prot` for `port`), case-insensitive.
 */
export function editDistance(a: string, b: string): number {
  const x = a.toLowerCase();
  const y = b.toLowerCase();
  const rows: number[][] = [Array.from({ length: y.length + 1 }, (_, j) => j)];
  for (let i = 1; i <= x.length; i++) {
    const row = [i];
    for (let j = 1; j <= y.length; j++) {
      let best = Math.min(rows[i - 1]![j]! + 1, row[j - 1]! + 1, rows[i - 1]![j - 1]! + (x[i - 1] === y[j - 1] ? 0 : 1));
      if (i > 1 && j > 1 && x[i - 1] === y[j - 2] && x[i - 2] === y[j - 1]) best = Math.min(best, rows[i - 2]![j - 2]! + 1);
      row[j] = best;
    }
    rows.push(row);
  }
  return rows[x.length]![y.length]!;
}

/**
 * The candidate nearest to `name`, or undefined when none is near enough to be
 * a plausible typo: within a third of the longer name's length (at least 1
 * edit), or a candidate that starts with what was typed (`--prot` → `--port`
 * is 1 edit; `--tool` → `--toolsets` is a prefix).
 */
export function nearest(name: string, candidates: Iterable<string>): string | undefined {
  let best: string | undefined;
  let bestDistance = Infinity;
  for (const candidate of candidates) {
    const distance = editDistance(name, candidate);
    if (distance < bestDistance) {
      best = candidate;
      bestDistance = distance;
    }
  }
  if (best === undefined || bestDistance === 0) return best;
  const allowed = Math.max(1, Math.floor(Math.max(name.length, best.length) / 3));
  if (bestDistance <= allowed) return best;
  const prefixed = [...candidates].find((c) => name.length >= 3 && c.toLowerCase().startsWith(name.toLowerCase()));
  return prefixed;
}

/** `; did you mean "x"?` or nothing, for the end of a message. */
export function didYouMean(name: string, candidates: Iterable<string>, quote: (s: string) => string = (s) => `"${s}"`): string {
  const match = nearest(name, candidates);
  return match === undefined || match === name ? '' : `did you mean ${quote(match)}?`;
}
