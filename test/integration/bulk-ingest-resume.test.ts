import type { Client } from '@temporalio/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bulkIngestProgress, startBulkIngest } from '../../src/client/bulk-ingest';
import { connectTemporal } from '../../src/client/temporal';
import { expectedGeneratedChecksum } from '../../src/corpus/bulk-ingest';
import { loadSourcePassages } from '../../src/corpus/generated-passages';
import { indexChecksum } from '../../src/corpus/index-checksum';
import { createEsClient } from '../../src/es/client';
import { indexName } from '../../src/es/indices';
import type { BulkIngestInput } from '../../src/shared/bulk-ingest';
import { startSimulator, type RunningSimulator } from '../../src/simulator/server';
import { spawnCli, type RunningCli } from '../support/cli-process';
import { DEMO_CORPUS, deleteIndicesWithPrefix, testConfig, uniqueName } from '../support/test-env';
import { waitFor } from '../support/wait-for';
import { expectDeterministicReplay } from '../support/workflow-history';

const TOTAL = 24_000;
const BATCH = 400;
const es = createEsClient({ url: process.env.ES_URL ?? 'http://127.0.0.1:9200' });

/**
 * The durable bulk ingest survives its worker: a `verity worker` is SIGKILLed mid-ingest and a new
 * one started; the index then holds every generated passage exactly once (count, distinct ids and
 * the order-independent checksum of ids and text equal the generator's), and no batch was
 * scheduled twice (the ingest went on from its history instead of starting over).
 */
describe('bulk ingest with its worker killed mid-way', () => {
  let client: Client;
  let simulator: RunningSimulator;

  beforeAll(async () => {
    client = await connectTemporal(testConfig());
    simulator = await startSimulator({ port: 0 });
  });

  afterAll(async () => {
    await simulator?.close();
    await client?.connection.close();
    await es.close();
  });

  it('resumes without duplicates or gaps', async () => {
    const prefix = uniqueName('bulk-ingest');
    const env = { ES_INDEX_PREFIX: prefix, TEMPORAL_TASK_QUEUE: prefix, OPENAI_BASE_URL: simulator.url, OPENAI_API_KEY: 'sk-test' };
    const config = testConfig(env);
    const index = indexName(prefix, 'wiki');
    const source = loadSourcePassages(DEMO_CORPUS);
    const input: BulkIngestInput = { index, corpus: { sourceFile: DEMO_CORPUS, sourceSha256: source.sha256, seed: 5, total: TOTAL }, batchSize: BATCH, parallel: 4, shards: 1 };
    const workers: RunningCli[] = [spawnCli(['worker'], env)];
    try {
      await workers[0]!.waitForStderr(/serving task queue/, 300_000);
      const { handle } = await startBulkIngest(client, config.temporal.taskQueue, input);
      await waitFor('a third of the batches', async () => ((await bulkIngestProgress(handle))?.passages ?? 0) >= TOTAL / 3, 300_000, 20);
      workers[0]!.child.kill('SIGKILL');
      await workers[0]!.exited;
      const atKill = await es.count({ index });
      expect(atKill.count).toBeLessThan(TOTAL);

      // Attaching again (a rerun of the command after its crash) finds the same ingest.
      const again = await startBulkIngest(client, config.temporal.taskQueue, input);
      expect(again.attached).toBe(true);
      workers.push(spawnCli(['worker'], env));
      const result = await handle.result();

      const expected = expectedGeneratedChecksum(source, input.corpus);
      expect(result).toMatchObject({ passages: TOTAL, batches: TOTAL / BATCH, checksum: expected.checksum });
      const stored = await indexChecksum(es, index, { trackIds: true, slices: 2 });
      expect(stored).toEqual({ count: TOTAL, distinctIds: TOTAL, checksum: expected.checksum });
      expect((await es.count({ index })).count).toBe(TOTAL);

      const history = await handle.fetchHistory();
      const scheduled = (history.events ?? []).filter((event) => event.activityTaskScheduledEventAttributes?.activityType?.name === 'ingestGeneratedBatch');
      expect(scheduled).toHaveLength(TOTAL / BATCH);
      const retried = (history.events ?? []).filter((event) => (event.activityTaskStartedEventAttributes?.attempt ?? 1) > 1);
      expect(retried.length).toBeGreaterThan(0);
      await expectDeterministicReplay([handle]);
    } finally {
      for (const worker of workers) if (worker.child.exitCode === null) worker.child.kill('SIGKILL');
      await Promise.all(workers.map((worker) => worker.exited));
      await deleteIndicesWithPrefix(es, prefix);
    }
  });

  it('`verity ingest generated` says the corpus is generated and writes progress lines when not on a terminal', async () => {
    const prefix = uniqueName('ingest-generated');
    const env = { ES_INDEX_PREFIX: prefix, TEMPORAL_TASK_QUEUE: prefix, OPENAI_BASE_URL: simulator.url, OPENAI_API_KEY: 'sk-test', VERITY_PROGRESS_INTERVAL_S: '1' };
    const worker = spawnCli(['worker'], env);
    try {
      await worker.waitForStderr(/serving task queue/, 300_000);
      const cli = await spawnCli(['ingest', 'generated', '--total', '3000', '--batch', '500', '--parallel', '2', '--source', DEMO_CORPUS], env).exited;
      expect(cli.code, cli.stderr).toBe(0);
      expect(cli.stderr).toContain('GENERATED corpus, not a real dump: 3000 passages');
      const index = indexName(prefix, 'wiki');
      const lines = cli.stderr.split('\n').filter((line) => line.startsWith(`ingest generated → ${index}: `));
      expect(lines.length, cli.stderr).toBeGreaterThanOrEqual(1);
      expect(lines.at(-1)).toMatch(/: 3000\/3000 passages \(100%\) · .* · ETA 0 s · 6\/6 batches, 0 in flight$/);
      expect(cli.stderr).not.toContain('\u001b[');
      expect(cli.stdout).toMatch(/^ingested 3000 generated passages into \S+ in 6 batches; checksum [0-9a-f]{16}$/m);
      expect((await es.count({ index })).count).toBe(3000);
    } finally {
      worker.child.kill('SIGKILL');
      await worker.exited;
      await deleteIndicesWithPrefix(es, prefix);
    }
  });
});
