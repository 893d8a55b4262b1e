import type { LlmTaskResult } from '../src/llm/types';
import { TRANSCRIPT_RAW_EXCERPT_CHARS, type InvalidOutputDetails } from '../src/shared/invalid-answer';
import { emptyTranscript, TRANSCRIPT_MAX_CALLS, type LlmCallRecord, type ToolCallRecord, type VerificationTranscript } from '../src/shared/transcript';
import { type CountedUsage, EMPTY_USAGE, type VerdictUsage } from '../src/shared/verify';

/** The LLM call a verdict names as its own: the model, sampling settings and prompt of record. */
export interface LlmCallOfRecord {
  model: string;
  temperature: number;
  seed: number;
}

/**
 * Adds up what a verification spent: every LLM call (paid or from the cache), tokens, cost and
 * tool calls, including what child workflows report back.
 */
export class LlmMeter {
  readonly usage: CountedUsage = { ...EMPTY_USAGE };
  private readonly promptVersions = new Set<string>();
  private lastCall: LlmCallOfRecord | undefined;
  private readonly transcript: VerificationTranscript = emptyTranscript();

  recordLlmCall(result: LlmTaskResult, summary: string = result.promptVersion): void {
    this.usage.llmCalls += 1;
    if (result.cached) this.usage.cachedLlmCalls += 1;
    this.usage.promptTokens += result.usage.promptTokens;
    this.usage.completionTokens += result.usage.completionTokens;
    this.usage.totalTokens += result.usage.totalTokens;
    this.usage.costUsd += result.usage.costUsd;
    // Reasoning tokens (already in completionTokens) are counted apart when the server reports them.
    if (result.usage.reasoningTokens) this.usage.reasoningTokens = (this.usage.reasoningTokens ?? 0) + result.usage.reasoningTokens;
    const { responseFormat } = result;
    const fallback = responseFormat !== undefined && responseFormat !== 'json_schema' && responseFormat !== 'text' && responseFormat !== result.firstResponseFormat ? responseFormat : undefined;
    if (fallback) this.usage.formatFallbacks += 1;
    if (result.promptNote) this.usage.trimmedPrompts += 1;
    this.promptVersions.add(result.promptVersion);
    this.lastCall = { model: result.model, temperature: result.temperature, seed: result.seed };
    this.keep('llmCalls', {
      summary,
      task: result.promptVersion.split('@')[0] ?? result.promptVersion,
      promptVersion: result.promptVersion,
      model: result.model,
      requestHash: result.requestHash,
      cached: result.cached,
      ...(result.attempt !== undefined ? { attempt: result.attempt } : {}),
      latencyMs: result.latencyMs,
      promptTokens: result.usage.promptTokens,
      completionTokens: result.usage.completionTokens,
      costUsd: result.usage.costUsd,
      ...(fallback ? { responseFormat: fallback } : {}),
      ...(result.promptNote ? { promptNote: result.promptNote } : {}),
    });
  }

  /**
   * An answer that was not valid. A paid one counts like any call (usage, cost, prompt version,
   * seed), so budgets and limits see it; either way it is counted in `invalidAnswers` and the
   * transcript marks it invalid with the start of the raw answer.
   */
  recordInvalidLlmCall(task: string, summary: string, error: string, details: InvalidOutputDetails): void {
    const { call } = details;
    this.usage.invalidAnswers += 1;
    if (call) {
      this.usage.llmCalls += 1;
      this.usage.promptTokens += call.promptTokens;
      this.usage.completionTokens += call.completionTokens;
      this.usage.totalTokens += call.totalTokens;
      this.usage.costUsd += call.costUsd;
      this.promptVersions.add(call.promptVersion);
      this.lastCall = { model: call.model, temperature: call.temperature, seed: call.seed };
    }
    this.keep('llmCalls', {
      summary,
      task,
      error,
      invalid: true,
      rawExcerpt: clipped(details.rawExcerpt),
      ...(call
        ? {
            promptVersion: call.promptVersion,
            model: call.model,
            requestHash: call.requestHash,
            cached: false,
            temperature: call.temperature,
            seed: call.seed,
            promptTokens: call.promptTokens,
            completionTokens: call.completionTokens,
            costUsd: call.costUsd,
          }
        : {}),
    });
  }

  /** An LLM call that failed for good: in the transcript, not in the usage. */
  recordFailedLlmCall(task: string, summary: string, error: string): void {
    this.keep('llmCalls', { summary, task, error });
  }

  /** Counts a tool call; with a record, also keeps it in the transcript. */
  recordToolCall(record?: ToolCallRecord): void {
    this.usage.toolCalls += 1;
    if (record) this.keep('toolCalls', record);
  }

  /** A tool call that failed for good, kept in the transcript; whoever handles the failure counts it. */
  transcribeFailedToolCall(record: ToolCallRecord): void {
    this.keep('toolCalls', record);
  }

  private keep<K extends 'llmCalls' | 'toolCalls'>(kind: K, record: K extends 'llmCalls' ? LlmCallRecord : ToolCallRecord): void {
    const { transcript } = this;
    if (transcript.llmCalls.length + transcript.toolCalls.length >= TRANSCRIPT_MAX_CALLS) transcript.omitted += 1;
    else (transcript[kind] as (LlmCallRecord | ToolCallRecord)[]).push(record);
  }

  /** Folds in what a child workflow spent (its own meter's summary). */
  absorb(child: MeterSummary): void {
    // Summaries recorded before a counter existed lack it.
    for (const key of Object.keys(EMPTY_USAGE) as (keyof typeof EMPTY_USAGE)[]) this.usage[key] += child.usage[key] ?? 0;
    if (child.usage.reasoningTokens) this.usage.reasoningTokens = (this.usage.reasoningTokens ?? 0) + child.usage.reasoningTokens;
    for (const version of child.promptVersions) this.promptVersions.add(version);
    if (child.lastCall) this.lastCall = child.lastCall;
    // Summaries recorded before transcripts existed have none.
    if (child.transcript) {
      for (const call of child.transcript.llmCalls) this.keep('llmCalls', call);
      for (const call of child.transcript.toolCalls) this.keep('toolCalls', call);
      this.transcript.omitted += child.transcript.omitted;
    }
  }

  summary(): MeterSummary {
    return {
      usage: { ...this.usage },
      promptVersions: [...this.promptVersions].sort(),
      ...(this.lastCall ? { lastCall: this.lastCall } : {}),
      transcript: { llmCalls: [...this.transcript.llmCalls], toolCalls: [...this.transcript.toolCalls], omitted: this.transcript.omitted },
    };
  }
}

function clipped(text: string): string {
  return text.length <= TRANSCRIPT_RAW_EXCERPT_CHARS ? text : `${text.slice(0, TRANSCRIPT_RAW_EXCERPT_CHARS)}…`;
}

/** A meter as plain JSON, for child workflows to return to their parent. */
export interface MeterSummary {
  usage: VerdictUsage;
  promptVersions: string[];
  lastCall?: LlmCallOfRecord;
  /** Every LLM and tool call, in order (absent in summaries recorded before transcripts). */
  transcript?: VerificationTranscript;
}
