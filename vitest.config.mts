import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    pool: 'forks',
    reporters: ['default', './test/support/summary-reporter.ts'],
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
          // A safety net against a hang, not a speed budget: tests wait on conditions, and a busy
          // machine (CI beside other jobs, two CPU burners) may take many times an idle one's time.
          testTimeout: 600_000,
          hookTimeout: 900_000,
        },
      },
    ],
  },
});
