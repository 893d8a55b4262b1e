import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { batchHistories, FAST_BATCH, labelsOf, startDemoSweep, terminateCollectors, unsoundHistories, verdictsOf } from '../support/batch-sweep';
import { startWorkerHarness, type WorkerHarness } from '../support/worker-harness';
import { batchCollectorWorkflowId } from '../../src/shared/batch';
import { batchCollectorStatusQuery } from '../../workflows/batch-collector.workflow';

const CLAIMS = 4;

/**
 * The simulator expires the first batch (half its requests unanswered) and fails every fourth
 * request line with a 500: the sweep still completes with the verdicts of a sweep without faults,
 * and only the requests left without an answer are submitted again.
 */
describe('batch: true with an expired and partly failed batches, its collector continuing as new', () => {
  let clean: WorkerHarness;
  let faulty: WorkerHarness;

  beforeAll(async () => {
    clean = await startWorkerHarness('batch-clean', { simulator: { batch: { turnaroundMs: 200 } } });
    faulty = await startWorkerHarness('batch-faulty', { simulator: { batch: { turnaroundMs: 200, expiry: [{ everyNth: 1, times: 1 }], lineFaults: [{ kind: '500', everyNth: 4 }] } } });
  });

  afterAll(async () => {
    for (const harness of [clean, faulty]) {
      if (!harness) continue;
      await terminateCollectors(harness.client, harness.config.temporal.taskQueue);
      await harness.close();
    }
  });

  it('recovers: same verdicts, each request answered once, resubmitted only after it got no answer', async () => {
    const batch = { ...FAST_BATCH, maxSubmissions: 5 };
    const cleanSweep = await startDemoSweep(clean.client, clean.config, { label: 'clean', methods: ['rag', 'mermaid'], claims: CLAIMS, batch });
    // A collector history this short continues as new several times during the sweep.
    const faultySweep = await startDemoSweep(faulty.client, faulty.config, { label: 'faulty', methods: ['rag', 'mermaid'], claims: CLAIMS, batch, lane: { maxHistoryEvents: 60 } });
    expect(await cleanSweep.result()).toMatchObject({ status: 'completed', failed: 0 });
    expect(await faultySweep.result()).toMatchObject({ status: 'completed', failed: 0 });
    expect(labelsOf(await verdictsOf(faulty.es, faulty.prefix, faultySweep.runId))).toEqual(labelsOf(await verdictsOf(clean.es, clean.prefix, cleanSweep.runId)));

    const histories = batchHistories(faulty.simulator.requests());
    expect(unsoundHistories(histories)).toEqual([]);
    const events = [...histories.values()].flat();
    expect(events).toContain('expired');
    expect(events).toContain('answered 500');
    const collector = faulty.client.workflow.getHandle(batchCollectorWorkflowId(faulty.config.temporal.taskQueue, 'gpt-4o-mini'));
    expect((await collector.query(batchCollectorStatusQuery)).continuedAsNew).toBeGreaterThan(0);
  });
});
