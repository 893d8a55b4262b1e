import { IllegalStateError } from '@temporalio/common';
import { Runtime } from '@temporalio/worker';
import { createActivities } from '../../activities';
import type { VerityConfig } from '../config/config';
import { configStamp } from '../config/config-identity';
import type { Logger } from '../logging/logger';
import { PinoTemporalLogger } from '../logging/temporal-logger';
import { createVerityWorker } from './create-worker';
import { createWorkerDependencies } from './dependencies';

let runtimeInstalled = false;

/**
 * Routes SDK logs through pino; the Runtime can be installed once per process, and not after a
 * worker of the process (e.g. a test's) created the default one: that one is kept then.
 */
export function installTemporalRuntime(logger: Logger): void {
  if (runtimeInstalled) return;
  runtimeInstalled = true;
  try {
    Runtime.install({ logger: new PinoTemporalLogger(logger.child({ component: 'temporal' })) });
  } catch (err) {
    if (!(err instanceof IllegalStateError)) throw err;
  }
}

export interface RunningWorker {
  /** Resolves when the worker has stopped. */
  done: Promise<void>;
  shutdown(): Promise<void>;
}

/** Starts the workers of the configured task queue and its LLM queue; `shutdown()` drains it and releases everything. */
export async function startWorker(config: VerityConfig, logger: Logger): Promise<RunningWorker> {
  installTemporalRuntime(logger);
  const deps = await createWorkerDependencies(config, logger, { llmRequestsPerSecond: config.llm.requestsPerSecond });
  let created: Awaited<ReturnType<typeof createVerityWorker>>;
  try {
    created = await createVerityWorker({
      temporal: config.temporal,
      taskQueue: config.temporal.taskQueue,
      activities: createActivities(deps),
      llm: { requestsPerSecond: config.llm.requestsPerSecond, concurrency: config.llm.concurrency },
      tuning: config.workerTuning,
      configStamp: configStamp(config),
    });
  } catch (err) {
    await deps.close();
    throw err;
  }
  const { worker, connection } = created;
  const done = worker.run().finally(async () => {
    await connection.close();
    await deps.close();
  });
  logger.info({ taskQueue: config.temporal.taskQueue, address: config.temporal.address }, 'worker started');
  return {
    done,
    async shutdown() {
      worker.shutdown();
      await done;
    },
  };
}
