import type { Client } from '@temporalio/client';
import { defaultPayloadConverter, type Payload } from '@temporalio/common';

/**
 * The Temporal UI summaries of a workflow's activities, in history order: regular activities
 * (ActivityTaskScheduled) and local activities (recorded as markers with the same user metadata).
 */
export async function activitySummaries(client: Client, workflowId: string): Promise<string[]> {
  const history = await client.workflow.getHandle(workflowId).fetchHistory();
  return (history.events ?? []).flatMap((event) => {
    const summary = event.userMetadata?.summary;
    if (!(event.activityTaskScheduledEventAttributes || event.markerRecordedEventAttributes) || !summary?.data) return [];
    return [defaultPayloadConverter.fromPayload<string>(summary as Payload)];
  });
}

/** A workflow's static summary and details, and its current details (answered by a running worker). */
export async function workflowMetadata(client: Client, workflowId: string): Promise<{ summary?: string; details?: string; currentDetails?: string }> {
  const handle = client.workflow.getHandle(workflowId);
  const description = await handle.describe();
  const metadata = await handle.query<{ currentDetails?: string }>('__temporal_workflow_metadata');
  return { summary: await description.staticSummary(), details: await description.staticDetails(), ...(metadata.currentDetails ? { currentDetails: metadata.currentDetails } : {}) };
}
