import { defineProject } from 'vitest/config';

/**
 * The per-package vitest settings. The `@reactor/source` condition makes
 * workspace packages resolve to their TypeScript sources, so tests never need
 * a prior build of a sibling package.
 */
export function reactorProject(name: string) {
  return defineProject({
    ssr: { resolve: { conditions: ['@reactor/source'] } },
    resolve: { conditions: ['@reactor/source'] },
    test: {
      name,
      include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
      environment: 'node',
      testTimeout: 20_000,
      hookTimeout: 30_000,
    },
  });
}
