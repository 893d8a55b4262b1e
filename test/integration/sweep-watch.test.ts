import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatWatch, retryingActivities, type RetryingActivity } from '../../src/cli/sweep-watch';
import { buildVerifyInput, startVerification } from '../../src/client/start-verification';
import type { SweepProgress } from '../../src/shared/sweep';
import { uniqueName } from '../support/test-env';
import { startWorkerHarness, type WorkerHarness } from '../support/worker-harness';

/** Bounded wait for Temporal to record the first failed attempt (retries start 2 s apart). */
const RETRY_SEEN_WITHIN_MS = 60_000;

/**
 * `sweep status --watch` reads the retry state from Temporal itself: with an LLM endpoint that
 * answers every request with 429, a running verification shows up as an LLM call being retried
 * (rate-limited), so a run in a retry loop never looks stuck.
 */
describe('sweep status --watch on a rate-limited endpoint', () => {
  let harness: WorkerHarness;

  beforeAll(async () => {
    harness = await startWorkerHarness('watch-429', { simulator: { faults: [{ kind: '429', everyNth: 1 }] } });
  });

  afterAll(async () => {
    await harness?.close();
  });

  it('lists the LLM call Temporal is retrying, counted as rate-limited', async () => {
    const { client, config } = harness;
    const runId = uniqueName('watch-run');
    const input = buildVerifyInput(config, { claim: 'The Eiffel Tower is in Paris.', method: 'rag', runId });
    const { handle } = await startVerification(client, config.temporal.taskQueue, input);
    try {
      let retrying: RetryingActivity[] = [];
      const deadline = Date.now() + RETRY_SEEN_WITHIN_MS;
      while (retrying.length === 0 && Date.now() < deadline) {
        ({ retrying } = await retryingActivities(client, runId));
        if (retrying.length === 0) await new Promise((resolve) => setTimeout(resolve, 250));
      }
      expect(retrying).toEqual([expect.objectContaining({ workflowId: handle.workflowId, activity: 'llmTask', lastFailure: expect.stringMatching(/^\[LlmRateLimited\] /) })]);
      expect(retrying[0]!.attempt).toBeGreaterThanOrEqual(2);

      const progress: SweepProgress = { runId, status: 'running', total: 1, done: 0, failed: 0, reused: 0, running: 1, tokens: 0, costUsd: 0, budget: {}, continuedAsNew: 0 };
      const text = formatWatch({ progress, perMinute: undefined, failures: [], retrying, unscanned: 0 });
      expect(text).toContain('retrying 1 activity (1 rate-limited, 429):');
      expect(text).toContain(`llmTask attempt ${retrying[0]!.attempt} in ${handle.workflowId}: [LlmRateLimited]`);
    } finally {
      await handle.terminate('test over');
    }
  });
});
