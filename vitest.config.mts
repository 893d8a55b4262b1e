import { defineConfig } from 'vitest/config';

/**
 * Test files that must have the machine to themselves: they run a real model on both cores, or
 * start servers of their own (a JVM, a Temporal dev server) whose start-up would starve the
 * timing of others. They run one at a time after everything else.
 */
const EXCLUSIVE = [
  'test/integration/real-model.test.ts',
  'test/integration/local-llm.test.ts',
  'test/integration/secured-elasticsearch.test.ts',
  'test/integration/temporal-crash.test.ts',
];

const INTEGRATION = {
  globalSetup: ['test/support/global-infra.ts'],
  // A safety net against a hang, not a speed budget: tests wait on conditions, and a busy
  // machine (CI beside other jobs, two CPU burners) may take many times an idle one's time.
  testTimeout: 600_000,
  hookTimeout: 900_000,
};

export default defineConfig({
  test: {
    pool: 'forks',
    reporters: ['default', './test/support/summary-reporter.ts'],
    testTimeout: 120_000,
    hookTimeout: 300_000,
    projects: [
      {
        extends: true,
        test: { name: 'unit', include: ['test/unit/**/*.test.ts'], maxWorkers: 2 },
      },
      {
        extends: true,
        test: {
          ...INTEGRATION,
          name: 'integration',
          include: ['test/integration/**/*.test.ts', 'test/replay/**/*.test.ts', 'test/e2e/**/*.test.ts'],
          exclude: EXCLUSIVE,
          // Two files at a time: every file isolates itself (its own index prefix, task queue and
          // simulator), and most of a file's time is spent waiting on Temporal timers, kills and retries.
          maxWorkers: 2,
        },
      },
      {
        extends: true,
        test: {
          ...INTEGRATION,
          name: 'integration-exclusive',
          include: EXCLUSIVE,
          fileParallelism: false,
          sequence: { groupOrder: 1 },
        },
      },
    ],
  },
});
