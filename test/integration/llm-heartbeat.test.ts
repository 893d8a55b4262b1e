import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LLM_HEARTBEAT_INTERVAL_MS } from '../../activities/llm.activities';
import { buildVerifyInput, startVerification } from '../../src/client/start-verification';
import { startWorkerHarness, type WorkerHarness } from '../support/worker-harness';
import { waitFor } from '../support/wait-for';

/**
 * Each heartbeat that reaches the server is a write to the workflow's state, so an LLM call sends
 * none until it has run for the heartbeat interval: a call shorter than that costs the engine
 * nothing extra, a longer one still shows it is alive (the heartbeat timeout counts from its start).
 */
describe('LLM call heartbeats in a rag verification on the real Temporal', () => {
  let harness: WorkerHarness;

  beforeAll(async () => {
    // Every model request hangs: the verdict call runs until the test ends it.
    harness = await startWorkerHarness('heartbeat', { simulator: { faults: [{ kind: 'timeout', probability: 1 }] }, env: { VERITY_LLM_CACHE: 'off' } });
  });

  afterAll(async () => {
    await harness?.close();
  });

  it(`records no heartbeat in a call's first ${LLM_HEARTBEAT_INTERVAL_MS / 1000} s, and one after that`, async () => {
    const input = buildVerifyInput(harness.config, { claim: 'The Eiffel Tower is in Paris.', method: 'rag' });
    const { handle } = await startVerification(harness.client, harness.config.temporal.taskQueue, input);
    try {
      const llmCall = async () => (await handle.describe()).raw.pendingActivities?.find((a) => a.activityType?.name === 'llmTask');
      await waitFor('the verdict call to reach the simulator', async () => harness.simulator.arrivals().length === 1, 20_000, 100);
      const startedAt = Date.now();
      await new Promise((resolve) => setTimeout(resolve, LLM_HEARTBEAT_INTERVAL_MS - 1_500));
      const early = await llmCall();
      expect(early?.lastStartedTime).toBeTruthy();
      expect(early?.lastHeartbeatTime ?? null).toBeNull();
      await waitFor('a heartbeat', async () => (await llmCall())?.lastHeartbeatTime != null, LLM_HEARTBEAT_INTERVAL_MS + 5_000, 250);
      expect(Date.now() - startedAt).toBeGreaterThanOrEqual(LLM_HEARTBEAT_INTERVAL_MS - 1_500);
    } finally {
      await handle.terminate('test over');
    }
  });
});
