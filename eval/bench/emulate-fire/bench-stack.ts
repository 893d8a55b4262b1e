import { Client, Connection } from '@temporalio/client';
import { DefaultLogger, Runtime } from '@temporalio/worker';
import type { Client as EsClient } from '@elastic/elasticsearch';
import { createActivities } from '../../../activities';
import { loadConfig, type VerityConfig } from '../../../src/config/config';
import { ingestCorpus } from '../../../src/corpus/ingest';
import { createEsClient } from '../../../src/es/client';
import { createLogger } from '../../../src/logging/logger';
import { WEB_TARGET, webIndexName } from '../../../src/search/web-index';
import { startSimulator, type RunningSimulator } from '../../../src/simulator/server';
import { createVerityWorker } from '../../../src/worker/create-worker';
import { createWorkerDependencies } from '../../../src/worker/dependencies';

export interface BenchStack {
  prefix: string;
  config: VerityConfig;
  client: Client;
  es: EsClient;
  simulator: RunningSimulator;
  close(): Promise<void>;
}

/**
 * The benchmark's own verity on the real Temporal and Elasticsearch: the simulator, the recorded
 * web ingested into `<prefix>-web`, and an in-process worker on a task queue named like the prefix.
 */
export async function startBenchStack(prefix: string, recordedWeb: string): Promise<BenchStack> {
  const es = createEsClient({ url: process.env.ES_URL ?? 'http://127.0.0.1:9200', requestTimeoutMs: 120_000 });
  const simulator = await startSimulator({ port: 0 });
  const config = loadConfig({
    ...process.env,
    VERITY_LOG_LEVEL: 'warn',
    ES_INDEX_PREFIX: prefix,
    TEMPORAL_TASK_QUEUE: prefix,
    OPENAI_BASE_URL: simulator.url,
    OPENAI_API_KEY: 'sk-simulator',
  });
  const ingested = await ingestCorpus({ client: es, index: webIndexName(prefix), file: recordedWeb, target: WEB_TARGET });
  if (ingested.failedCount > 0) throw new Error(`${ingested.failedCount} recorded-web passages failed to ingest`);
  await es.indices.refresh({ index: webIndexName(prefix) });
  Runtime.install({ logger: new DefaultLogger('WARN') });
  const deps = await createWorkerDependencies(config, createLogger('warn'));
  const { worker, connection } = await createVerityWorker({
    address: config.temporal.address,
    namespace: config.temporal.namespace,
    taskQueue: config.temporal.taskQueue,
    activities: createActivities(deps),
  });
  const workerDone = worker.run().finally(() => connection.close());
  const client = new Client({ connection: await Connection.connect({ address: config.temporal.address }), namespace: config.temporal.namespace });
  return {
    prefix,
    config,
    client,
    es,
    simulator,
    async close() {
      worker.shutdown();
      await workerDone;
      await deps.close();
      await client.connection.close();
      await simulator.close();
      const indices = Object.keys(await es.indices.get({ index: `${prefix}-*`, allow_no_indices: true, ignore_unavailable: true }));
      if (indices.length > 0) await es.indices.delete({ index: indices }, { ignore: [404] });
      await es.close();
    },
  };
}
