/**
 * An in-process verity against the real Temporal and Elasticsearch, shared by the benchmarks, the
 * poisoning harness and the integration tests: an embedded worker with its Temporal client
 * (`startInProcessWorker`), and around it the simulator as LLM, the benchmark's own indices under
 * a prefix and the Elasticsearch client (`startBenchStack`).
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Client } from '@temporalio/client';
import { connectTemporal } from '../../../src/client/temporal';
import { ingestProgress } from '../../../src/cli/ingest-progress';
import type { Client as EsClient } from '@elastic/elasticsearch';
import { createActivities } from '../../../activities';
import { loadConfig, type VerityConfig } from '../../../src/config/config';
import { configStamp } from '../../../src/config/config-identity';
import { ingestCorpus, type IngestResult, type PassageTarget } from '../../../src/corpus/ingest';
import { createEsClient } from '../../../src/es/client';
import { createLogger, type Logger } from '../../../src/logging/logger';
import { startSimulator, type RunningSimulator } from '../../../src/simulator/server';
import { createVerityWorker, type CreateWorkerOptions } from '../../../src/worker/create-worker';
import { createWorkerDependencies, type WorkerDependencies } from '../../../src/worker/dependencies';

export interface InProcessWorker {
  client: Client;
  deps: WorkerDependencies;
  /** Stops the worker and waits for it, then releases the worker dependencies and the client's connection. */
  close(options?: { ignoreWorkerFailure?: boolean }): Promise<void>;
}

/**
 * A worker on `config.temporal.taskQueue` running in this process, and a client of the same
 * namespace. The Temporal Runtime (SDK logging) is the caller's to install beforehand, if at all.
 */
export async function startInProcessWorker(
  config: VerityConfig,
  logger: Logger,
  workerOptions: Pick<CreateWorkerOptions, 'maxCachedWorkflows' | 'llm' | 'workflowInterceptorModules'> = {},
): Promise<InProcessWorker> {
  const requestsPerSecond = workerOptions.llm?.requestsPerSecond;
  const deps = await createWorkerDependencies(config, logger, requestsPerSecond === undefined ? {} : { llmRequestsPerSecond: requestsPerSecond });
  const { worker, connection } = await createVerityWorker({
    temporal: config.temporal,
    taskQueue: config.temporal.taskQueue,
    activities: createActivities(deps),
    configStamp: configStamp(config),
    tuning: config.workerTuning,
    ...workerOptions,
  });
  const workerDone = worker.run().finally(() => connection.close());
  const client = await connectTemporal(config);
  return {
    client,
    deps,
    async close(options = {}) {
      worker.shutdown();
      if (options.ignoreWorkerFailure) await workerDone.catch(() => undefined);
      else await workerDone;
      await deps.close();
      await client.connection.close();
    },
  };
}

export interface BenchStackOptions {
  /** ES_INDEX_PREFIX, and the task queue unless `env` names another. */
  prefix: string;
  /** Environment overrides on top of process.env and the stack's defaults (log level warn, the simulator as LLM). */
  env?: Record<string, string>;
  /** Per-request timeout of the stack's Elasticsearch client (default: the client's). */
  esRequestTimeoutMs?: number;
  /** Builds the benchmark's indices before the worker starts. */
  ingest?(es: EsClient, prefix: string): Promise<unknown>;
  /** Logger of the worker dependencies (default: pino at warn). */
  logger?: Logger;
  /** Delete `<prefix>-*` on close (otherwise the indices stay for the next run). */
  deleteIndices?: boolean;
}

export interface BenchStack {
  prefix: string;
  config: VerityConfig;
  client: Client;
  es: EsClient;
  simulator: RunningSimulator;
  /** Stops the worker, the simulator and the connections (and deletes the indices if asked to). */
  close(): Promise<void>;
}

/** The benchmark's own verity: the simulator, its indices, and an in-process worker on the real Temporal and ES. */
export async function startBenchStack(options: BenchStackOptions): Promise<BenchStack> {
  const { prefix } = options;
  const simulator = await startSimulator({ port: 0 });
  const config = loadConfig({
    ...process.env,
    VERITY_LOG_LEVEL: 'warn',
    ES_INDEX_PREFIX: prefix,
    TEMPORAL_TASK_QUEUE: prefix,
    OPENAI_BASE_URL: simulator.url,
    OPENAI_API_KEY: 'sk-simulator',
    ...options.env,
  });
  const es = createEsClient({ ...config.elasticsearch, ...(options.esRequestTimeoutMs ? { requestTimeoutMs: options.esRequestTimeoutMs } : {}) });
  if (options.ingest) await options.ingest(es, prefix);
  const worker = await startInProcessWorker(config, options.logger ?? createLogger('warn'));
  return {
    prefix,
    config,
    client: worker.client,
    es,
    simulator,
    async close() {
      await worker.close();
      await simulator.close();
      if (options.deleteIndices) {
        const indices = Object.keys(await es.indices.get({ index: `${prefix}-*`, allow_no_indices: true, ignore_unavailable: true }));
        if (indices.length > 0) await es.indices.delete({ index: indices }, { ignore: [404] });
      }
      await es.close();
    },
  };
}

/** Ingests `file` into `index` and refreshes it; any rejected passage is an error. */
export async function ingestIndex(es: EsClient, index: string, file: string, target?: PassageTarget): Promise<IngestResult> {
  const { progress, onProgress } = ingestProgress(`ingest ${path.basename(file)} into ${index}`, loadConfig().progressIntervalMs);
  const ingested = await ingestCorpus({ client: es, index, file, onProgress, ...(target ? { target } : {}) }).finally(() => progress.finish());
  if (ingested.failedCount > 0) throw new Error(`${ingested.failedCount} passages of ${file} failed to ingest`);
  await es.indices.refresh({ index });
  return ingested;
}

/** The flags the sampled benchmarks share: `--sample N --seed 7 --model m --concurrency 6 -o key=value …`. */
export const SAMPLED_BENCH_OPTIONS = {
  sample: { type: 'string' as const },
  seed: { type: 'string' as const, default: '7' },
  model: { type: 'string' as const, default: 'gpt-4o-mini' },
  concurrency: { type: 'string' as const, default: '6' },
  option: { type: 'string' as const, short: 'o', multiple: true as const, default: [] as string[] },
};

/** Writes a benchmark's JSON report to `out` (creating its folder) and says so on stderr. */
export function writeReport(out: string, report: unknown): void {
  fs.mkdirSync(path.dirname(out), { recursive: true });
  fs.writeFileSync(out, `${JSON.stringify(report, null, 2)}\n`);
  process.stderr.write(`wrote ${path.relative(process.cwd(), out)}\n`);
}

/** Runs a benchmark's main; a failure is printed to stderr and exits with status 1. */
export function runMain(main: () => Promise<void>): void {
  main().catch((err: unknown) => {
    process.stderr.write(`${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
    process.exit(1);
  });
}
