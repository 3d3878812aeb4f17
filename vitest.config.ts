import { defineConfig } from 'vitest/config';

// One vitest run over the whole workspace: each package is a project, so
// `pnpm test` at the root is the single test command CI and people use.
// In CI a JSON report is written too: CI cannot read vitest's own summary, so
// .ci/run prints "N passed, M failed" from it. It runs the suite on several Node
// lines and names each line's report with REACTOR_VITEST_REPORT.
export default defineConfig({
  test: {
    // The interop suite (apps/interop, apps/interop-latest) runs on its own: pnpm test:interop.
    projects: ['packages/*', 'extensions/*', 'apps/*', '!apps/interop', '!apps/interop-latest'],
    reporters: process.env.CI ? ['default', ['json', { outputFile: process.env.REACTOR_VITEST_REPORT ?? '.vitest-report.json' }]] : ['default'],
  },
});
