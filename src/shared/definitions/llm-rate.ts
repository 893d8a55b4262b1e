import { defineQuery, defineSignal } from '@temporalio/workflow';
import type { LlmRateState, RateLimitedReport } from '../llm-rate';

/** A worker saw 429s from the LLM endpoint (a batch, sent at most a few times per second). */
export const llmRateLimitedSignal = defineSignal<[RateLimitedReport]>('llmRateLimited');

/** The LLM queue's current rate and the 429s counted since the controller started. */
export const llmRateQuery = defineQuery<LlmRateState>('llmRate');
