import type { LlmTaskResult } from '../src/llm/types';
import { EMPTY_USAGE, type VerdictUsage } from '../src/shared/verify';

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
  readonly usage: VerdictUsage = { ...EMPTY_USAGE };
  private readonly promptVersions = new Set<string>();
  private lastCall: LlmCallOfRecord | undefined;

  recordLlmCall(result: LlmTaskResult): void {
    this.usage.llmCalls += 1;
    if (result.cached) this.usage.cachedLlmCalls += 1;
    this.usage.promptTokens += result.usage.promptTokens;
    this.usage.completionTokens += result.usage.completionTokens;
    this.usage.totalTokens += result.usage.totalTokens;
    this.usage.costUsd += result.usage.costUsd;
    this.promptVersions.add(result.promptVersion);
    this.lastCall = { model: result.model, temperature: result.temperature, seed: result.seed };
  }

  recordToolCall(): void {
    this.usage.toolCalls += 1;
  }

  /** Folds in what a child workflow spent (its own meter's summary). */
  absorb(child: MeterSummary): void {
    for (const key of Object.keys(this.usage) as (keyof VerdictUsage)[]) this.usage[key] += child.usage[key];
    for (const version of child.promptVersions) this.promptVersions.add(version);
    if (child.lastCall) this.lastCall = child.lastCall;
  }

  summary(): MeterSummary {
    return { usage: { ...this.usage }, promptVersions: [...this.promptVersions].sort(), ...(this.lastCall ? { lastCall: this.lastCall } : {}) };
  }
}

/** A meter as plain JSON, for child workflows to return to their parent. */
export interface MeterSummary {
  usage: VerdictUsage;
  promptVersions: string[];
  lastCall?: LlmCallOfRecord;
}
