import path from 'node:path';
import type { Client } from '@temporalio/client';
import { NativeConnection, Worker } from '@temporalio/worker';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setQueueRateLimit } from '../../src/client/queue-rate-limit';
import type { VerityConfig } from '../../src/config/config';
import { llmTaskQueue } from '../../src/shared/task-queues';
import type { WorkerDependencies } from '../../src/worker/dependencies';
import { type LlmQueueHarness, registerClaimVerdictTask, startLlmQueueHarness } from '../support/llm-queue-harness';
import { uniqueName } from '../support/test-env';
import { waitFor } from '../support/wait-for';

const R = 10;
const CALLS = 40;
const TASK = 'test.pacer';

registerClaimVerdictTask(TASK);

/** The most request arrivals in any 1-s window [t, t + 1 s), t an arrival. */
function peakPerSecond(times: readonly number[]): number {
  const sorted = [...times].sort((a, b) => a - b);
  let peak = 0;
  for (let i = 0, j = 0; i < sorted.length; i += 1) {
    while (sorted[j]! <= sorted[i]! - 1000) j += 1;
    peak = Math.max(peak, i - j + 1);
  }
  return peak;
}

describe('LLM request pacer against the real Temporal and the simulator', () => {
  let harness: LlmQueueHarness;
  let config: VerityConfig;
  let deps: WorkerDependencies;
  let client: Client;

  beforeAll(async () => {
    harness = await startLlmQueueHarness('pacer', {
      requestsPerSecond: R,
      llmConcurrency: CALLS,
      simulatorLatencyMs: 50,
      workflowsPath: path.join(__dirname, '../support/workflows/llm-burst.workflow.ts'),
      env: { VERITY_LLM_CACHE: 'off' },
    });
    ({ config, deps, client } = harness);
  });

  afterAll(async () => {
    await harness?.close();
  });

  it(`keeps a burst of ${CALLS} calls at R = ${R} within ceil(1.05 R) requests in any second, and completes them all`, async () => {
    const since = Date.now();
    const claims = Array.from({ length: CALLS }, (_, i) => `Paris is the capital of France (${i}).`);
    const completed = await client.workflow.execute('llmBurstWorkflow', {
      taskQueue: config.temporal.taskQueue,
      workflowId: uniqueName('burst'),
      args: [TASK, claims],
    });
    expect(completed).toBe(CALLS);
    const arrivals = harness.simulator.requests().filter((r) => r.path === '/v1/chat/completions').map((r) => Date.parse(r.time)).filter((t) => t >= since);
    expect(arrivals).toHaveLength(CALLS);
    expect(peakPerSecond(arrivals)).toBeLessThanOrEqual(Math.ceil(R * 1.05));
  });

  it('keeps the fallback pacer (used while the shared schedule is unreachable) at R/2 once a second worker process polls the LLM queue, and at its share of a lower queue rate set after 429s', async () => {
    const connection = await NativeConnection.connect({ address: config.temporal.address });
    const second = await Worker.create({
      connection,
      namespace: config.temporal.namespace,
      taskQueue: llmTaskQueue(config.temporal.taskQueue),
      identity: `second-process-${harness.prefix}@test`,
      activities: { llmTask: async () => Promise.reject(new Error('the second process takes no task in this test')) },
    });
    const secondRunning = second.run().finally(() => connection.close());
    try {
      await waitFor('the pacer at R/2', async () => {
        await deps.pacerRate!.refresh();
        return deps.pacerRate!.rate === R / 2;
      }, 10_000, 250);
      expect(deps.pacerRate!.rate).toBe(R / 2);
      // The 429 controller lowers the queue-wide limit (as llmRateWorkflow does); each process paces its share of that.
      await setQueueRateLimit(client, llmTaskQueue(config.temporal.taskQueue), 4, 'test: 429s');
      await deps.pacerRate!.refresh();
      expect(deps.pacerRate!.rate).toBe(2);
      await setQueueRateLimit(client, llmTaskQueue(config.temporal.taskQueue), null, 'test: recovered');
      await deps.pacerRate!.refresh();
      expect(deps.pacerRate!.rate).toBe(R / 2);
    } finally {
      second.shutdown();
      await secondRunning;
    }
  });
});
