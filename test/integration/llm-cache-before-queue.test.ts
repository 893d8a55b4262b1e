import path from 'node:path';
import { Worker } from '@temporalio/worker';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { workflowBundleOf } from '../../src/worker/workflow-bundle';
import { type LlmQueueHarness, registerClaimVerdictTask, startLlmQueueHarness } from '../support/llm-queue-harness';
import { uniqueName } from '../support/test-env';
import { scheduledActivities } from '../support/workflow-history';

const WORKFLOWS_PATH = path.join(__dirname, '../support/workflows/llm-calls.workflow.ts');
const TASK = 'test.cache-before-queue';
/** A rate at which 20 queued calls would take 10 s; served from the cache they take none of it. */
const R = 2;

registerClaimVerdictTask(TASK);

describe('LLM calls already in the request cache skip the rate-limited LLM queue (real Temporal, Elasticsearch and simulator)', () => {
  let harness: LlmQueueHarness;
  const claims = ['Paris is the capital of France.', 'Paris is in Spain.'];

  beforeAll(async () => {
    harness = await startLlmQueueHarness('cachefirst', { requestsPerSecond: R, llmConcurrency: 8, simulatorLatencyMs: 20, workflowsPath: WORKFLOWS_PATH, llmActivitiesOnMainQueue: true });
  });

  afterAll(async () => {
    await harness?.close();
  });

  const run = async (calls: string[]) => {
    const handle = await harness.client.workflow.start('llmCallsWorkflow', { taskQueue: harness.config.temporal.taskQueue, workflowId: uniqueName('llm-calls'), args: [TASK, calls] });
    const result = (await handle.result()) as { cached: boolean[]; usage: { llmCalls: number; cachedLlmCalls: number } };
    const history = await handle.fetchHistory();
    // With the interceptors the worker runs them with: they take part in the history (patch markers).
    await Worker.runReplayHistory({ workflowBundle: await workflowBundleOf(WORKFLOWS_PATH) }, history, handle.workflowId);
    return { result, activities: await scheduledActivities(handle) };
  };

  it('pays for a first call on the LLM queue, then serves the same calls from the cache by a local activity, without queueing them', async () => {
    const before = harness.chatRequests();
    const first = await run(claims);
    expect(first.result.cached).toEqual([false, false]);
    expect(first.activities).toEqual({ llmCachedAnswer: 2, llmTask: 2 });
    expect(harness.chatRequests() - before).toBe(2);

    const repeated = Array.from({ length: 20 }, (_, i) => claims[i % 2]!);
    const second = await run(repeated);
    expect(second.result.cached).toEqual(repeated.map(() => true));
    expect(second.result.usage).toMatchObject({ llmCalls: 20, cachedLlmCalls: 20 });
    expect(second.activities).toEqual({ llmCachedAnswer: 20 });
    expect(harness.chatRequests() - before).toBe(2);
  });

  it('queues a call whose lookup cannot answer (an unknown task), so the LLM activity reports the error as before', async () => {
    const handle = await harness.client.workflow.start('llmCallsWorkflow', { taskQueue: harness.config.temporal.taskQueue, workflowId: uniqueName('llm-calls'), args: ['test.no-such-task', ['x']] });
    await expect(handle.result()).rejects.toThrow();
    const activities = await scheduledActivities(handle);
    expect(activities).toEqual({ llmCachedAnswer: 1, llmTask: 1 });
  });
});
