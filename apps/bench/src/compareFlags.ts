/**
 * Compares this workspace's Reactor under two sets of Node flags, by what a
 * request costs the server and how many it answers (`driver/compare.ts`):
 *
 * ```sh
 * node apps/bench/dist/compareFlags.js --flags=--single-threaded-gc [--tools 100] [--method tools/call] [--era 2026] [--slice-ms 1000] [--rounds 20]
 * ```
 *
 * Two server processes serve the same catalogue, the second started with
 * `--flags` (split on spaces; written `--flags=…`, as the value begins with
 * dashes); the load alternates between them.
 */
import { parseArgs } from 'node:util';
import { COMPARISON_OPTIONS, COMPARISON_USAGE, comparisonSettings } from './comparisonArgs.js';
import { compareNodeFlags, comparisonReport } from './driver/compare.js';

const { values } = parseArgs({ options: { ...COMPARISON_OPTIONS, flags: { type: 'string' } } });
const flags = values.flags?.split(' ').filter(Boolean) ?? [];
const settings = comparisonSettings(values, { sliceMs: 1_000, rounds: 20 });
if (flags.length === 0 || !flags.every((f) => f.startsWith('--')) || settings === undefined) {
  process.stderr.write(`usage: node apps/bench/dist/compareFlags.js --flags="--node-flag …" ${COMPARISON_USAGE}\n`);
  process.exit(2);
}
const comparison = await compareNodeFlags({ ...settings, flags });
process.stdout.write(`${comparisonReport(comparison, { before: 'without', after: flags.join(' ') })}\n`);
