import { CompleteAsyncError, Context } from '@temporalio/activity';
import { ActivityNotFoundError, type Client } from '@temporalio/client';
import { ApplicationFailure } from '@temporalio/common';
import type { BatchStatus } from '../src/llm/batch/batch-client';
import type { BatchRequestStore } from '../src/llm/batch/batch-request-store';
import type { BatchLineOutcome } from '../src/llm/batch/batch-lines';
import { toTemporalFailure } from '../src/llm/errors';
import type { LlmGateway } from '../src/llm/gateway';
import type { LlmTaskInput, LlmTaskResult } from '../src/llm/types';
import {
  BATCH_REQUEST_SIGNAL,
  batchCollectorWorkflowId,
  type BatchCollectorInput,
  type BatchDelivery,
  type BatchRequestSignal,
  type CollectedRequest,
  type DeliverBatchInput,
  type LlmBatchTaskInput,
} from '../src/shared/batch';
import { completionRequestOf } from './llm.activities';

export interface BatchActivityDeps {
  gateway: LlmGateway;
  temporal(): Promise<Client>;
  /** Where waiting calls keep their variables; the batch lane is unavailable without it. */
  batchRequests?: BatchRequestStore;
}

/** A batch request the provider refused (a 4xx answer, or the whole batch failed validation): asking again gets the same. */
export const BATCH_REQUEST_REJECTED = 'LlmBatchRequestRejected';
/** A request that got no answer in `maxSubmissions` batches (expired, failed lines). */
export const BATCH_REQUEST_UNANSWERED = 'LlmBatchRequestUnanswered';

const BATCH_HEARTBEAT_INTERVAL_MS = 5_000;

/** Runs `work` heartbeating every few seconds (the presets' heartbeat timeout notices a killed worker). */
async function heartbeating<T>(work: () => Promise<T>): Promise<T> {
  const context = Context.current();
  const timer = setInterval(() => context.heartbeat(), BATCH_HEARTBEAT_INTERVAL_MS);
  try {
    return await work();
  } finally {
    clearInterval(timer);
  }
}

/** A waiting call whose stored variables are gone (its index deleted): asking again cannot help. */
export const BATCH_REQUEST_LOST = 'LlmBatchRequestLost';

