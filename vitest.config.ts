import { defineConfig } from 'vitest/config';

// One vitest run over the whole workspace: each package is a project, so
// `pnpm test` at the root is the single test command CI and people use.
export default defineConfig({
  test: {
    projects: ['packages/*', 'extensions/*', 'apps/*'],
  },
});
