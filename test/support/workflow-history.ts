import type { WorkflowHandle } from '@temporalio/client';

/** The activity type a local-activity marker records (its `data` detail is JSON with `activity_type`). */
function localActivityType(details: Record<string, { payloads?: { data?: Uint8Array | null }[] | null }> | null | undefined): string | undefined {
  const data = details?.data?.payloads?.[0]?.data;
  if (!data) return undefined;
  return (JSON.parse(Buffer.from(data).toString('utf8')) as { activity_type?: string }).activity_type;
}

/** Activity types a workflow ran, regular (scheduled) and local (recorded as markers), with their counts. */
export async function scheduledActivities(handle: WorkflowHandle): Promise<Record<string, number>> {
  const history = await handle.fetchHistory();
  const counts: Record<string, number> = {};
  for (const event of history.events ?? []) {
    const marker = event.markerRecordedEventAttributes;
    const name = event.activityTaskScheduledEventAttributes?.activityType?.name ?? (marker?.markerName === 'core_local_activity' ? localActivityType(marker.details) : undefined);
    if (name) counts[name] = (counts[name] ?? 0) + 1;
  }
  return counts;
}
