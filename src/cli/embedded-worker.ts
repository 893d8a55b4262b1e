import type { Client } from '@temporalio/client';
import type { VerityConfig } from '../config/config';
import { hasWorkflowPollers } from '../client/worker-presence';
import type { Logger } from '../logging/logger';
import { startWorker } from '../worker/run-worker';
import { notice } from './output';

/**
 * Runs a worker in this process for as long as the command needs it (the default), or relies on
 * workers started with `verity worker`. Poller lists cannot tell a live worker from one killed a
 * minute ago, so the in-process worker is not skipped on their word alone.
 */
export async function ensureWorker(
  config: VerityConfig,
  client: Client,
  logger: Logger,
  options: { embedded: boolean },
): Promise<{ stop(options?: { withinMs?: number }): Promise<void> }> {
  if (!options.embedded) {
    if (!(await hasWorkflowPollers(client, config.temporal.taskQueue))) {
      notice(`no worker polls task queue "${config.temporal.taskQueue}"; start one with \`verity worker\``);
    }
    return { stop: async () => {} };
  }
  const running = await startWorker(config, logger);
  return {
    async stop(options = {}) {
      const stopped = running.shutdown();
      if (options.withinMs === undefined) return stopped;
      // A step retrying inside a workflow task (a local activity) holds the worker's drain: give up waiting.
      let timer: NodeJS.Timeout | undefined;
      const gaveUp = await Promise.race([
        stopped.then(() => false),
        new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(true), options.withinMs).unref())),
      ]);
      clearTimeout(timer);
      if (gaveUp) notice(`the in-process worker did not stop within ${options.withinMs / 1000} s (a step is still retrying); leaving it, the workflow continues on the next worker`);
    },
  };
}
