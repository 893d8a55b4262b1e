/**
 * Adaptive dispatch rate of the LLM task queue (AIMD), sandbox-safe: the controller workflow
 * (workflows/llm-rate.workflow.ts) runs it, one per LLM queue, so every worker of that queue shares
 * one rate. The rate is applied server-side as the queue's rate limit (UpdateTaskQueueConfig).
 */

export interface LlmRateSettings {
  /** The rate without congestion: VERITY_LLM_RPS, the workers' own limit. */
  ceiling: number;
  /** The rate never goes below this. */
  floor: number;
  /** A cut multiplies the rate by this (0 < factor < 1). */
  decreaseFactor: number;
  /** Each quiet interval adds this many requests per second. */
  increaseStep: number;
  /** An interval without a 429 (ms); also the least time between two cuts. */
  intervalMs: number;
}

export interface LlmRateState {
  /** Requests per second the queue dispatches now. */
  rate: number;
  /** 429s reported since the controller started. */
  rateLimitedCount: number;
  /** Cuts made since the controller started. */
  decreases: number;
  /** When the controller started and when the last cut and the last 429 were (epoch ms). */
  since: number;
  lastDecreaseAt?: number;
  lastRateLimitedAt?: number;
  /** The longest Retry-After among the 429s of the last batch (ms). */
  retryAfterMs?: number;
}

/** A batch of 429s seen by one worker (sent as one signal). */
export interface RateLimitedReport {
  count: number;
  retryAfterMs?: number;
}

export function defaultLlmRateSettings(ceiling: number, intervalMs = 5_000): LlmRateSettings {
  return {
    ceiling,
    floor: Math.min(ceiling, 0.2),
    decreaseFactor: 0.5,
    increaseStep: Math.max(ceiling / 10, 0.1),
    intervalMs,
  };
}

export function initialLlmRate(settings: LlmRateSettings, now: number): LlmRateState {
  return { rate: settings.ceiling, rateLimitedCount: 0, decreases: 0, since: now };
}

/**
 * 429s arrived: cut the rate multiplicatively, at most once per cooldown (the interval, or longer
 * when the endpoint's Retry-After asks for more), since requests already in flight when the rate
 * was cut answer 429 too.
 */
export function afterRateLimited(state: LlmRateState, settings: LlmRateSettings, report: RateLimitedReport, now: number): LlmRateState {
  const counted: LlmRateState = {
    ...state,
    rateLimitedCount: state.rateLimitedCount + report.count,
    lastRateLimitedAt: now,
    ...(report.retryAfterMs !== undefined ? { retryAfterMs: report.retryAfterMs } : {}),
  };
  const cooldown = Math.max(settings.intervalMs, state.retryAfterMs ?? 0);
  if (state.lastDecreaseAt !== undefined && now - state.lastDecreaseAt < cooldown) return counted;
  return { ...counted, rate: roundRate(Math.max(settings.floor, state.rate * settings.decreaseFactor)), decreases: state.decreases + 1, lastDecreaseAt: now };
}

/** A whole interval without a 429: add the step, up to the ceiling. */
export function afterQuietInterval(state: LlmRateState, settings: LlmRateSettings): LlmRateState {
  return { ...state, rate: roundRate(Math.min(settings.ceiling, state.rate + settings.increaseStep)) };
}

export function isRecovered(state: LlmRateState, settings: LlmRateSettings): boolean {
  return state.rate >= settings.ceiling;
}

function roundRate(rate: number): number {
  return Math.round(rate * 1000) / 1000;
}

/** One controller per LLM task queue (and so per configuration). */
export function llmRateWorkflowId(llmTaskQueue: string): string {
  return `llm-rate/${llmTaskQueue}`;
}
