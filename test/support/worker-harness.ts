import type { Client } from '@temporalio/client';
import type { Client as EsClient } from '@elastic/elasticsearch';
import { startInProcessWorker } from '../../eval/bench/support/bench-stack';
import type { VerityConfig } from '../../src/config/config';
import { ingestCorpus } from '../../src/corpus/ingest';
import { createEsClient } from '../../src/es/client';
import { indexName } from '../../src/es/indices';
import { createLogger } from '../../src/logging/logger';
import { startSimulator, type RunningSimulator, type SimulatorOptions } from '../../src/simulator/server';
import type { CreateWorkerOptions } from '../../src/worker/create-worker';
import type { WorkerDependencies } from '../../src/worker/dependencies';
import { DEMO_CORPUS, deleteIndicesWithPrefix, testConfig, uniqueName } from './test-env';

export interface WorkerHarness {
  prefix: string;
  /** The configuration variables of `config` (over process.env). */
  env: Record<string, string>;
  config: VerityConfig;
  simulator: RunningSimulator;
  deps: WorkerDependencies;
  client: Client;
  es: EsClient;
  /** Stops the worker, the simulator and the connections, and deletes the test's indices. */
  close(): Promise<void>;
}

export interface WorkerHarnessOptions {
  simulator?: SimulatorOptions;
  apiKey?: string;
  worker?: Pick<CreateWorkerOptions, 'maxCachedWorkflows' | 'llm' | 'workflowInterceptorModules'>;
  /** Configuration variables of the test (over the defaults). */
  env?: Record<string, string>;
}

/**
 * A test's own verity: the simulator over HTTP, the demo corpus in `<unique prefix>-wiki`, and an
 * in-process worker on a task queue named like the prefix, against the real Temporal and ES.
 */
export async function startWorkerHarness(label: string, options: WorkerHarnessOptions = {}): Promise<WorkerHarness> {
  const prefix = uniqueName(label);
  const es = createEsClient({ url: process.env.ES_URL ?? 'http://127.0.0.1:9200' });
  const simulator = await startSimulator({ port: 0, ...options.simulator });
  const env = {
    ES_INDEX_PREFIX: prefix,
    TEMPORAL_TASK_QUEUE: prefix,
    OPENAI_BASE_URL: simulator.url,
    OPENAI_API_KEY: options.apiKey ?? 'sk-test',
    ...options.env,
  };
  const config = testConfig(env);
  await ingestCorpus({ client: es, index: indexName(prefix, 'wiki'), file: DEMO_CORPUS });
  const worker = await startInProcessWorker(config, createLogger('warn'), options.worker);
  return {
    prefix,
    env,
    config,
    simulator,
    deps: worker.deps,
    client: worker.client,
    es,
    async close() {
      // Together: a request the simulator holds open (a hang fault) would otherwise keep the
      // worker's shutdown waiting for the client's timeout, since a sent request is never aborted.
      await Promise.all([worker.close(), simulator.close()]);
      await deleteIndicesWithPrefix(es, prefix);
      await es.close();
    },
  };
}
