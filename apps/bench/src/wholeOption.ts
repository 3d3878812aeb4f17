/**
 * A whole-number command-line option of the bench's commands (`main.ts`, and
 * the comparison commands through `comparisonArgs.ts`): its value, at least 1,
 * or `fallback` when it is absent or not a number.
 */
export function wholeOption(value: string | undefined, fallback: number): number {
  return value === undefined ? fallback : Math.max(1, Number.parseInt(value, 10) || fallback);
}
