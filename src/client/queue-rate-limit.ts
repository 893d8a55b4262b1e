import type { Client } from '@temporalio/client';
import { temporal } from '@temporalio/proto';

const ACTIVITY_QUEUE = temporal.api.enums.v1.TaskQueueType.TASK_QUEUE_TYPE_ACTIVITY;

/**
 * The activity task queue's queue-wide rate limit (UpdateTaskQueueConfig): the server enforces it
 * across all the queue's workers, over the limit they set themselves; null removes it, and the
 * workers' own limit applies again.
 */
export async function setQueueRateLimit(client: Client, taskQueue: string, requestsPerSecond: number | null, reason: string): Promise<void> {
  await client.workflowService.updateTaskQueueConfig({
    namespace: client.options.namespace,
    identity: client.options.identity,
    taskQueue,
    taskQueueType: ACTIVITY_QUEUE,
    updateQueueRateLimit: requestsPerSecond === null ? { reason } : { rateLimit: { requestsPerSecond }, reason },
  });
}

/** The queue-wide rate limit set on the activity task queue, if any. */
export async function queueRateLimitOf(client: Client, taskQueue: string): Promise<number | undefined> {
  const response = await client.workflowService.describeTaskQueue({
    namespace: client.options.namespace,
    taskQueue: { name: taskQueue },
    taskQueueType: ACTIVITY_QUEUE,
    reportConfig: true,
  });
  return response.config?.queueRateLimit?.rateLimit?.requestsPerSecond ?? undefined;
}
