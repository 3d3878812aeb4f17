/**
 * The release rehearsal (private to this repository): what `pnpm
 * release:local` runs and `test/release.test.ts` checks.
 */
export { DEFAULT_TARBALL_BUDGET, TARBALL_BUDGETS, tarballBudget } from './budgets.js';
export { kib, packageProblems, type PackedPackage } from './packageChecks.js';
export {
  CONSUMER_PACKAGES,
  HOST_PACKAGE,
  INCOMPATIBLE_CODE,
  rehearseRelease,
  releaseProblems,
  type PeerRangeCheck,
  type PublishedTarball,
  type RehearsalOptions,
  type ReleaseReport,
} from './rehearsal.js';
export { publicPackages, type PublicPackage } from './workspace.js';
export { formatReport } from './format.js';
