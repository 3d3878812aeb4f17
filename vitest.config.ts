import { defineConfig } from 'vitest/config';

// One vitest run over the whole workspace: each package is a project, so
// `pnpm test` at the root is the single test command CI and people use.
// In CI a JSON report is written too: CI cannot read vitest's own summary, so
// .ci/run prints "N passed, M failed" from it.
export default defineConfig({
  test: {
    projects: ['packages/*', 'extensions/*', 'apps/*'],
    reporters: process.env.CI ? ['default', ['json', { outputFile: '.vitest-report.json' }]] : ['default'],
  },
});
