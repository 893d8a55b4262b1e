import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatLlmRate, readLlmRateStatus } from '../../src/client/llm-rate-status';
import { queueRateLimitOf } from '../../src/client/queue-rate-limit';
import { buildSweepInput, startSweep } from '../../src/client/start-sweep';
import { runConfigSchema } from '../../src/runs/run-manifest';
import { llmRateWorkflowId } from '../../src/shared/llm-rate';
import { llmTaskQueue } from '../../src/shared/task-queues';
import { DEMO_CLAIMS, uniqueName } from '../support/test-env';
import { waitFor } from '../support/wait-for';
import { startWorkerHarness, type WorkerHarness } from '../support/worker-harness';

const CEILING = 4;

/** AIMD on 429s: the LLM queue's server-side rate limit falls while the simulator answers 429, and climbs back after. */
describe('adaptive LLM rate on real Temporal', () => {
  let harness: WorkerHarness;
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'verity-aimd-'));

  beforeAll(async () => {
    harness = await startWorkerHarness('aimd', {
      simulator: { faults: [{ kind: '429', probability: 1 }] },
      env: { VERITY_LLM_RPS: String(CEILING), VERITY_LLM_AIMD_INTERVAL_MS: '500' },
      worker: { llm: { requestsPerSecond: CEILING, concurrency: 8 } },
    });
  });

  afterAll(async () => {
    await harness?.close();
    fs.rmSync(tmp, { recursive: true, force: true });
  });

  it('cuts the rate on sustained 429s, for every worker of the queue, and raises it again once they stop', async () => {
    const { client, config, simulator } = harness;
    const llmQueue = llmTaskQueue(config.temporal.taskQueue);
    const run = runConfigSchema.parse({ run: uniqueName('aimd'), datasets: [{ name: 'demo', file: DEMO_CLAIMS, format: 'verity', sample: 3 }], methods: ['rag'], models: ['gpt-4o-mini'], concurrency: 3 });
    const { handle } = await startSweep(client, config.temporal.taskQueue, buildSweepInput(config, run, tmp));

    // Every request answers 429 (Retry-After: 1): the controller halves the rate once per cooldown.
    let cut = await readLlmRateStatus(client, config);
    await waitFor('two cuts of the rate', async () => {
      cut = await readLlmRateStatus(client, config);
      return cut.adapting && cut.rate <= CEILING / 4;
    }, 20_000, 200);
    expect(cut.rateLimitedCount).toBeGreaterThan(0);
    // The rate is the queue's own, enforced by the server for all its workers.
    expect(await queueRateLimitOf(client, llmQueue)).toBe(cut.rate);
    expect(formatLlmRate(cut)).toMatch(new RegExp(`LLM queue: ${cut.rate} req/s \\(adaptive, ceiling ${CEILING}\\); \\d+ × 429 since`));

    // The 429s stop: the rate climbs back step by step; at the ceiling the controller removes its limit and ends.
    simulator.setFaults([]);
    let rising = cut;
    await waitFor('the rate to rise again', async () => {
      rising = await readLlmRateStatus(client, config);
      return rising.adapting && rising.rate > cut.rate;
    }, 20_000, 100);
    expect(rising.rate).toBeLessThan(CEILING);
    const final = await client.workflow.getHandle(llmRateWorkflowId(llmQueue)).result();
    expect(final).toMatchObject({ rate: CEILING });
    expect(final.decreases).toBeGreaterThanOrEqual(2);
    expect(await queueRateLimitOf(client, llmQueue)).toBeUndefined();
    const after = await readLlmRateStatus(client, config);
    expect(after).toMatchObject({ rate: CEILING, adapting: false, rateLimitedCount: final.rateLimitedCount });

    // Every verification finished: the 429s were retried after their Retry-After.
    expect(await handle.result()).toMatchObject({ status: 'completed', done: 3, failed: 0 });
    const rateLimited = simulator.requests().filter((request) => request.status === 429).length;
    expect(final.rateLimitedCount).toBe(rateLimited);
  });
});
