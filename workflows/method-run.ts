import { ApplicationFailure, proxyActivities, setHandler, workflowInfo } from '@temporalio/workflow';
import type { Activities } from '../activities';
import type { ToolCallResult } from '../activities/tools.activities';
import type { LlmTaskInput, LlmTaskResult } from '../src/llm/types';
import { methodSamplingOf } from '../src/shared/sampling';
import { llmTaskQueue } from '../src/shared/task-queues';
import type { ToolName } from '../src/shared/tools';
import { findLimitReached, LIMIT_REACHED_TYPE, type LimitReachedDetails } from '../src/shared/verification-limits';
import type { MethodTrace, VerifyClaimInput } from '../src/shared/verify';
import { LLM_CALL } from './activity-options';
import { traceQuery, type VerifyProgress } from './definitions';
import { LlmMeter, type MeterSummary } from './llm-meter';
import { callTool } from './tool-calls';

/**
 * What a method's workflow code works with: its input, progress, and LLM and tool calls that are
 * counted into the verdict's usage. Every call is its own activity.
 */
export interface MethodRun {
  readonly input: VerifyClaimInput;
  readonly progress: VerifyProgress;
  readonly meter: LlmMeter;
  /** A registered structured LLM task, on the rate-limited LLM task queue. */
  llm<T>(call: LlmTaskInput): Promise<LlmTaskResult<T>>;
  /** One tool call (`tools.<name>` activity). */
  tool(name: ToolName, args: Record<string, unknown>): Promise<ToolCallResult>;
  /** Counts a tool call made outside `tool()` (a retrieval activity, a tool call that failed for good). */
  countToolCall(): void;
  /** Adds what a child workflow spent to the verdict's usage and to the progress. */
  absorbChild(spent: MeterSummary): void;
  /** Makes `trace` what the `trace` query answers while the verification runs. */
  publishTrace(trace: MethodTrace): void;
}

/** A method's answer; verifyClaimWorkflow turns it into the stored verdict. */
export interface MethodOutcome {
  label: 'SUPPORTED' | 'REFUTED' | 'NEI';
  methodLabel?: string;
  rationale: string;
  citedPassageIds: string[];
  evidence: { id: string; docId: string; title: string; text: string; score: number }[];
  trace?: MethodTrace;
}

export function createMethodRun(input: VerifyClaimInput, progress: VerifyProgress, meter: LlmMeter = new LlmMeter()): MethodRun {
  // LLM calls go to the rate-limited queue next to this workflow's own.
  const { llmTask } = proxyActivities<Activities>({ ...LLM_CALL, taskQueue: llmTaskQueue(workflowInfo().taskQueue) });
  // The method's sampling settings go with every call; the activity resolves the call's role.
  const sampling = methodSamplingOf(input.settings, input.method);
  let trace: MethodTrace | null = null;
  setHandler(traceQuery, () => trace);
  const startedAt = Date.now();
  /** Before each call (and after a child's spend arrives): a reached limit ends the verification, its spend in the details. */
  const enforceLimits = () => {
    const reached = findLimitReached(meter.usage, Date.now() - startedAt, input.limits);
    if (!reached) return;
    const details: LimitReachedDetails = { limit: reached.limit, usage: { totalTokens: meter.usage.totalTokens, costUsd: meter.usage.costUsd } };
    throw ApplicationFailure.create({ message: reached.reason, type: LIMIT_REACHED_TYPE, nonRetryable: true, details: [details] });
  };
  return {
    input,
    progress,
    meter,
    async llm<T>(call: LlmTaskInput) {
      enforceLimits();
      const result = (await llmTask(sampling ? { ...call, sampling } : call)) as LlmTaskResult<T>;
      meter.recordLlmCall(result as LlmTaskResult);
      progress.llmCalls += 1;
      return result;
    },
    async tool(name, args) {
      enforceLimits();
      const result = await callTool(name, args);
      this.countToolCall();
      return result;
    },
    countToolCall() {
      meter.recordToolCall();
      progress.toolCalls += 1;
    },
    absorbChild(spent) {
      meter.absorb(spent);
      progress.llmCalls += spent.usage.llmCalls;
      progress.toolCalls += spent.usage.toolCalls;
      enforceLimits();
    },
    publishTrace(next) {
      trace = next;
    },
  };
}
