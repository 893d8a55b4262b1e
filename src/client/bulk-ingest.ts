import { type Client, type WorkflowHandle, WorkflowExecutionAlreadyStartedError } from '@temporalio/client';
import { WorkflowIdReusePolicy } from '@temporalio/common';
import type { bulkIngestWorkflow } from '../../workflows';
import { bulkIngestWorkflowId, type BulkIngestInput, type BulkIngestProgress, type BulkIngestResult } from '../shared/bulk-ingest';
import { workflowMemo } from './workflow-memo';

/** The query name of workflows/bulk-ingest.workflow.ts (a string: the client does not load workflow code). */
const PROGRESS_QUERY = 'bulkIngestProgress';

/** Starts the bulk ingest, or attaches to the running one with the same identity (a rerun after a crash). */
export async function startBulkIngest(client: Client, taskQueue: string, input: BulkIngestInput): Promise<{ handle: WorkflowHandle<typeof bulkIngestWorkflow>; attached: boolean }> {
  const workflowId = bulkIngestWorkflowId(input);
  const existing = client.workflow.getHandle<typeof bulkIngestWorkflow>(workflowId);
  const running = await existing.describe().then((description) => description.status.name === 'RUNNING', () => false);
  if (running) return { handle: existing, attached: true };
  try {
    const handle = await client.workflow.start<typeof bulkIngestWorkflow>('bulkIngestWorkflow', {
      workflowId,
      taskQueue,
      args: [input],
      memo: workflowMemo(undefined, undefined),
      workflowIdReusePolicy: WorkflowIdReusePolicy.ALLOW_DUPLICATE,
      workflowIdConflictPolicy: 'USE_EXISTING',
      staticSummary: `bulk ingest · ${input.corpus.total} passages → ${input.index}`,
    });
    return { handle, attached: false };
  } catch (err) {
    if (err instanceof WorkflowExecutionAlreadyStartedError) return { handle: client.workflow.getHandle<typeof bulkIngestWorkflow>(workflowId), attached: true };
    throw err;
  }
}

/** Where the ingest stands (undefined while no worker answers the query, e.g. all of them killed). */
export async function bulkIngestProgress(handle: WorkflowHandle<typeof bulkIngestWorkflow>): Promise<BulkIngestProgress | undefined> {
  try {
    return await handle.query<BulkIngestProgress>(PROGRESS_QUERY);
  } catch {
    return undefined;
  }
}

/** Waits for the ingest's result, handing its progress to `onProgress` every `intervalMs`. */
export async function followBulkIngest(
  handle: WorkflowHandle<typeof bulkIngestWorkflow>,
  onProgress: (progress: BulkIngestProgress) => void,
  intervalMs = 2_000,
): Promise<BulkIngestResult> {
  let finished = false;
  const result = handle.result().finally(() => (finished = true));
  const poll = (async () => {
    while (!finished) {
      const progress = await bulkIngestProgress(handle);
      if (progress) onProgress(progress);
      await new Promise((resolve) => setTimeout(resolve, intervalMs));
    }
  })();
  const outcome = await result;
  await poll;
  // The last poll may predate the end: the result says where it ended.
  onProgress({ nextBatch: outcome.batches, batches: outcome.batches, passages: outcome.passages, total: outcome.passages, checksum: outcome.checksum, startedAt: outcome.startedAt, inFlight: 0 });
  return outcome;
}
