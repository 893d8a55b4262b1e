import { ActivityFailure, ApplicationFailure, proxyActivities, workflowInfo } from '@temporalio/workflow';
import type { Activities } from '../activities';
import type { LlmTaskInput, LlmTaskResult } from '../src/llm/types';
import { llmTaskQueue } from '../src/shared/task-queues';
import { LLM_CALL } from './activity-options';
import type { LlmMeter } from './llm-meter';

export type LlmCaller = <T>(call: LlmTaskInput, summary: string) => Promise<LlmTaskResult<T>>;

/**
 * LLM calls of one workflow, on the rate-limited LLM task queue next to its own: each call carries
 * its summary to the Temporal UI and is recorded in the meter (a call that fails for good too).
 */
export function createLlmCaller(meter: LlmMeter): LlmCaller {
  const { llmTask } = proxyActivities<Activities>({ ...LLM_CALL, taskQueue: llmTaskQueue(workflowInfo().taskQueue) });
  return async <T>(call: LlmTaskInput, summary: string) => {
    try {
      const result = (await llmTask.executeWithOptions({ summary }, [call])) as LlmTaskResult<T>;
      meter.recordLlmCall(result as LlmTaskResult, summary);
      return result;
    } catch (err) {
      if (err instanceof ActivityFailure) meter.recordFailedLlmCall(call.task, summary, failureText(err));
      throw err;
    }
  };
}

function failureText(err: ActivityFailure): string {
  const cause = err.cause;
  return cause instanceof ApplicationFailure && cause.type ? `${cause.type}: ${cause.message}` : (cause?.message ?? err.message);
}
