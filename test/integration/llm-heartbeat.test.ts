import path from 'node:path';
import type { Client } from '@temporalio/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createLlmActivities, LLM_HEARTBEAT_INTERVAL_MS } from '../../activities/llm.activities';
import { connectTemporal } from '../../src/client/temporal';
import type { VerityConfig } from '../../src/config/config';
import { createLogger } from '../../src/logging/logger';
import { defineTask, registerTask } from '../../src/llm/task-registry';
import { type RunningSimulator, startSimulator } from '../../src/simulator/server';
import { createVerityWorker } from '../../src/worker/create-worker';
import { createWorkerDependencies, type WorkerDependencies } from '../../src/worker/dependencies';
import { testConfig, uniqueName } from '../support/test-env';
import { waitFor } from '../support/wait-for';

const TASK = 'test.heartbeat';

registerTask(
  defineTask({
    id: TASK,
    version: '1',
    role: 'judge',
    schemaName: 'verdict',
    variables: z.object({ claim: z.string().min(1) }),
    output: z.object({ label: z.enum(['SUPPORTED', 'REFUTED', 'NEI']), evidence_ids: z.array(z.string()), rationale: z.string() }),
    render: ({ claim }) => [{ role: 'user', content: `Claim: ${claim}` }],
  }),
);

/**
 * Each heartbeat that reaches the server is a write to the workflow's state, so an LLM call sends
 * none until it has run for the heartbeat interval: a call shorter than that costs the engine
 * nothing extra, a longer one still shows it is alive (the heartbeat timeout counts from its start).
 */
describe('LLM call heartbeats against the real Temporal', () => {
  const prefix = uniqueName('heartbeat');
  let simulator: RunningSimulator;
  let config: VerityConfig;
  let deps: WorkerDependencies;
  let running: Promise<void>;
  let stopWorker: () => void;
  let client: Client;

  beforeAll(async () => {
    // Every model request hangs: the call runs until the test ends it.
    simulator = await startSimulator({ port: 0, faults: [{ kind: 'timeout', probability: 1 }] });
    config = testConfig({ ES_INDEX_PREFIX: prefix, TEMPORAL_TASK_QUEUE: prefix, OPENAI_BASE_URL: simulator.url, OPENAI_API_KEY: 'sk-test', VERITY_LLM_CACHE: 'off' });
    deps = await createWorkerDependencies(config, createLogger('warn'));
    const created = await createVerityWorker({
      temporal: config.temporal,
      taskQueue: config.temporal.taskQueue,
      workflowsPath: path.join(__dirname, '../support/workflows/llm-burst.workflow.ts'),
      activities: {},
      llmActivities: createLlmActivities({ gateway: deps.gateway }),
      llm: { requestsPerSecond: 50, concurrency: 4 },
    });
    stopWorker = () => created.worker.shutdown();
    running = created.worker.run().finally(() => created.connection.close());
    client = await connectTemporal(config);
  });

  afterAll(async () => {
    stopWorker?.();
    await running;
    await deps?.close();
    await client?.connection.close();
    await simulator?.close();
  });

  it(`records no heartbeat in a call's first ${LLM_HEARTBEAT_INTERVAL_MS / 1000} s, and one after that`, async () => {
    const handle = await client.workflow.start('llmBurstWorkflow', {
      taskQueue: config.temporal.taskQueue,
      workflowId: uniqueName('hb'),
      args: [TASK, ['Paris is the capital of France.']],
    });
    try {
      const pending = async () => (await handle.describe()).raw.pendingActivities?.[0];
      await waitFor('the LLM call to start', async () => (await pending())?.lastStartedTime != null, 10_000, 100);
      const startedAt = Date.now();
      await waitFor('the request at the simulator', async () => simulator.arrivals().length === 1, 10_000, 100);
      await new Promise((resolve) => setTimeout(resolve, LLM_HEARTBEAT_INTERVAL_MS - 1_500 - (Date.now() - startedAt)));
      expect((await pending())?.lastHeartbeatTime ?? null).toBeNull();
      await waitFor('a heartbeat', async () => (await pending())?.lastHeartbeatTime != null, LLM_HEARTBEAT_INTERVAL_MS + 5_000, 250);
      expect(Date.now() - startedAt).toBeGreaterThanOrEqual(LLM_HEARTBEAT_INTERVAL_MS - 1_000);
    } finally {
      await handle.terminate('test over');
    }
  });
});
