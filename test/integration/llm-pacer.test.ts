import path from 'node:path';
import type { Client } from '@temporalio/client';
import { NativeConnection, Worker } from '@temporalio/worker';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createLlmActivities } from '../../activities/llm.activities';
import { setQueueRateLimit } from '../../src/client/queue-rate-limit';
import { connectTemporal } from '../../src/client/temporal';
import type { VerityConfig } from '../../src/config/config';
import { createEsClient } from '../../src/es/client';
import { createLogger } from '../../src/logging/logger';
import { defineTask, registerTask } from '../../src/llm/task-registry';
import { llmTaskQueue } from '../../src/shared/task-queues';
import { type RunningSimulator, startSimulator } from '../../src/simulator/server';
import { createVerityWorker, type VerityWorker } from '../../src/worker/create-worker';
import { createWorkerDependencies, type WorkerDependencies } from '../../src/worker/dependencies';
import { deleteIndicesWithPrefix, testConfig, uniqueName } from '../support/test-env';
import { waitFor } from '../support/wait-for';

const R = 10;
const CALLS = 40;
const TASK = 'test.pacer';

registerTask(
  defineTask({
    id: TASK,
    version: '1',
    role: 'judge',
    schemaName: 'verdict',
    variables: z.object({ claim: z.string().min(1) }),
    output: z.object({ label: z.enum(['SUPPORTED', 'REFUTED', 'NEI']), evidence_ids: z.array(z.string()), rationale: z.string() }),
    render: ({ claim }) => [
      { role: 'system', content: 'Decide whether the evidence supports the claim.' },
      { role: 'user', content: `Claim: ${claim}\n\nEvidence:\n[Paris#0] Paris is the capital of France.` },
    ],
  }),
);

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
  const prefix = uniqueName('pacer');
  const es = createEsClient({ url: process.env.ES_URL ?? 'http://127.0.0.1:9200' });
  let simulator: RunningSimulator;
  let config: VerityConfig;
  let deps: WorkerDependencies;
  let worker: VerityWorker;
  let running: Promise<void>;
  let client: Client;

  beforeAll(async () => {
    simulator = await startSimulator({ port: 0, latencyMs: 50 });
    config = testConfig({
      ES_INDEX_PREFIX: prefix,
      TEMPORAL_TASK_QUEUE: prefix,
      OPENAI_BASE_URL: simulator.url,
      OPENAI_API_KEY: 'sk-test',
      VERITY_LLM_RPS: String(R),
      VERITY_LLM_CACHE: 'off',
    });
    deps = await createWorkerDependencies(config, createLogger('warn'), { llmRequestsPerSecond: R });
    const created = await createVerityWorker({
      temporal: config.temporal,
      taskQueue: config.temporal.taskQueue,
      workflowsPath: path.join(__dirname, '../support/workflows/llm-burst.workflow.ts'),
      activities: {},
      llmActivities: createLlmActivities({ gateway: deps.gateway }),
      // As `verity worker` runs it: the server-side queue limit stays the global cap.
      llm: { requestsPerSecond: R, concurrency: CALLS },
    });
    worker = created.worker;
    running = worker.run().finally(() => created.connection.close());
    client = await connectTemporal(config);
  });

  afterAll(async () => {
    worker?.shutdown();
    await running;
    await deps?.close();
    await client?.connection.close();
    await simulator?.close();
    await deleteIndicesWithPrefix(es, prefix);
    await es.close();
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
    const arrivals = simulator.requests().filter((r) => r.path === '/v1/chat/completions').map((r) => Date.parse(r.time)).filter((t) => t >= since);
    expect(arrivals).toHaveLength(CALLS);
    expect(peakPerSecond(arrivals)).toBeLessThanOrEqual(Math.ceil(R * 1.05));
  });

  it('paces each process at R/2 once a second worker process polls the LLM queue, and follows a lower queue rate set after 429s', async () => {
    const connection = await NativeConnection.connect({ address: config.temporal.address });
    const second = await Worker.create({
      connection,
      namespace: config.temporal.namespace,
      taskQueue: llmTaskQueue(config.temporal.taskQueue),
      identity: `second-process-${prefix}@test`,
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
