/**
 * A worker process of the LLM queue as `verity worker` runs it (its pacer, its queue limit, its 429
 * reports), with the test workflow llmBurstWorkflow and the 429 controller on the main queue
 * (test-only: several processes share one queue).
 * VERITY_TEST_LLM_TASK names the claim-verdict task it registers. Prints `llm queue worker polling`.
 */
import path from 'node:path';
import { createLlmActivities } from '../../activities/llm.activities';
import { createLlmRateActivities } from '../../activities/llm-rate.activities';
import { loadConfig } from '../../src/config/config';
import { createLogger } from '../../src/logging/logger';
import { createVerityWorker } from '../../src/worker/create-worker';
import { createWorkerDependencies } from '../../src/worker/dependencies';
import { installTemporalRuntime } from '../../src/worker/run-worker';
import { registerClaimVerdictTask } from './llm-queue-harness';

async function main(): Promise<void> {
  registerClaimVerdictTask(process.env.VERITY_TEST_LLM_TASK ?? 'test.pacer');
  const config = loadConfig();
  const logger = createLogger(config.logLevel);
  installTemporalRuntime(logger);
  const deps = await createWorkerDependencies(config, logger, { llmRequestsPerSecond: config.llm.requestsPerSecond });
  const llmActivities = createLlmActivities({ gateway: deps.gateway, ...(deps.rateLimits ? { rateLimits: deps.rateLimits } : {}) });
  const { worker, connection } = await createVerityWorker({
    temporal: config.temporal,
    taskQueue: config.temporal.taskQueue,
    workflowsPath: path.join(__dirname, 'workflows', 'llm-burst-with-rate.workflow.ts'),
    activities: createLlmRateActivities(deps),
    llmActivities,
    llm: { requestsPerSecond: config.llm.requestsPerSecond, concurrency: config.llm.concurrency },
  });
  for (const signal of ['SIGTERM', 'SIGINT'] as const) process.once(signal, () => worker.shutdown());
  process.stderr.write('llm queue worker polling\n');
  try {
    await worker.run();
  } finally {
    await connection.close();
    await deps.close();
  }
}

if (require.main === module) {
  main().catch((err: unknown) => {
    process.stderr.write(`llm queue worker: ${(err as Error).message}\n`);
    process.exit(1);
  });
}
