/**
 * Compares a change to `@reactor/host` against the build before it, by what
 * a request costs the server (`driver/compare.ts` says how):
 *
 * ```sh
 * cp -r packages/host/dist packages/host/dist-before   # before the change
 * # …change the host, then: pnpm --filter @reactor/host build
 * node apps/bench/dist/compare.js packages/host/dist-before [--tools 100] [--method tools/call] [--era 2026] [--slice-ms 3000] [--rounds 10] [--telemetry]
 * ```
 *
 * `--telemetry` serves both builds with OpenTelemetry on (spans and the
 * operation histogram through the SDK, exported to nowhere), to compare
 * what a change costs or saves a traced request.
 *
 * The build to compare against must sit inside `packages/host` (its
 * dependencies resolve from there); `dist-before` is ignored by git.
 */
import { parseArgs } from 'node:util';
import { compareBuilds, comparisonReport } from './driver/compare.js';
import type { Era, Method } from './driver/wire.js';
import { wholeOption } from './wholeOption.js';

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    tools: { type: 'string' },
    method: { type: 'string' },
    era: { type: 'string' },
    'slice-ms': { type: 'string' },
    rounds: { type: 'string' },
    concurrency: { type: 'string' },
    telemetry: { type: 'boolean' },
  },
});
const before = positionals[0];
const ERAS: readonly Era[] = ['2026', '2025-stateless'];
const METHODS: readonly Method[] = ['tools/call', 'tools/list'];
const era = (values.era ?? '2026') as Era;
const method = (values.method ?? 'tools/call') as Method;
if (before === undefined || !ERAS.includes(era) || !METHODS.includes(method)) {
  process.stderr.write(`usage: node apps/bench/dist/compare.js <build-dir> [--tools N] [--method ${METHODS.join('|')}] [--era ${ERAS.join('|')}] [--slice-ms N] [--rounds N] [--concurrency N] [--telemetry]\n`);
  process.exit(2);
}
const comparison = await compareBuilds({
  before,
  tools: wholeOption(values.tools, 100),
  era,
  method,
  sliceMs: wholeOption(values['slice-ms'], 3_000),
  rounds: wholeOption(values.rounds, 10),
  concurrency: wholeOption(values.concurrency, 8),
  pin: true,
  telemetry: values.telemetry === true,
});
process.stdout.write(`${comparisonReport(comparison)}\n`);
