/**
 * The command-line options the two comparison commands (`compare.ts`,
 * `compareFlags.ts`) share: which load, how long, how many pairs.
 */
import type { ParseArgsConfig } from 'node:util';
import type { CompareOptions } from './driver/compare.js';
import type { Era, Method } from './driver/wire.js';
import { wholeOption } from './wholeOption.js';

/** The shared options, for `parseArgs`. */
export const COMPARISON_OPTIONS = {
  tools: { type: 'string' },
  method: { type: 'string' },
  era: { type: 'string' },
  'slice-ms': { type: 'string' },
  rounds: { type: 'string' },
  concurrency: { type: 'string' },
} as const satisfies NonNullable<ParseArgsConfig['options']>;

const ERAS: readonly Era[] = ['2026', '2025-stateless'];
const METHODS: readonly Method[] = ['tools/call', 'tools/list'];

/** The shared options as a usage line shows them. */
export const COMPARISON_USAGE = `[--tools N] [--method ${METHODS.join('|')}] [--era ${ERAS.join('|')}] [--slice-ms N] [--rounds N] [--concurrency N]`;

/** What the shared options ask for: the part of a comparison's options both commands take. */
export type ComparisonSettings = Pick<CompareOptions, 'tools' | 'era' | 'method' | 'sliceMs' | 'rounds' | 'concurrency'>;

/** The settings from parsed options (each command its own slice length and rounds), or `undefined` for an unknown era or method. */
export function comparisonSettings(values: { readonly [K in keyof typeof COMPARISON_OPTIONS]?: string | undefined }, defaults: { readonly sliceMs: number; readonly rounds: number }): ComparisonSettings | undefined {
  const era = (values.era ?? '2026') as Era;
  const method = (values.method ?? 'tools/call') as Method;
  if (!ERAS.includes(era) || !METHODS.includes(method)) return undefined;
  return {
    tools: wholeOption(values.tools, 100),
    era,
    method,
    sliceMs: wholeOption(values['slice-ms'], defaults.sliceMs),
    rounds: wholeOption(values.rounds, defaults.rounds),
    concurrency: wholeOption(values.concurrency, 8),
  };
}
