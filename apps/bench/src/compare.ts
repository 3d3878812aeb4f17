/**
 * Compares a change to `@reactor/host` against the build before it, by what
 * a request costs the server (`driver/compare.ts` says how):
 *
 * ```sh
 * cp -r packages/host/dist packages/host/dist-before   # before the change
 * # …change the host, then: pnpm --filter @reactor/host build
 * node apps/bench/dist/compare.js packages/host/dist-before [--tools 100] [--method tools/call] [--era 2026] [--slice-ms 3000] [--rounds 10] [--telemetry] [--middleware]
 * ```
 *
 * `--telemetry` serves both builds with OpenTelemetry on (spans and the
 * operation histogram through the SDK, exported to nowhere), to compare
 * what a change costs or saves a traced request. `--middleware` serves
 * both with one no-op middleware wrapping every `tools/call`.
 *
 * The build to compare against must sit inside `packages/host` (its
 * dependencies resolve from there); `dist-before` is ignored by git.
 */
import { parseArgs } from 'node:util';
import { COMPARISON_OPTIONS, COMPARISON_USAGE, comparisonSettings } from './comparisonArgs.js';
import { compareBuilds, comparisonReport } from './driver/compare.js';

const { values, positionals } = parseArgs({ allowPositionals: true, options: { ...COMPARISON_OPTIONS, telemetry: { type: 'boolean' }, middleware: { type: 'boolean' } } });
const before = positionals[0];
const settings = comparisonSettings(values, { sliceMs: 3_000, rounds: 10 });
if (before === undefined || settings === undefined) {
  process.stderr.write(`usage: node apps/bench/dist/compare.js <build-dir> ${COMPARISON_USAGE} [--telemetry] [--middleware]\n`);
  process.exit(2);
}
const comparison = await compareBuilds({ ...settings, before, pin: true, telemetry: values.telemetry === true, middleware: values.middleware === true });
process.stdout.write(`${comparisonReport(comparison)}\n`);
