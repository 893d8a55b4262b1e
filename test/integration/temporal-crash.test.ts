import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Client as EsClient } from '@elastic/elasticsearch';
import { Client, Connection } from '@temporalio/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startInProcessWorker, type InProcessWorker } from '../../eval/bench/support/bench-stack';
import { isAlive, stopPidFile } from '../../infra/support';
import { ensureTemporal, ensureTemporalCli, temporalPaths } from '../../infra/temporal';
import { buildSweepInput, startSweep } from '../../src/client/start-sweep';
import type { VerityConfig } from '../../src/config/config';
import { ingestCorpus } from '../../src/corpus/ingest';
import { createEsClient } from '../../src/es/client';
import { indexName } from '../../src/es/indices';
import { createLogger } from '../../src/logging/logger';
import { runConfigSchema } from '../../src/runs/run-manifest';
import { startSimulator, type RunningSimulator } from '../../src/simulator/server';
import type { Verdict } from '../../src/shared/verify';
import { DEMO_CLAIMS, DEMO_CORPUS, deleteIndicesWithPrefix, testConfig, uniqueName } from '../support/test-env';
import { waitFor } from '../support/wait-for';

// A dev server of this test's own (never the shared one), so that killing it disturbs nobody.
const OWN_TEMPORAL = { address: '127.0.0.1:7251', uiUrl: 'http://127.0.0.1:8251' };
const VERIFICATIONS = 20; // the 10 demo claims × 2 models

/**
 * The dev server as `infra` starts it (SQLite file, WAL, synchronous=normal) is SIGKILLed in the
 * middle of a sweep and started again on the same file: the sweep completes with every verdict
 * exactly once and no failure, so nothing a crash of the server process interrupts is lost.
 */
describe('a kill -9 of the Temporal dev server in the middle of a sweep', () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'verity-temporal-crash-'));
  const prefix = uniqueName('crash');
  let config: VerityConfig;
  let simulator: RunningSimulator;
  let es: EsClient;
  let worker: InProcessWorker | undefined;

  beforeAll(async () => {
    simulator = await startSimulator({ port: 0, latencyMs: 300 });
    config = testConfig({
      TEMPORAL_ADDRESS: OWN_TEMPORAL.address,
      TEMPORAL_UI_URL: OWN_TEMPORAL.uiUrl,
      TEMPORAL_CLI_PATH: await ensureTemporalCli(testConfig()),
      VERITY_DATA_DIR: dataDir,
      ES_INDEX_PREFIX: prefix,
      TEMPORAL_TASK_QUEUE: prefix,
      OPENAI_BASE_URL: simulator.url,
      OPENAI_API_KEY: 'sk-test',
    });
    es = createEsClient({ url: config.elasticsearch.url });
    await ingestCorpus({ client: es, index: indexName(prefix, 'wiki'), file: DEMO_CORPUS });
  });

  afterAll(async () => {
    await worker?.close({ ignoreWorkerFailure: true });
    await stopPidFile(temporalPaths(dataDir).pidFile, 'temporal');
    await simulator?.close();
    await deleteIndicesWithPrefix(es, prefix);
    await es.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('loses nothing: the sweep completes with each verdict exactly once', async () => {
    const first = await ensureTemporal(config);
    expect(first.state).toBe('started');
    worker = await startInProcessWorker(config, createLogger('warn'), { llm: { requestsPerSecond: 50, concurrency: 8 } });
    const run = runConfigSchema.parse({
      run: uniqueName('crash-run'),
      datasets: [{ name: 'demo', file: DEMO_CLAIMS, format: 'verity' }],
      methods: ['rag'],
      models: ['gpt-4o-mini', 'gpt-4o'],
      concurrency: 2,
    });
    const { handle } = await startSweep(worker.client, config.temporal.taskQueue, buildSweepInput(config, run, dataDir));

    const verdictIndex = indexName(prefix, 'verdicts');
    const verdictCount = () => es.count({ index: verdictIndex, query: { term: { runId: run.run } } }).then((r) => r.count, () => 0);
    await waitFor('a few verdicts before the kill', async () => (await verdictCount()) >= 4, 60_000, 100);
    const atKill = await verdictCount();
    expect(atKill).toBeLessThan(VERIFICATIONS);

    process.kill(first.pid!, 'SIGKILL');
    await waitFor('the dev server to die', () => !isAlive(first.pid!), 10_000, 50);
    const second = await ensureTemporal(config);
    expect(second.state).toBe('started');
    expect(second.pid).not.toBe(first.pid);

    const client = new Client({ connection: await Connection.connect({ address: config.temporal.address }), namespace: config.temporal.namespace });
    try {
      const progress = await client.workflow.getHandle(handle.workflowId).result();
      expect(progress).toMatchObject({ status: 'completed', done: VERIFICATIONS, failed: 0 });
    } finally {
      await client.connection.close();
    }
    await es.indices.refresh({ index: verdictIndex });
    const verdicts = await es.search<Verdict>({ index: verdictIndex, size: 100, query: { term: { runId: run.run } } });
    const pairs = verdicts.hits.hits.map((hit) => `${hit._source!.claimId}|${hit._source!.model}`);
    expect(pairs).toHaveLength(VERIFICATIONS);
    expect(new Set(pairs).size).toBe(VERIFICATIONS);
  });
});
