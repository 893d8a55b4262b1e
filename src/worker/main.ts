import { loadConfig } from '../config/config';
import { configStamp } from '../config/config-identity';
import { llmTaskQueue } from '../shared/task-queues';
import { createLogger } from '../logging/logger';
import { startWorker } from './run-worker';

/** Runs a worker in this process until SIGINT/SIGTERM. */
export async function runWorkerProcess(): Promise<void> {
  const config = loadConfig();
  const logger = createLogger(config.logLevel);
  const running = await startWorker(config, logger);
  process.stderr.write(`verity worker: serving task queue ${config.temporal.taskQueue} (and ${llmTaskQueue(config.temporal.taskQueue)}) for ${configStamp(config).label}\n`);
  const stop = () => void running.shutdown();
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  await running.done;
}

if (require.main === module) {
  runWorkerProcess().catch((err: unknown) => {
    process.stderr.write(`verity worker: ${(err as Error).message}\n`);
    process.exit(1);
  });
}
