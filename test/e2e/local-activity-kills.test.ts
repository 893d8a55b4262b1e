import { type ChildProcess, spawn } from 'node:child_process';
import os from 'node:os';
import path from 'node:path';
import { Client, Connection } from '@temporalio/client';
import { Worker } from '@temporalio/worker';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildSweepInput, startSweep } from '../../src/client/start-sweep';
import type { VerityConfig } from '../../src/config/config';
import { ingestCorpus } from '../../src/corpus/ingest';
import { createEsClient } from '../../src/es/client';
import { indexName } from '../../src/es/indices';
import { projectRoot } from '../../src/project-root';
import { runConfigSchema } from '../../src/runs/run-manifest';
import type { SweepProgress } from '../../src/shared/sweep';
import { startSimulator, type RunningSimulator } from '../../src/simulator/server';
import { verdictsOf } from '../support/batch-sweep';
import { FAIL_AT_ENV, KILL_AT_ENV } from '../support/killable-worker';
import { replayOptions } from '../support/replay-options';
import { DEMO_CLAIMS, DEMO_CORPUS, deleteIndicesWithPrefix, SHARED_DATA, testConfig, uniqueName } from '../support/test-env';
import { WEB_TARGET, webIndexName } from '../../src/search/web-index';

/**
 * Issue 42, the class and not the instance: a sweep with every method that runs local activities
 * (the LLM call path's cache lookup, RAG and Tool-MAD retrieval, Tool-MAD's relevance scoring, ToE's
 * policy step, MERMAID's evidence memory, the stored verdict) runs on a chain of worker processes,
 * each killed with SIGKILL at one local-activity point: before it runs, during it (its result lost),
 * after its marker, and at its retry. The next worker replays every open workflow from its history.
 * Local activities also finish one by one in the first run (small, varying delays), so a replay gets
 * their results grouped, the situation of the wedged Tool-MAD round; and each worker's third cache
 * lookup fails (a local activity's failure, which must be a cache miss). Afterwards every
 * (claim, method) has one verdict, nothing failed, and every workflow of the run replays.
 */
const KILL_POINTS = [
  'llmCachedAnswer#4:before',
  'memoryRecall#1:after',
  'retrievePassages#2:during',
  'toeSelectAction#1:retry',
  'toolMadQuestionSimilarity#1:during',
  'storeVerdict#2:retry',
  'storeVerdict#1:after',
  'toolMadQuestionSimilarity#1:before',
];
const RECORDED_WEB = path.join(SHARED_DATA, 'corpus', 'web_factcheckbench.jsonl');
const METHODS = ['rag', 'mermaid', 'tool-mad', 'toe'];
const CLAIMS = 2;

