import type { Client } from '@temporalio/client';
import { setQueueRateLimit } from '../src/client/queue-rate-limit';
import type { LlmPacingStore } from '../src/llm/llm-pacing-store';

export interface LlmRateActivityDeps {
  /** A Temporal client, connected on first use. */
  temporal(): Promise<Client>;
  /** The shared request schedule every worker's pacer reserves on. */
  llmPacing?: LlmPacingStore;
}

/** gRPC UNIMPLEMENTED: a Temporal server before 1.28 has no UpdateTaskQueueConfig. */
const UNIMPLEMENTED = 12;

export function createLlmRateActivities(deps: LlmRateActivityDeps) {
  return {
    /**
     * Sets the LLM queue's rate for every machine (null removes it): on the shared request schedule,
     * which each request reserves on (exact, immediate), and as the queue's server-side dispatch
     * limit where the server has one (it keeps tasks from being dispatched only to wait).
     */
    async setLlmQueueRate(input: { taskQueue: string; requestsPerSecond: number | null }): Promise<void> {
      await deps.llmPacing?.setRateLimit(input.taskQueue, input.requestsPerSecond);
      try {
        await setQueueRateLimit(await deps.temporal(), input.taskQueue, input.requestsPerSecond, 'verity adaptive LLM rate (AIMD on 429s)');
      } catch (err) {
        if ((err as { code?: number }).code !== UNIMPLEMENTED || !deps.llmPacing) throw err;
      }
    },
  };
}
