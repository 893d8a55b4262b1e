import type { Client } from '@temporalio/client';
import { findStuckWorkflows, type StuckWorkflow } from '../client/stuck-workflows';

const POLL_MS = 5_000;

/**
 * While a workflow runs, looks every few seconds for a workflow task that keeps failing in it or in
 * its children; resolves with the first stuck ones found (a workflow that cannot progress is never
 * waited for in silence). `stop()` ends the watch.
 */
export function watchForStuck(client: Client, workflowId: string, pollMs = POLL_MS): { stuck: Promise<StuckWorkflow[]>; stop(): void } {
  let stopped = false;
  const stuck = new Promise<StuckWorkflow[]>((resolve) => {
    const poll = async () => {
      while (!stopped) {
        await new Promise((wake) => setTimeout(wake, pollMs).unref());
        if (stopped) return;
        const found = await findStuckWorkflows(client, [workflowId]).catch(() => []);
        if (found.length > 0) return resolve(found);
      }
    };
    void poll();
  });
  return {
    stuck,
    stop() {
      stopped = true;
    },
  };
}
