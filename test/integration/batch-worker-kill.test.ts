import type { Client } from '@temporalio/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectTemporal } from '../../src/client/temporal';
import { ingestCorpus } from '../../src/corpus/ingest';
import { createEsClient } from '../../src/es/client';
import { indexName } from '../../src/es/indices';
import { batchCollectorWorkflowId } from '../../src/shared/batch';
import { startSimulator, type RunningSimulator } from '../../src/simulator/server';
import type { BatchSimulatorOptions } from '../../src/simulator/batch/batch-faults';
import type { SimRequestRecord } from '../../src/simulator/request-log';
import { batchCollectorStatusQuery } from '../../workflows/batch-collector.workflow';
import { batchCounts, batchHistories, FAST_BATCH, startDemoSweep, terminateCollectors, unsoundHistories, verdictsOf } from '../support/batch-sweep';
import { spawnCli, type RunningCli } from '../support/cli-process';
import { DEMO_CORPUS, deleteIndicesWithPrefix, testConfig, uniqueName } from '../support/test-env';
import { waitFor } from '../support/wait-for';

const CLAIMS = 3;
const es = createEsClient({ url: process.env.ES_URL ?? 'http://127.0.0.1:9200' });

interface Phase {
  name: string;
  simulator: BatchSimulatorOptions;
  batch: Record<string, unknown>;
  /** True once the worker is in the phase to be killed in. */
  reached(records: SimRequestRecord[], collector: () => Promise<{ queued: number } | undefined>): Promise<boolean> | boolean;
}

const PHASES: Phase[] = [
  {
    // All requests signalled, none submitted yet.
    name: 'collecting',
    simulator: { turnaroundMs: 300 },
    batch: { ...FAST_BATCH, maxWaitSeconds: 6 },
    reached: async (records, collector) => batchCounts(records).batchesCreated === 0 && (await collector())?.queued === CLAIMS,
  },
  {
    // The batch is created but the submitting activity never hears back (the simulator holds the answer).
    name: 'submitted',
    simulator: { turnaroundMs: 300, delays: { create: 5_000 } },
    batch: FAST_BATCH,
    reached: (records) => records.some((record) => record.method === 'POST' && record.path === '/v1/batches'),
  },
  {
    name: 'polling',
    simulator: { turnaroundMs: 8_000 },
    batch: FAST_BATCH,
    reached: (records) => records.some((record) => record.method === 'GET' && /^\/v1\/batches\/batch_/.test(record.path)),
  },
  {
    // The results are being read (the simulator holds the download).
    name: 'downloading',
    simulator: { turnaroundMs: 300, delays: { content: 5_000 } },
    batch: FAST_BATCH,
    reached: (records) => records.some((record) => record.method === 'GET' && /\/content$/.test(record.path)),
  },
];

function startWorker(env: Record<string, string>): RunningCli {
  return spawnCli(['worker'], { ...env, VERITY_LOG_LEVEL: 'info' });
}

/**
 * A `verity worker` process is SIGKILLed in each phase of a batch (collecting, submitted, polling,
 * downloading) and a new one started: the sweep completes, every request is submitted and answered
 * exactly once (the simulator's request log), and no call goes around the batch.
 */
describe('a worker killed in each phase of a batch', () => {
  let client: Client;

  beforeAll(async () => {
    client = await connectTemporal(testConfig());
  });

  afterAll(async () => {
    await client?.connection.close();
    await es.close();
  });

  for (const phase of PHASES) {
    it(`loses nothing and submits nothing twice when killed while ${phase.name}`, async () => {
      const prefix = uniqueName(`batch-kill-${phase.name}`);
      const simulator: RunningSimulator = await startSimulator({ port: 0, batch: phase.simulator });
      const env = { ES_INDEX_PREFIX: prefix, TEMPORAL_TASK_QUEUE: prefix, OPENAI_BASE_URL: simulator.url, OPENAI_API_KEY: 'sk-test' };
      const config = testConfig(env);
      const workers: RunningCli[] = [];
      try {
        await ingestCorpus({ client: es, index: indexName(prefix, 'wiki'), file: DEMO_CORPUS });
        workers.push(startWorker(env));
        await workers[0]!.waitForStderr(/worker started/, 300_000);
        const sweep = await startDemoSweep(client, config, { label: phase.name, methods: ['rag'], claims: CLAIMS, batch: phase.batch });
        const collector = client.workflow.getHandle(batchCollectorWorkflowId(config.temporal.taskQueue, 'gpt-4o-mini'));
        const status = () => collector.query(batchCollectorStatusQuery).catch(() => undefined);
        await waitFor(`the ${phase.name} phase`, () => phase.reached(simulator.requests(), status), 300_000, 50);

        workers[0]!.child.kill('SIGKILL');
        await workers[0]!.exited;
        workers.push(startWorker(env));

        expect(await sweep.result()).toMatchObject({ status: 'completed', done: CLAIMS, failed: 0 });
        expect(await verdictsOf(es, prefix, sweep.runId)).toHaveLength(CLAIMS);
        const records = simulator.requests();
        expect(batchCounts(records).direct).toBe(0);
        const histories = batchHistories(records);
        expect(histories.size).toBe(CLAIMS);
        expect(unsoundHistories(histories)).toEqual([]);
        expect([...histories.values()].flat().filter((event) => event === 'submitted')).toHaveLength(CLAIMS);
      } finally {
        for (const worker of workers) if (worker.child.exitCode === null) worker.child.kill('SIGKILL');
        await Promise.all(workers.map((worker) => worker.exited));
        await terminateCollectors(client, config.temporal.taskQueue);
        await simulator.close();
        await deleteIndicesWithPrefix(es, prefix);
      }
    });
  }
});
