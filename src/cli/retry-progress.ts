import type { WorkflowHandle } from '@temporalio/client';
import { localRetriesQuery } from '../shared/definitions/local-retries';
import { notice } from './output';

const POLL_MS = 5_000;

/**
 * While a workflow runs, reports each retried activity attempt once, with its last failure (which
 * names the endpoint and the attempt): an outage or a hanging endpoint is never silent. Local
 * activities (short Elasticsearch steps) retry in the worker, out of the workflow's description:
 * the workflow's `localRetries` query names them.
 */
export function reportRetries(handle: WorkflowHandle, say: (line: string) => void = notice): () => void {
  const reported = new Set<string>();
  let stopped = false;
  const poll = async () => {
    while (!stopped) {
      await new Promise((resolve) => setTimeout(resolve, POLL_MS).unref());
      if (stopped) return;
      const description = await handle.describe().catch(() => undefined);
      for (const activity of description?.raw.pendingActivities ?? []) {
        const attempt = activity.attempt ?? 1;
        const key = `${activity.activityId}/${attempt}`;
        if (attempt < 2 || reported.has(key)) continue;
        reported.add(key);
        const failure = activity.lastFailure?.message ?? 'no answer yet';
        say(`retrying ${activity.activityType?.name ?? 'activity'} (attempt ${attempt}): ${failure.split('\n')[0]}`);
      }
      // Workflows started before the query existed do not answer it.
      const local = await handle.query(localRetriesQuery).catch(() => []);
      for (const { step, attempt } of local) {
        const key = `local:${step}/${attempt}`;
        if (reported.has(key)) continue;
        reported.add(key);
        say(`retrying ${step} (attempt ${attempt}): a short step in the worker; its last error is in the worker's log`);
      }
    }
  };
  void poll();
  return () => {
    stopped = true;
  };
}
