import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    pool: 'forks',
    testTimeout: 120_000,
    hookTimeout: 300_000,
    projects: [
      {
        extends: true,
        test: { name: 'unit', include: ['test/unit/**/*.test.ts'] },
      },
      {
        extends: true,
        test: {
          name: 'integration',
          include: ['test/integration/**/*.test.ts', 'test/replay/**/*.test.ts', 'test/e2e/**/*.test.ts'],
          globalSetup: ['test/support/global-infra.ts'],
          fileParallelism: false,
        },
      },
    ],
  },
});
