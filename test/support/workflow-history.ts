import type { WorkflowHandle } from '@temporalio/client';

/** Activity types scheduled by a workflow, with their counts. */
export async function scheduledActivities(handle: WorkflowHandle): Promise<Record<string, number>> {
  const history = await handle.fetchHistory();
  const counts: Record<string, number> = {};
  for (const event of history.events ?? []) {
    const name = event.activityTaskScheduledEventAttributes?.activityType?.name;
    if (name) counts[name] = (counts[name] ?? 0) + 1;
  }
  return counts;
}
