import { proxyActivities, workflowInfo } from '@temporalio/workflow';
import type { LlmTaskInput, LlmTaskResult } from '../../../src/llm/types';

/** Test-only workflow: `claims.length` calls of LLM task `task` on the LLM queue, all started at once. */
export async function llmBurstWorkflow(task: string, claims: string[]): Promise<number> {
  const { llmTask } = proxyActivities<{ llmTask(input: LlmTaskInput): Promise<LlmTaskResult> }>({
    startToCloseTimeout: '1 minute',
    taskQueue: `${workflowInfo().taskQueue}-llm`,
  });
  const results = await Promise.all(claims.map((claim) => llmTask({ task, variables: { claim } })));
  return results.length;
}
