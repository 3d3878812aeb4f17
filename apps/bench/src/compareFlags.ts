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
import { compareNodeFlags, comparisonReport } from './driver/compare.js';
import type { Era, Method } from './driver/wire.js';
import { wholeOption } from './wholeOption.js';

const { values } = parseArgs({
  options: {
    flags: { type: 'string' },
    tools: { type: 'string' },
    method: { type: 'string' },
    era: { type: 'string' },
    'slice-ms': { type: 'string' },
    rounds: { type: 'string' },
    concurrency: { type: 'string' },
  },
});
const ERAS: readonly Era[] = ['2026', '2025-stateless'];
const METHODS: readonly Method[] = ['tools/call', 'tools/list'];
const era = (values.era ?? '2026') as Era;
const method = (values.method ?? 'tools/call') as Method;
const flags = values.flags?.split(' ').filter(Boolean) ?? [];
if (flags.length === 0 || !flags.every((f) => f.startsWith('--')) || !ERAS.includes(era) || !METHODS.includes(method)) {
  process.stderr.write(`usage: node apps/bench/dist/compareFlags.js --flags="--node-flag …" [--tools N] [--method ${METHODS.join('|')}] [--era ${ERAS.join('|')}] [--slice-ms N] [--rounds N] [--concurrency N]\n`);
  process.exit(2);
}
const comparison = await compareNodeFlags({
  flags,
  tools: wholeOption(values.tools, 100),
  era,
  method,
  sliceMs: wholeOption(values['slice-ms'], 1_000),
  rounds: wholeOption(values.rounds, 20),
  concurrency: wholeOption(values.concurrency, 8),
});
process.stdout.write(`${comparisonReport(comparison, { before: 'without', after: flags.join(' ') })}\n`);
