import type { Client } from '@temporalio/client';
import { setQueueRateLimit } from '../src/client/queue-rate-limit';

export interface LlmRateActivityDeps {
  /** A Temporal client, connected on first use. */
  temporal(): Promise<Client>;
}

export function createLlmRateActivities(deps: LlmRateActivityDeps) {
  return {
    /** Sets the LLM queue's server-side dispatch rate (every worker of the queue follows it); null removes it. */
    async setLlmQueueRate(input: { taskQueue: string; requestsPerSecond: number | null }): Promise<void> {
      await setQueueRateLimit(await deps.temporal(), input.taskQueue, input.requestsPerSecond, 'verity adaptive LLM rate (AIMD on 429s)');
    },
  };
}
