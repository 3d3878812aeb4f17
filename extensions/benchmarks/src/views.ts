/**
 * The extension's MCP Apps views. scripts/build-views.mjs bundles each
 * views/<name>.ts (with ext-apps' `App`) into one self-contained
 * dist/views/<name>.html; the URL is taken from the package root, so it is
 * the same file whether this module runs from src/ (tests) or dist/.
 */
import { defineView } from '@reactor/host';

const packageRoot = new URL('..', import.meta.url);

/** `compare_runs` drawn: per-task score deltas, flipped tasks highlighted, a task's trajectory on demand (`get_trajectory`). */
export const COMPARE_RUNS_VIEW = defineView({
  uri: 'ui://benchmarks/compare-runs',
  title: 'Compare runs',
  description: 'Per-task score deltas of two runs as a chart, the flipped tasks highlighted; shows a task\'s trajectory and answer on demand.',
  html: new URL('dist/views/compareRuns.html', packageRoot),
});
