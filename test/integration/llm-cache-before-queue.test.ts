import path from 'node:path';
import type { Client } from '@temporalio/client';
import { Worker } from '@temporalio/worker';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createLlmActivities } from '../../activities/llm.activities';
import { connectTemporal } from '../../src/client/temporal';
import type { VerityConfig } from '../../src/config/config';
import { createEsClient } from '../../src/es/client';
import { createLogger } from '../../src/logging/logger';
import { defineTask, registerTask } from '../../src/llm/task-registry';
import { type RunningSimulator, startSimulator } from '../../src/simulator/server';
import { createVerityWorker, type VerityWorker } from '../../src/worker/create-worker';
import { createWorkerDependencies, type WorkerDependencies } from '../../src/worker/dependencies';
import { deleteIndicesWithPrefix, testConfig, uniqueName } from '../support/test-env';
import { scheduledActivities } from '../support/workflow-history';

const WORKFLOWS_PATH = path.join(__dirname, '../support/workflows/llm-calls.workflow.ts');
const TASK = 'test.cache-before-queue';
/** A rate at which 20 queued calls would take 10 s; served from the cache they take none of it. */
const R = 2;

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

describe('LLM calls already in the request cache skip the rate-limited LLM queue (real Temporal, Elasticsearch and simulator)', () => {
  const prefix = uniqueName('cachefirst');
  const es = createEsClient({ url: process.env.ES_URL ?? 'http://127.0.0.1:9200' });
  let simulator: RunningSimulator;
  let config: VerityConfig;
  let deps: WorkerDependencies;
  let worker: VerityWorker;
  let running: Promise<void>;
  let client: Client;
  const chatRequests = () => simulator.requests().filter((r) => r.path === '/v1/chat/completions').length;
  const claims = ['Paris is the capital of France.', 'Paris is in Spain.'];

  beforeAll(async () => {
    simulator = await startSimulator({ port: 0, latencyMs: 20 });
    config = testConfig({ ES_INDEX_PREFIX: prefix, TEMPORAL_TASK_QUEUE: prefix, OPENAI_BASE_URL: simulator.url, OPENAI_API_KEY: 'sk-test', VERITY_LLM_RPS: String(R) });
    deps = await createWorkerDependencies(config, createLogger('warn'), { llmRequestsPerSecond: R });
    const llmActivities = createLlmActivities({ gateway: deps.gateway });
    const created = await createVerityWorker({
      temporal: config.temporal,
      taskQueue: config.temporal.taskQueue,
      workflowsPath: WORKFLOWS_PATH,
      activities: llmActivities,
      llmActivities,
      llm: { requestsPerSecond: R, concurrency: 8 },
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

  const run = async (calls: string[]) => {
    const handle = await client.workflow.start('llmCallsWorkflow', { taskQueue: config.temporal.taskQueue, workflowId: uniqueName('llm-calls'), args: [TASK, calls] });
    const result = (await handle.result()) as { cached: boolean[]; usage: { llmCalls: number; cachedLlmCalls: number } };
    const history = await handle.fetchHistory();
    await Worker.runReplayHistory({ workflowsPath: WORKFLOWS_PATH }, history, handle.workflowId);
    return { result, activities: await scheduledActivities(handle) };
  };

  it('pays for a first call on the LLM queue, then serves the same calls from the cache by a local activity, without queueing them', async () => {
    const before = chatRequests();
    const first = await run(claims);
    expect(first.result.cached).toEqual([false, false]);
    expect(first.activities).toEqual({ llmCachedAnswer: 2, llmTask: 2 });
    expect(chatRequests() - before).toBe(2);

    const repeated = Array.from({ length: 20 }, (_, i) => claims[i % 2]!);
    const second = await run(repeated);
    expect(second.result.cached).toEqual(repeated.map(() => true));
    expect(second.result.usage).toMatchObject({ llmCalls: 20, cachedLlmCalls: 20 });
    expect(second.activities).toEqual({ llmCachedAnswer: 20 });
    expect(chatRequests() - before).toBe(2);
  });

  it('queues a call whose lookup cannot answer (an unknown task), so the LLM activity reports the error as before', async () => {
    const handle = await client.workflow.start('llmCallsWorkflow', { taskQueue: config.temporal.taskQueue, workflowId: uniqueName('llm-calls'), args: ['test.no-such-task', ['x']] });
    await expect(handle.result()).rejects.toThrow();
    const activities = await scheduledActivities(handle);
    expect(activities).toEqual({ llmCachedAnswer: 1, llmTask: 1 });
  });
});
