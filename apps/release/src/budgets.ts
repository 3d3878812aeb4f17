/**
 * How large each package's tarball may be, in bytes. A budget is a tripwire
 * for shipping what nobody asked for (a data dump, a second build, test
 * fixtures): set each one with headroom over today's size, and raise it in the
 * same pull request that explains why the package grew. A package not listed
 * gets the default, so a new package is budgeted from its first release.
 */
const KiB = 1024;

/** The budget of a package not listed in {@link TARBALL_BUDGETS}. */
export const DEFAULT_TARBALL_BUDGET = 150 * KiB;

/** Per-package budgets (sizes seen at the time of writing in the comments). */
export const TARBALL_BUDGETS: Readonly<Record<string, number>> = {
  // ~552 KiB at 1.1.0 after the performance rounds (the HTTP fast path, its guards and shared servers); ~435 KiB before
  // them (208 KiB before round 2; ~275 KiB after the split and the 2026-07-28 protocol; then auth, the catalog seams,
  // the checker and watch mode, middleware, telemetry): dist with declarations and maps, and the sources the maps point to.
  // ~623 KiB after the layout by layer (its entry modules, the SDK-internals seam) and the round-2 security fixes,
  // with their changelog entries. ~687 KiB (published as 1.1.0, with the changesets' entries) once the
  // answer helpers (cursors, token budgets), dynamic toolsets, the session relay and the async access log landed.
  // ~765 KiB (744 KiB packed before versioning, then the changesets' entries) with MCP tasks (the engine, the memory
  // store, notifications/tasks), MCP Apps views (defineView, serving, the checker's rules) and the interrupted-request
  // answer of the failover work. ~800 KiB (with the changesets' entries) after issue 43's seven performance rounds of
  // the command as deployed: the async access log and its line writer, the fast path's lean dispatch and handler
  // context, answers written at the end of a turn, and the changelog entries that say what each measured.
  '@reactor/host': 860 * KiB,
  // The three first-party extensions ship a bundled MCP Apps view each (dist/views/*.html, ~90–120 KiB gzipped: ext-apps'
  // App and the MCP SDK and zod it runs on, inlined so the view fetches nothing): sizes measured with `pnpm pack`.
  '@reactor/ext-spaces': 290 * KiB, // ~242 KiB: ~100 KiB with the sample space, and the notebook view (marked, DOMPurify)
  '@reactor/ext-benchmarks': 220 * KiB, // ~178 KiB: ~70 KiB with the fixture run, and the compare_runs view
  '@reactor/ext-kernels': 250 * KiB, // ~208 KiB with the execution view
};

/** The budget of package `name`. */
export function tarballBudget(name: string): number {
  return TARBALL_BUDGETS[name] ?? DEFAULT_TARBALL_BUDGET;
}
