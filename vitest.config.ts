import { defineConfig } from 'vitest/config';

// One vitest run over the whole workspace: each package is a project, so
// `pnpm test` at the root is the single test command CI and people use.
// In CI a JSON report is written too: CI cannot read vitest's own summary, so
// .ci/run prints "N passed, M failed" from it. It runs the suite on several Node
// lines and names each line's report with REACTOR_VITEST_REPORT.
// REACTOR_VITEST_SKIP_PROJECTS (a comma list of project folders) leaves projects out:
// CI's extra Node lines skip the benchmark harness and the release rehearsal, tooling
// the maintainers run on the main line, not the server on that Node.
const skipped = (process.env.REACTOR_VITEST_SKIP_PROJECTS ?? '').split(',').map((p) => p.trim()).filter((p) => p !== '').map((p) => `!${p}`);

export default defineConfig({
  test: {
    // The interop suite (apps/interop, apps/interop-latest) runs on its own: pnpm test:interop.
    projects: ['packages/*', 'extensions/*', 'apps/*', '!apps/interop', '!apps/interop-latest', ...skipped],
    reporters: process.env.CI ? ['default', ['json', { outputFile: process.env.REACTOR_VITEST_REPORT ?? '.vitest-report.json' }]] : ['default'],
  },
});
