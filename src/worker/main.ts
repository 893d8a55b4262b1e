import { loadConfig } from '../config/config';
import { createLogger } from '../logging/logger';
import { startWorker } from './run-worker';

/** Runs a worker in this process until SIGINT/SIGTERM. */
export async function runWorkerProcess(): Promise<void> {
  const config = loadConfig();
  const logger = createLogger(config.logLevel);
  const running = await startWorker(config, logger);
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
