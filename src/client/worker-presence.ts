import type { Client } from '@temporalio/client';

// Enum values of temporal.api.enums.v1 (TaskQueueKind.NORMAL, TaskQueueType.WORKFLOW).
const TASK_QUEUE_KIND_NORMAL = 1;
const TASK_QUEUE_TYPE_WORKFLOW = 1;

/** True when at least one worker polls the task queue for workflow tasks. */
export async function hasWorkflowPollers(client: Client, taskQueue: string): Promise<boolean> {
  const response = await client.workflowService.describeTaskQueue({
    namespace: client.options.namespace,
    taskQueue: { name: taskQueue, kind: TASK_QUEUE_KIND_NORMAL },
    taskQueueType: TASK_QUEUE_TYPE_WORKFLOW,
  });
  return (response.pollers ?? []).length > 0;
}
