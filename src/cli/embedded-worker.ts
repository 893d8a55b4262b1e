import type { Client } from '@temporalio/client';
import type { VerityConfig } from '../config/config';
import { hasWorkflowPollers } from '../client/worker-presence';
import type { Logger } from '../logging/logger';
import { startWorker } from '../worker/run-worker';
import { notice } from './output';

/**
 * Uses the workers already polling the task queue; when there are none, runs one in this
 * process for as long as the command needs it.
 */
export async function ensureWorker(config: VerityConfig, client: Client, logger: Logger): Promise<{ stop(): Promise<void> }> {
  if (await hasWorkflowPollers(client, config.temporal.taskQueue)) {
    return { stop: async () => {} };
  }
  notice(`no worker polls task queue "${config.temporal.taskQueue}"; running one in this process (start a lasting one with \`verity worker\`)`);
  const running = await startWorker(config, logger);
  return { stop: () => running.shutdown() };
}