export function createBatchActivities({ gateway, temporal, batchRequests }: BatchActivityDeps) {
  const store = (): BatchRequestStore => {
    if (!batchRequests) throw ApplicationFailure.create({ message: 'this worker has no batch request store (batch lane unavailable)', type: BATCH_REQUEST_LOST, nonRetryable: true });
    return batchRequests;
  };

  /** Completes (or fails) every activity waiting for a request; one that is gone (timed out, cancelled) is skipped. */
  async function settle(request: CollectedRequest, outcome: { result: LlmTaskResult } | { failure: ApplicationFailure }): Promise<void> {
    const client = await temporal();
    for (const token of Object.values(request.waiters)) {
      const taskToken = Buffer.from(token, 'base64');
      try {
        if ('result' in outcome) await client.activity.complete(taskToken, outcome.result);
        else await client.activity.fail(taskToken, outcome.failure);
      } catch (err) {
        if (!(err instanceof ActivityNotFoundError)) throw err;
      }
    }
  }

  return {
    /**
     * An LLM call of a batch model: served from the request cache like a direct call, else handed to
     * the model's collector (signal-with-start) and completed later by it (asynchronous completion).
     */
    async llmBatchTask(input: LlmBatchTaskInput): Promise<LlmTaskResult> {
      const request = completionRequestOf(input.call);
      const prepared = await gateway.batchRequest(request);
      if ('cached' in prepared) return { ...prepared.cached, attempt: 1 };
      const { info } = Context.current();
      const model = request.model ?? gateway.modelFor(request.role);
      const signal: BatchRequestSignal = {
        requestKey: prepared.requestHash,
        callerId: `${info.workflowExecution?.workflowId ?? ''}/${info.activityId}`,
        taskToken: Buffer.from(info.taskToken).toString('base64'),
      };
      await store().put(prepared.requestHash, input.call);
      const collector: BatchCollectorInput = { model, settings: input.settings };
      const client = await temporal();
      await client.workflow.signalWithStart('batchCollectorWorkflow', {
        workflowId: batchCollectorWorkflowId(info.taskQueue, model),
        taskQueue: info.taskQueue,
        args: [collector],
        signal: BATCH_REQUEST_SIGNAL,
        signalArgs: [signal],
      });
      throw new CompleteAsyncError();
    },

    /**
     * Submits the requests as one batch, idempotently (the submission id is the batch's metadata).
     * Requests answered meanwhile (the cache) are settled at once and left out; no batch when none is left.
     */
    async submitLlmBatch(input: { submission: string; requests: CollectedRequest[] }): Promise<{ batchId?: string; settled: string[] }> {
      return heartbeating(() => submit(input));
    },

    async pollLlmBatch(input: { batchId: string }): Promise<BatchStatus> {
      return gateway.batchClient().status(input.batchId, Context.current().cancellationSignal);
    },

    /**
     * Reads an ended batch: each answer is validated, priced at the batch price, cached, and completes
     * its waiting activities; a request without an answer is submitted again, up to maxSubmissions.
     */
    async deliverLlmBatch(input: DeliverBatchInput & { status: BatchStatus }): Promise<BatchDelivery> {
      return heartbeating(() => deliver(input));
    },
  };

  async function submit(input: { submission: string; requests: CollectedRequest[] }): Promise<{ batchId?: string; settled: string[] }> {
    const lines: { customId: string; body: unknown }[] = [];
    const settled: string[] = [];
    const calls = await store().getMany(input.requests.map((request) => request.requestKey));
    for (const collected of input.requests) {
      const call = calls.get(collected.requestKey);
      if (!call) {
        await settle(collected, { failure: lostCall(collected) });
        settled.push(collected.requestKey);
        continue;
      }
      const prepared = await gateway.batchRequest(completionRequestOf(call));
      if ('cached' in prepared) {
        await settle(collected, { result: { ...prepared.cached, attempt: 1 } });
        settled.push(collected.requestKey);
      } else lines.push({ customId: collected.requestKey, body: prepared.body });
    }
    if (lines.length === 0) return { settled };
    const batchId = await gateway.batchClient().submitOnce(input.submission, lines, Context.current().cancellationSignal);
    return { batchId, settled };
  }

  async function deliver(input: DeliverBatchInput & { status: BatchStatus }): Promise<BatchDelivery> {
    const outcomes = input.status.state === 'failed' ? new Map<string, BatchLineOutcome>() : await gateway.batchClient().outcomes(input.status, Context.current().cancellationSignal);
    const delivery: BatchDelivery = { settled: [], again: [] };
    const calls = await store().getMany(input.requests.map((request) => request.requestKey));
    for (const collected of input.requests) {
      const outcome: BatchLineOutcome = input.status.state === 'failed'
        ? { kind: 'rejected', message: `the batch failed: ${input.status.errors ?? ''}` }
        : (outcomes.get(collected.requestKey) ?? { kind: 'retry', message: `no answer (batch ${input.status.status})` });
      if (outcome.kind === 'retry' && collected.submissions < input.maxSubmissions) {
        delivery.again.push(collected.requestKey);
        continue;
      }
      const call = calls.get(collected.requestKey);
      await settle(collected, call ? await settlementOf(gateway, call, collected, outcome, input) : { failure: lostCall(collected) });
      delivery.settled.push(collected.requestKey);
    }
    return delivery;
  }
}

function lostCall(collected: CollectedRequest): ApplicationFailure {
  return ApplicationFailure.create({ message: `the waiting LLM call ${collected.requestKey.slice(0, 12)} is no longer stored (its index was deleted)`, type: BATCH_REQUEST_LOST, nonRetryable: true });
}

async function settlementOf(gateway: LlmGateway, call: LlmTaskInput, collected: CollectedRequest, outcome: BatchLineOutcome, input: DeliverBatchInput): Promise<{ result: LlmTaskResult } | { failure: ApplicationFailure }> {
  if (outcome.kind === 'rejected') return { failure: ApplicationFailure.create({ message: `LLM batch ${input.batchId}: ${outcome.message}`, type: BATCH_REQUEST_REJECTED, nonRetryable: true }) };
  if (outcome.kind === 'retry') {
    const message = `LLM batch ${input.batchId}: no answer after ${collected.submissions} submission(s): ${outcome.message}`;
    return { failure: ApplicationFailure.create({ message, type: BATCH_REQUEST_UNANSWERED, nonRetryable: false }) };
  }
  try {
    return { result: { ...(await gateway.batchAnswer(completionRequestOf(call), outcome.completion, input.submittedAt)), attempt: 1 } };
  } catch (err) {
    return { failure: toTemporalFailure(err) };
  }
}