describe('a sweep of every method, its worker killed at local-activity points', () => {
  const prefix = uniqueName('lakill');
  const es = createEsClient({ url: process.env.ES_URL ?? 'http://127.0.0.1:9200' });
  const workers: ChildProcess[] = [];
  let simulator: RunningSimulator;
  let config: VerityConfig;
  let client: Client;

  beforeAll(async () => {
    simulator = await startSimulator({ port: 0, latencyMs: 40 });
    config = testConfig({ ES_INDEX_PREFIX: prefix, TEMPORAL_TASK_QUEUE: prefix, OPENAI_BASE_URL: simulator.url, OPENAI_API_KEY: 'sk-kill-test' });
    await ingestCorpus({ client: es, index: indexName(prefix, 'wiki'), file: DEMO_CORPUS });
    // Tool-MAD's search debater reads the recorded web.
    await ingestCorpus({ client: es, index: webIndexName(prefix), file: RECORDED_WEB, target: WEB_TARGET });
    client = new Client({ connection: await Connection.connect({ address: config.temporal.address }) });
  });

  afterAll(async () => {
    for (const child of workers) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    await client?.connection.close();
    await simulator?.close();
    await deleteIndicesWithPrefix(es, prefix);
    await es.close();
  });

  /** One worker process with the kill points left; resolves with the point it died at (or null when it was stopped). */
  function runWorker(points: string[]): { child: ChildProcess; died: Promise<string | null> } {
    const child = spawn(process.execPath, ['--import', 'tsx', path.join(projectRoot(), 'test', 'support', 'killable-worker.ts')], {
      env: {
        ...process.env,
        ES_INDEX_PREFIX: prefix,
        TEMPORAL_TASK_QUEUE: prefix,
        OPENAI_BASE_URL: simulator.url,
        OPENAI_API_KEY: 'sk-kill-test',
        VERITY_LOG_LEVEL: 'error',
        [KILL_AT_ENV]: points.join(','),
        // A failed cache lookup is a miss (the call is paid), never the claim's failure.
        [FAIL_AT_ENV]: 'llmCachedAnswer#3',
      },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    workers.push(child);
    let stderr = '';
    child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const died = new Promise<string | null>((resolve) => child.once('exit', () => resolve(/kill-at (\S+)/.exec(stderr)?.[1] ?? null)));
    return { child, died };
  }

  it('finishes every verification once, and every workflow of the run replays', async () => {
    const run = runConfigSchema.parse({
      run: uniqueName('lakill-run'),
      datasets: [{ name: 'demo', file: DEMO_CLAIMS, format: 'verity', sample: CLAIMS }],
      methods: METHODS,
      models: ['gpt-4o-mini'],
      // MERMAID's evidence memory needs claims in order; the concurrency that matters is inside a verification.
      ordered: true,
      parameters: { toe: { maxDepth: 1, maxIterations: 2 }, 'tool-mad': { maxRounds: 2 } },
    });
    const { handle } = await startSweep(client, config.temporal.taskQueue, buildSweepInput(config, run, os.tmpdir()));
    const result = handle.result() as Promise<SweepProgress>;
    let finished = false;
    void result.finally(() => (finished = true));

    // The chain: each worker dies at the first point of those left it reaches; the last one has none left or the sweep ends.
    const fired: string[] = [];
    let left = [...KILL_POINTS];
    let current = runWorker(left);
    while (!finished && left.length > 0) {
      const point = await Promise.race([current.died, result.then(() => undefined)]);
      if (point === undefined) break;
      if (point === null) throw new Error('a worker exited without reaching a kill point');
      fired.push(point);
      left = left.filter((p) => p !== point);
      current = runWorker(left);
    }
    const progress = await result;
    current.child.kill('SIGTERM');
    await current.died;

    expect(progress, `failures: ${JSON.stringify(progress.topFailureReasons)}; kills: ${fired.join(', ')}`).toMatchObject({ status: 'completed', total: CLAIMS * METHODS.length, done: CLAIMS * METHODS.length, failed: 0 });
    const verdicts = await verdictsOf(es, prefix, run.run);
    const keys = verdicts.map((v) => `${v.claimId}|${v.method}`);
    expect(new Set(keys).size).toBe(CLAIMS * METHODS.length);
    expect(keys).toHaveLength(CLAIMS * METHODS.length);
    // Most points are reached (each worker counts anew, so a late point may come after the work it needs).
    expect(fired.length).toBeGreaterThanOrEqual(6);
    for (const phase of ['before', 'during', 'after', 'retry']) expect(fired.some((p) => p.endsWith(`:${phase}`))).toBe(true);

    const histories = [];
    for (const query of [`WorkflowId STARTS_WITH "verify/${run.run}/"`, `WorkflowId STARTS_WITH "sweep/${run.run}/"`]) {
      for await (const execution of client.workflow.list({ query })) {
        histories.push({ workflowId: execution.workflowId, history: await client.workflow.getHandle(execution.workflowId, execution.runId).fetchHistory() });
      }
    }
    const types = new Set(histories.map((h) => h.workflowId.split('/').at(-1)!.replace(/-\d+$/, '')));
    expect(histories.length).toBeGreaterThan(CLAIMS * METHODS.length);
    const failures: string[] = [];
    for await (const replay of Worker.runReplayHistories(await replayOptions(), histories)) {
      if (replay.error) failures.push(`${replay.workflowId}: ${replay.error.message.slice(0, 300)}`);
    }
    expect(failures, `workflows that no longer replay (kinds: ${[...types].join(', ')}; kills: ${fired.join(', ')})`).toEqual([]);
  });
});
