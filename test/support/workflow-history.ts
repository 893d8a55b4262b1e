import type { Client, WorkflowHandle } from '@temporalio/client';
import { Worker } from '@temporalio/worker';
import { replayOptions } from './replay-options';

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

/**
 * Replays each finished workflow's whole history once with the current workflow code and fails on
 * any non-determinism. Linear in the history, unlike a worker with `maxCachedWorkflows: 0`, which
 * replays the history at every workflow task and grows quadratic with long methods.
 */
export async function expectDeterministicReplay(handles: WorkflowHandle[]): Promise<void> {
  await expectReplays(await Promise.all(handles.map(async (handle) => ({ workflowId: handle.workflowId, history: await handle.fetchHistory() }))));
}

/** Every closed workflow (children included) that ran on a task queue, replayed once: a test file's afterAll. */
export async function expectTaskQueueReplays(client: Client, taskQueue: string): Promise<number> {
  const histories = client.workflow.list({ query: `TaskQueue = '${taskQueue}' AND ExecutionStatus != 'Running'` }).intoHistories();
  return expectReplays(histories);
}

async function expectReplays(histories: Parameters<typeof Worker.runReplayHistories>[1]): Promise<number> {
  const failures: string[] = [];
  let replayed = 0;
  for await (const result of Worker.runReplayHistories(await replayOptions(), histories)) {
    replayed += 1;
    if (result.error) failures.push(`${result.workflowId}: ${result.error.message}`);
  }
  if (failures.length > 0) throw new Error(`replay with the current workflow code failed:\n${failures.join('\n')}`);
  return replayed;
}
