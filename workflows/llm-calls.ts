import { ActivityCancellationType, ActivityFailure, ApplicationFailure, isCancellation, proxyActivities, TemporalFailure, workflowInfo } from '@temporalio/workflow';
import { proxyOrderedLocalActivities } from './local-activity-order';
import type { Activities } from '../activities';
import type { LlmTaskInput, LlmTaskResult } from '../src/llm/types';
import { FAILURE_TYPES } from '../src/shared/constants';
import { readInvalidOutputDetails } from '../src/shared/invalid-answer';
import { llmTaskQueue } from '../src/shared/task-queues';
import { LLM_CACHE_LOOKUP, LLM_CALL } from './activity-options';
import { hasPatch } from './has-patch';
import type { LlmMeter } from './llm-meter';
import { PATCHES } from '../src/shared/patches';
import { type BatchLaneSettings, resolvedBatchSettings } from '../src/shared/batch';
import { LLM_BATCH_CALL } from './batch-options';

/** Ends the Temporal UI summary of a call's request-cache lookup (the call's own summary before it). */
export const CACHE_LOOKUP_SUFFIX = ' · cache lookup';

export type LlmCaller = <T>(call: LlmTaskInput, summary: string) => Promise<LlmTaskResult<T>>;

/**
 * LLM calls of one workflow, on the rate-limited LLM task queue next to its own: each call carries
 * its summary to the Temporal UI and is recorded in the meter (a call that fails for good too).
 * A call whose answer is already in the request cache is served by a local activity and never
 * takes a slot of the queue's rate (executions recorded before that patch replay as they were).
 */
export function createLlmCaller(meter: LlmMeter, batch?: { lane: BatchLaneSettings; defaultModel: string }): LlmCaller {
  // Waiting for a cancelled call to close lets its answer, already paid for, be cached and counted.
  const cancellation = hasPatch(PATCHES.cancelWaitsForPaidCalls) ? { cancellationType: ActivityCancellationType.WAIT_CANCELLATION_COMPLETED } : {};
  const { llmTask } = proxyActivities<Activities>({ ...LLM_CALL, ...cancellation, taskQueue: llmTaskQueue(workflowInfo().taskQueue) });
  // Batch calls wait on the workflow's own queue: they send nothing to the endpoint themselves (their collector does).
  const { llmBatchTask } = proxyActivities<Activities>(LLM_BATCH_CALL);
  const batched = (call: LlmTaskInput) => batch !== undefined && batch.lane.models.includes(call.model ?? batch.defaultModel) && hasPatch(PATCHES.batchLane);
  const paidCall = (call: LlmTaskInput, summary: string) =>
    batched(call)
      ? llmBatchTask.executeWithOptions({ summary: `${summary} · batch` }, [{ call, settings: resolvedBatchSettings(batch!.lane) }])
      : llmTask.executeWithOptions({ summary }, [call]);
  const { llmCachedAnswer } = proxyOrderedLocalActivities<Activities>(LLM_CACHE_LOOKUP);
  const fromCache = async (call: LlmTaskInput, summary: string): Promise<LlmTaskResult | null> => {
    if (!hasPatch(PATCHES.llmCacheBeforeQueue)) return null;
    try {
      return await llmCachedAnswer.executeWithOptions({ summary: `${summary}${CACHE_LOOKUP_SUFFIX}` }, [call]);
    } catch (err) {
      if (err instanceof ActivityFailure) return null;
      if (err instanceof TemporalFailure && !isCancellation(err) && hasPatch(PATCHES.cacheLookupFailureIsMiss)) return null;
      throw err;
    }
  };
  return async <T>(call: LlmTaskInput, summary: string) => {
    try {
      const result = ((await fromCache(call, summary)) ?? (await paidCall(call, summary))) as LlmTaskResult<T>;
      meter.recordLlmCall(result as LlmTaskResult, summary);
      return result;
    } catch (err) {
      if (err instanceof ActivityFailure) recordFailure(meter, call.task, summary, err);
      throw err;
    }
  };
}

/** An invalid answer counts (a paid one with its usage); any other failure is only kept in the transcript. */
function recordFailure(meter: LlmMeter, task: string, summary: string, err: ActivityFailure): void {
  const cause = err.cause;
  const invalid = cause instanceof ApplicationFailure && cause.type === FAILURE_TYPES.llmOutputInvalid;
  if (invalid && hasPatch(PATCHES.invalidAnswersCounted)) meter.recordInvalidLlmCall(task, summary, failureText(err), readInvalidOutputDetails(cause.details));
  else meter.recordFailedLlmCall(task, summary, failureText(err));
}

function failureText(err: ActivityFailure): string {
  const cause = err.cause;
  return cause instanceof ApplicationFailure && cause.type ? `${cause.type}: ${cause.message}` : (cause?.message ?? err.message);
}
