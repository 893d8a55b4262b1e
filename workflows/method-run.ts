import { ActivityFailure, ApplicationFailure, setCurrentDetails, setHandler } from '@temporalio/workflow';
import type { ToolCallResult } from '../activities/tools.activities';
import type { LlmTaskInput, LlmTaskResult } from '../src/llm/types';
import { methodSamplingOf } from '../src/shared/sampling';
import { llmCallSummary, progressDetails, stepOfTask } from '../src/shared/activity-summaries';
import type { ToolName } from '../src/shared/tools';
import { findLimitReached, LIMIT_REACHED_TYPE, type LimitReachedDetails } from '../src/shared/verification-limits';
import type { MethodTrace, VerifyClaimInput } from '../src/shared/verify';
import { traceQuery, type VerifyProgress } from '../src/shared/definitions/verify';
import { createLlmCaller } from './llm-calls';
import { LlmMeter, type MeterSummary } from './llm-meter';
import { callTool, toolCallRecord } from './tool-calls';

/**
 * What a method's workflow code works with: its input, progress, and LLM and tool calls that are
 * counted into the verdict's usage. Every call is its own activity.
 */
export interface MethodRun {
  readonly input: VerifyClaimInput;
  readonly progress: VerifyProgress;
  readonly meter: LlmMeter;
  /**
   * A registered structured LLM task, on the rate-limited LLM task queue. `step` names it in the
   * Temporal UI (`mermaid · executor step 3/5 · gpt-4o-mini`); the task id when absent.
   */
  llm<T>(call: LlmTaskInput, step?: string): Promise<LlmTaskResult<T>>;
  /** One tool call (`tools.<name>` activity). */
  tool(name: ToolName, args: Record<string, unknown>): Promise<ToolCallResult>;
  /** Counts a tool call made outside `tool()` (a retrieval activity, a tool call that failed for good). */
  countToolCall(record?: Parameters<LlmMeter['recordToolCall']>[0]): void;
  /** Shows the progress as the workflow's current details in the Temporal UI. */
  showProgress(): void;
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
  const llmCall = createLlmCaller(meter, input.batch ? { lane: input.batch, defaultModel: input.model } : undefined);
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
    async llm<T>(call: LlmTaskInput, step?: string) {
      enforceLimits();
      this.showProgress();
      const summary = llmCallSummary(input.method, step ?? stepOfTask(call.task), call.model ?? input.model);
      const result = await llmCall<T>(sampling ? { ...call, sampling } : call, summary);
      progress.llmCalls += 1;
      this.showProgress();
      return result;
    },
    async tool(name, args) {
      enforceLimits();
      this.showProgress();
      let result: ToolCallResult;
      try {
        result = await callTool(name, args);
      } catch (err) {
        // The caller decides whether a failed call counts (see countToolCall); the transcript keeps it.
        if (err instanceof ActivityFailure) meter.transcribeFailedToolCall(toolCallRecord(name, args, { error: err.cause?.message ?? err.message }));
        throw err;
      }
      this.countToolCall(toolCallRecord(name, args, result));
      return result;
    },
    countToolCall(record) {
      meter.recordToolCall(record);
      progress.toolCalls += 1;
      this.showProgress();
    },
    absorbChild(spent) {
      meter.absorb(spent);
      progress.llmCalls += spent.usage.llmCalls;
      progress.toolCalls += spent.usage.toolCalls;
      this.showProgress();
      enforceLimits();
    },
    showProgress() {
      setCurrentDetails(progressDetails(progress));
    },
    publishTrace(next) {
      trace = next;
    },
  };
}
