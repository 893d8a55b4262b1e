import { allHandlersFinished, condition, continueAsNew, defineQuery, defineSignal, proxyActivities, setHandler, workflowInfo } from '@temporalio/workflow';
import type { Activities } from '../activities';
import {
  addBatchRequest,
  BATCH_DEFAULTS,
  BATCH_COLLECTOR_STATUS_QUERY,
  BATCH_REQUEST_SIGNAL,
  type BatchCollectorInput,
  type BatchCollectorStatus,
  type BatchRequestSignal,
  type CollectedRequest,
  emptyCollectorState,
  type SubmittedBatch,
  submissionId,
} from '../src/shared/batch';
import { BATCH_HTTP } from './batch-options';

export const batchRequestSignal = defineSignal<[BatchRequestSignal]>(BATCH_REQUEST_SIGNAL);
export const batchCollectorStatusQuery = defineQuery<BatchCollectorStatus>(BATCH_COLLECTOR_STATUS_QUERY);

/** A collector with nothing to do for this long ends; the next call starts a new one (signal-with-start). */
const IDLE_MS = 10 * 60_000;

/**
 * Collects one model's LLM calls (signals from `llmBatchTask`), submits them as provider batches
 * (by count or after maxWaitMs), polls each batch with durable timers, and hands the answers to
 * `deliverLlmBatch`, which caches them and completes the waiting activities. Requests left without
 * an answer (expired batch, failed line) are submitted again, only they.
 */
export async function batchCollectorWorkflow(input: BatchCollectorInput): Promise<void> {
  const { settings } = input;
  const state = input.state ?? emptyCollectorState();
  const { submitLlmBatch, pollLlmBatch, deliverLlmBatch } = proxyActivities<Activities>(BATCH_HTTP);
  // Stable across continue-as-new, new for a collector started again after it ended: submission ids never repeat.
  const collectorId = `verity:${input.model.slice(0, 100)}:${workflowInfo().firstExecutionRunId}`;
  let firstQueuedAt: number | undefined = state.queue.length > 0 ? Date.now() : undefined;
  const nextPollAt = new Map<string, number>();

  setHandler(batchCollectorStatusQuery, () => ({ waiting: Object.keys(state.requests).length, queued: state.queue.length, inFlight: state.inFlight.map((batch) => batch.batchId), submissions: state.seq, continuedAsNew: state.continuedAsNew ?? 0 }));
  setHandler(batchRequestSignal, (signal) => {
    addBatchRequest(state, signal);
    if (firstQueuedAt === undefined && state.queue.length > 0) firstQueuedAt = Date.now();
  });

  const submit = async () => {
    const keys = state.queue.splice(0, settings.maxRequests);
    firstQueuedAt = state.queue.length > 0 ? Date.now() : undefined;
    const requests = keys.map((key) => state.requests[key]).filter((request): request is CollectedRequest => request !== undefined);
    for (const request of requests) request.submissions += 1;
    state.seq += 1;
    const submission = submissionId(collectorId, state.seq);
    const { batchId, settled } = await submitLlmBatch({ submission, requests });
    for (const key of settled) delete state.requests[key];
    if (!batchId) return;
    state.inFlight.push({ submission, batchId, requestKeys: requests.map((request) => request.requestKey).filter((key) => !settled.includes(key)), submittedAt: Date.now() });
    nextPollAt.set(batchId, Date.now() + settings.pollMs);
  };

  const pollAndDeliver = async (batch: SubmittedBatch) => {
    const status = await pollLlmBatch({ batchId: batch.batchId });
    if (status.state === 'pending') {
      nextPollAt.set(batch.batchId, Date.now() + settings.pollMs);
      return;
    }
    const requests = batch.requestKeys.map((key) => state.requests[key]).filter((request): request is CollectedRequest => request !== undefined);
    const delivered = new Map(requests.map((request) => [request.requestKey, { ...request.waiters }]));
    const delivery = await deliverLlmBatch({ model: input.model, batchId: batch.batchId, submittedAt: batch.submittedAt, requests, maxSubmissions: settings.maxSubmissions, status });
    for (const key of delivery.settled) settleDelivered(key, delivered.get(key) ?? {});
    for (const key of delivery.again) requeue(key);
    state.inFlight = state.inFlight.filter((candidate) => candidate.batchId !== batch.batchId);
    nextPollAt.delete(batch.batchId);
  };

  /** A caller that signalled (a retry's new token) while its request was being delivered is served again: from the cache, or by another submission. */
  const settleDelivered = (key: string, deliveredWaiters: Record<string, string>) => {
    const request = state.requests[key];
    if (!request) return;
    const late = Object.entries(request.waiters).filter(([caller, token]) => deliveredWaiters[caller] !== token);
    if (late.length === 0) {
      delete state.requests[key];
      return;
    }
    request.waiters = Object.fromEntries(late);
    requeue(key);
  };

  const requeue = (key: string) => {
    if (state.queue.includes(key)) return;
    state.queue.push(key);
    firstQueuedAt ??= Date.now();
  };

  // Signals carry the requests: a busy collector's history grows fast.
  const shouldContinueAsNew = () => workflowInfo().continueAsNewSuggested || workflowInfo().historyLength >= (settings.maxHistoryEvents ?? BATCH_DEFAULTS.maxHistoryEvents);

  for (;;) {
    const now = Date.now();
    if (state.queue.length >= settings.maxRequests || (firstQueuedAt !== undefined && now - firstQueuedAt >= settings.maxWaitMs)) {
      await submit();
      continue;
    }
    const due = state.inFlight.find((batch) => (nextPollAt.get(batch.batchId) ?? 0) <= now);
    if (due) {
      await pollAndDeliver(due);
      continue;
    }
    if (shouldContinueAsNew()) {
      await condition(allHandlersFinished);
      return continueAsNew<typeof batchCollectorWorkflow>({ ...input, state: { ...state, continuedAsNew: (state.continuedAsNew ?? 0) + 1 } });
    }
    if (state.queue.length === 0 && state.inFlight.length === 0) {
      if (!(await condition(() => state.queue.length > 0, IDLE_MS))) return;
      continue;
    }
    const wakeAt = Math.min(firstQueuedAt !== undefined ? firstQueuedAt + settings.maxWaitMs : Infinity, ...state.inFlight.map((batch) => nextPollAt.get(batch.batchId) ?? now));
    const queueWasEmpty = state.queue.length === 0;
    await condition(() => state.queue.length >= settings.maxRequests || (queueWasEmpty && state.queue.length > 0), Math.max(1, wakeAt - now));
  }
}
