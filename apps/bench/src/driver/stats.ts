/**
 * The arithmetic of the report: medians of per-round ratios (a ratio taken
 * within one round compares runs that saw the same machine drift), and the
 * formatting of figures.
 */

/** The median of a non-empty list (the mean of the middle two for an even count). */
export function median(values: readonly number[]): number {
  if (values.length === 0) throw new Error('the median of no values');
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

/** Per-round ratios `a[i] / b[i]` of two series measured in the same rounds. */
export function roundRatios(a: readonly number[], b: readonly number[]): number[] {
  if (a.length !== b.length) throw new Error(`series of ${a.length} and ${b.length} rounds cannot be paired`);
  return a.map((value, i) => value / b[i]!);
}

/** The median of the per-round ratios, with the smallest and largest. */
export function ratioSummary(a: readonly number[], b: readonly number[]): { median: number; min: number; max: number } {
  const ratios = roundRatios(a, b);
  return { median: median(ratios), min: Math.min(...ratios), max: Math.max(...ratios) };
}

/** `1234.5` → `1,235`; small numbers keep a decimal. */
export function formatRate(value: number): string {
  return value >= 100 ? Math.round(value).toLocaleString('en-US') : value.toFixed(1);
}

/** `3.14159` → `3.14×`. */
export function formatRatio(value: number): string {
  return `${value >= 10 ? value.toFixed(1) : value.toFixed(2)}×`;
}

/** Bytes as KiB or MiB. */
export function formatBytes(bytes: number): string {
  const abs = Math.abs(bytes);
  if (abs >= 1024 * 1024) return `${(bytes / 1024 / 1024).toFixed(1)} MiB`;
  if (abs >= 1024) return `${(bytes / 1024).toFixed(1)} KiB`;
  return `${Math.round(bytes)} B`;
}

/**
 * Visits `items` in an order that rotates every two rounds, so no item always runs
 * first (after a pause) or last (after the heaviest), and that runs backwards
 * every other round, so of two items measured back to back on one server
 * neither always meets it cold: the pair's ratio would otherwise carry that bias.
 */
export function rotation<T>(items: readonly T[], round: number): T[] {
  if (items.length === 0) return [];
  // Rounds come in pairs: one shift, forwards then backwards, so every two items swap places within each pair.
  const shift = Math.floor(round / 2) % items.length;
  const rotated = [...items.slice(shift), ...items.slice(0, shift)];
  return round % 2 === 1 ? rotated.reverse() : rotated;
}

/** Renders a Markdown table (the same text goes to the terminal and to docs/performance.md). */
export function markdownTable(header: readonly string[], rows: ReadonlyArray<readonly string[]>): string {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const line = (cells: readonly string[]) => `| ${cells.map((c, i) => c.padEnd(widths[i]!)).join(' | ')} |`;
  return [line(header), `| ${widths.map((w) => '-'.repeat(w)).join(' | ')} |`, ...rows.map(line)].join('\n');
}
