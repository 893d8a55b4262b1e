import path from 'node:path';
import { Client as EsClient } from '@elastic/elasticsearch';
import type { Client } from '@temporalio/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { peakRequests } from '../../eval/chaos/request-analysis';
import { connectTemporal } from '../../src/client/temporal';
import { LlmPacingStore } from '../../src/llm/llm-pacing-store';
import { llmTaskQueue } from '../../src/shared/task-queues';
import { type RunningSimulator, startSimulator } from '../../src/simulator/server';
import { type RunningCli, spawnScript } from '../support/cli-process';
import { deleteIndicesWithPrefix, testConfig, uniqueName } from '../support/test-env';
import { waitFor } from '../support/wait-for';

const R = 1;
const CALLS = 20;
const TASK = 'test.rate-across-processes';
/** Arrivals at the simulator are the shared schedule plus the delay of each send (event loop, loopback; a few hundred ms on a loaded 2-core machine). */
const JITTER_MS = 250;
/** The provider (simulator) refuses above this (429): half the cap. */
const PROVIDER_RPS = 0.5;
const AIMD_INTERVAL_MS = 2_000;
const AIMD_CALLS = 16;
const WORKER_SCRIPT = path.join(__dirname, '..', 'support', 'llm-queue-worker.ts');

/**
 * Issue 40 item 3: worker processes of one LLM queue, each with VERITY_LLM_RPS = R, together start
 * at most R requests per second in every window, as the simulator's request log shows, also while
 * processes join in the middle of a burst (before: a joining process sent its first request at once
 * and its share was R until its first refresh, the others' R/(N-1) until their next one).
 */
describe('one LLM rate cap for several worker processes (real Temporal, Elasticsearch and simulator)', () => {
  const prefix = uniqueName('ratexp');
  const es = new EsClient({ node: process.env.ES_URL ?? 'http://127.0.0.1:9200' });
  let simulator: RunningSimulator;
  let client: Client;
  const workers: RunningCli[] = [];

  let taskQueue: string;
  const workerEnv = (): Record<string, string> => ({
    ES_INDEX_PREFIX: prefix,
    TEMPORAL_TASK_QUEUE: prefix,
    OPENAI_BASE_URL: simulator.url,
    OPENAI_API_KEY: 'sk-test',
    VERITY_LLM_RPS: String(R),
    VERITY_LLM_CONCURRENCY: '16',
    VERITY_LLM_CACHE: 'off',
    VERITY_TEST_LLM_TASK: TASK,
    VERITY_LLM_AIMD_INTERVAL_MS: String(AIMD_INTERVAL_MS),
  });

  const startWorker = async (): Promise<RunningCli> => {
    const worker = spawnScript(WORKER_SCRIPT, [], workerEnv());
    workers.push(worker);
    await worker.waitForStderr(/llm queue worker polling/, 60_000);
    return worker;
  };

  beforeAll(async () => {
    simulator = await startSimulator({ port: 0, latencyMs: 50 });
    const config = testConfig(workerEnv());
    // The configuration's own queue (the task queue name carries its stamp).
    taskQueue = config.temporal.taskQueue;
    client = await connectTemporal(config);
  });

  afterAll(async () => {
    for (const worker of workers) worker.child.kill('SIGTERM');
    await Promise.all(workers.map((worker) => worker.exited));
    await client?.connection.close();
    await simulator?.close();
    await deleteIndicesWithPrefix(es, prefix);
    await es.close();
  });

  it(`keeps three processes, one joining mid-burst, at ${R} request per second together in every 1, 5 and 10 s window`, async () => {
    // Two processes poll before the burst: the server's first dispatches (a token per queue partition) reach both at once.
    await Promise.all([startWorker(), startWorker()]);
    const chat = () => simulator.requests().filter((r) => r.path === '/v1/chat/completions');
    const claims = Array.from({ length: CALLS }, (_, i) => `Paris is the capital of France (${i}).`);
    const handle = await client.workflow.start('llmBurstWorkflow', { taskQueue, workflowId: uniqueName('burst'), args: [TASK, claims] });
    await waitFor('the first process under way', async () => chat().length >= 4, 60_000, 100);
    await startWorker();
    expect(await handle.result()).toBe(CALLS);

    const arrivals = chat();
    expect(arrivals).toHaveLength(CALLS);
    const times = arrivals.map((r) => Date.parse(r.time)).sort((a, b) => a - b);
    const closest = Math.min(...times.slice(1).map((time, i) => time - times[i]!));
    expect(closest, 'the closest two requests (ms apart)').toBeGreaterThanOrEqual(1000 / R - JITTER_MS);
    for (const seconds of [1, 5, 10]) {
      const peak = peakRequests(arrivals, seconds * 1000 - JITTER_MS);
      expect(peak, `requests started within ${seconds} s`).toBeLessThanOrEqual(Math.ceil(R * seconds));
    }
  });

  it(`cuts the rate all processes follow when the provider refuses above ${PROVIDER_RPS}/s, raises it step by step, and converges below it`, async () => {
    const pacing = new LlmPacingStore(es, prefix);
    const llmQueue = llmTaskQueue(taskQueue);
    simulator.setFaults([{ kind: '429', aboveRps: PROVIDER_RPS }]);
    const since = Date.now();
    const claims = Array.from({ length: AIMD_CALLS }, (_, i) => `Rome is the capital of Italy (${i}).`);
    const handle = await client.workflow.start('llmBurstWorkflow', { taskQueue, workflowId: uniqueName('aimd'), args: [TASK, claims] });
    const rates: number[] = [];
    const result = handle.result();
    let done = false;
    void result.finally(() => (done = true));
    while (!done) {
      const limit = await pacing.rateLimitOf(llmQueue);
      if (limit !== undefined && rates[rates.length - 1] !== limit) rates.push(limit);
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    expect(await result).toBe(AIMD_CALLS);

    const lowest = Math.min(...rates);
    expect(lowest, `rates followed: ${rates.join(' → ')}`).toBeLessThanOrEqual(PROVIDER_RPS);
    // Additive increase after the lowest cut.
    expect(rates.slice(rates.indexOf(lowest)).some((rate) => rate > lowest), `rates followed: ${rates.join(' → ')}`).toBe(true);
    const sent = simulator.requests().filter((r) => r.path === '/v1/chat/completions' && Date.parse(r.time) >= since);
    const times = sent.map((r) => Date.parse(r.time)).sort((a, b) => a - b);
    const middle = (times[0]! + times[times.length - 1]!) / 2;
    const secondHalf = times.filter((time) => time >= middle);
    const secondHalfRate = (secondHalf.length - 1) / ((secondHalf[secondHalf.length - 1]! - secondHalf[0]!) / 1000);
    const summary = `rates followed ${rates.join(' → ')}; ${sent.length} sent, ${sent.filter((r) => r.status === 429).length} refused; second half ${secondHalf.length} at ${secondHalfRate.toFixed(2)}/s`;
    expect(secondHalfRate, summary).toBeLessThanOrEqual(PROVIDER_RPS * 1.2);
  });
});
