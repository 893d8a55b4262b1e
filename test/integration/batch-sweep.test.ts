import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Verdict } from '../../src/shared/verify';
import { batchCounts, batchPricesFile, FAST_BATCH, labelsOf, startDemoSweep, terminateCollectors, verdictsOf } from '../support/batch-sweep';
import { startWorkerHarness, type WorkerHarness } from '../support/worker-harness';

const CLAIMS = 4;
const METHODS = ['rag', 'mermaid'];

/**
 * The same sweep twice, each on its own verity (own request cache): direct calls, then every call
 * through the simulator's batch endpoints. Same answers, so the same verdicts; half the price.
 */
describe('a sweep with batch: true', () => {
  const prices = batchPricesFile();
  let direct: WorkerHarness;
  let batched: WorkerHarness;
  let directVerdicts: Verdict[];
  let batchVerdicts: Verdict[];

  beforeAll(async () => {
    direct = await startWorkerHarness('batch-direct', { env: { VERITY_PRICES_FILE: prices } });
    const directSweep = await startDemoSweep(direct.client, direct.config, { label: 'direct', methods: METHODS, claims: CLAIMS });
    expect(await directSweep.result()).toMatchObject({ status: 'completed', failed: 0 });
    directVerdicts = await verdictsOf(direct.es, direct.prefix, directSweep.runId);

    batched = await startWorkerHarness('batch-lane', { env: { VERITY_PRICES_FILE: prices }, simulator: { batch: { turnaroundMs: 300 } } });
    const batchSweep = await startDemoSweep(batched.client, batched.config, { label: 'batched', methods: METHODS, claims: CLAIMS, batch: FAST_BATCH });
    expect(await batchSweep.result()).toMatchObject({ status: 'completed', failed: 0 });
    batchVerdicts = await verdictsOf(batched.es, batched.prefix, batchSweep.runId);
  });

  afterAll(async () => {
    await direct?.close();
    if (batched) await terminateCollectors(batched.client, batched.config.temporal.taskQueue);
    await batched?.close();
  });

  it('gives the same verdicts as direct calls', () => {
    expect(batchVerdicts).toHaveLength(CLAIMS * METHODS.length);
    expect(labelsOf(batchVerdicts)).toEqual(labelsOf(directVerdicts));
  });

  it('sends every call through batches, each request submitted and answered once', () => {
    const counts = batchCounts(batched.simulator.requests());
    expect(counts.direct).toBe(0);
    expect(counts.answered.size).toBeGreaterThan(CLAIMS * METHODS.length);
    expect([...counts.submitted.values()].every((n) => n === 1)).toBe(true);
    expect([...counts.answered.values()].every((n) => n === 1)).toBe(true);
    // Calls of many verifications share a batch.
    expect(counts.batchesCreated).toBeLessThan(counts.submitted.size);
  });

  it('pays the batch price: half of the direct cost, with the same tokens', () => {
    const sum = (verdicts: Verdict[], pick: (verdict: Verdict) => number) => verdicts.reduce((total, verdict) => total + pick(verdict), 0);
    expect(sum(batchVerdicts, (v) => v.usage.totalTokens)).toBe(sum(directVerdicts, (v) => v.usage.totalTokens));
    expect(sum(directVerdicts, (v) => v.usage.costUsd)).toBeGreaterThan(0);
    expect(sum(batchVerdicts, (v) => v.usage.costUsd)).toBeCloseTo(sum(directVerdicts, (v) => v.usage.costUsd) / 2, 9);
  });
});
