import { Client as TemporalClient } from '@temporalio/client';
import { connectTemporalConnection } from '../client/temporal';
import type { ActivityDependencies } from '../../activities';
import type { VerityConfig } from '../config/config';
import { createEsClient } from '../es/client';
import { indexName } from '../es/indices';
import { createLlmGateway } from '../llm/create-gateway';
import { resolveLlmEndpoint } from '../llm/endpoint';
import type { LlmGateway } from '../llm/gateway';
import { PacerRateRefresher } from '../llm/pacer-rate';
import { RateLimitReporter } from '../client/rate-limit-reporter';
import { RequestPacer } from '../llm/request-pacer';
import { LlmPacingStore } from '../llm/llm-pacing-store';
import { SharedRequestPacer } from '../llm/shared-request-pacer';
import { llmTaskQueue } from '../shared/task-queues';
import { defaultLlmRateSettings } from '../shared/llm-rate';
import type { Logger } from '../logging/logger';
import { createEvidenceMemory } from '../memory/create-memory';
import '../methods/tasks';
import { RunClaimStore } from '../runs/run-claim-store';
import { RunFailureStore } from '../runs/run-failure-store';
import { RunStore } from '../runs/run-store';
import { createToolRegistry, toolDependenciesFromConfig } from '../tools/create-registry';
import { VerdictStore } from '../verdicts/verdict-store';
import { DocumentStore } from '../check/document-store';
import { flushTracing } from '../telemetry/flush';
import { BatchRequestStore } from '../llm/batch/batch-request-store';

export interface WorkerDependencies extends ActivityDependencies {
  /** Keeps the fallback pacer at this process's share of the rate (when the worker has one). */
  pacerRate?: PacerRateRefresher;
  /** Paces chat requests on the schedule all machines of the LLM queue share (when the worker has a rate). */
  sharedPacer?: SharedRequestPacer;
  close(): Promise<void>;
}

export interface WorkerDependencyOptions {
  /** The LLM queue's rate (VERITY_LLM_RPS) for all machines together: chat requests are paced to it. None: no pacing. */
  llmRequestsPerSecond?: number;
}

/**
 * Builds what the activities need from the configuration. Secrets stay here, in the worker
 * process; workflows only ever see task ids and plain data.
 */
export async function createWorkerDependencies(config: VerityConfig, logger: Logger, options: WorkerDependencyOptions = {}): Promise<WorkerDependencies> {
  const es = createEsClient(config.elasticsearch);
  const endpoint = await resolveLlmEndpoint(config, logger);
  const { llmRequestsPerSecond } = options;
  const prefix = config.elasticsearch.indexPrefix;
  const llmPacing = new LlmPacingStore(es, prefix);
  const pacer = llmRequestsPerSecond === undefined ? undefined : new RequestPacer(llmRequestsPerSecond);
  const sharedPacer =
    pacer && llmRequestsPerSecond !== undefined
      ? new SharedRequestPacer({ reservations: llmPacing, llmTaskQueue: llmTaskQueue(config.temporal.taskQueue), requestsPerSecond: llmRequestsPerSecond, fallback: pacer, logger })
      : undefined;
  const gateway = createLlmGateway({ config, endpoint, es, logger, ...(sharedPacer ? { pacer: sharedPacer } : {}) });
  const verdicts = new VerdictStore(es, indexName(prefix, 'verdicts'));
  await prepareIndices(gateway, verdicts, logger);
  const memory = createEvidenceMemory(config, es, gateway);
  let temporal: Promise<TemporalClient> | undefined;
  const temporalClient = () => {
    temporal ??= connectTemporalConnection(config.temporal).then(
      (connection) => new TemporalClient({ connection, namespace: config.temporal.namespace }),
    );
    // A failed connect is not cached: the activity's retry connects again.
    temporal.catch(() => {
      temporal = undefined;
    });
    return temporal;
  };
  const pacerRate =
    pacer && llmRequestsPerSecond !== undefined
      ? new PacerRateRefresher({ pacer, requestsPerSecond: llmRequestsPerSecond, temporal: temporalClient, llmTaskQueue: llmTaskQueue(config.temporal.taskQueue), logger })
      : undefined;
  pacerRate?.start();
  return {
    es,
    gateway,
    verdicts,
    tools: createToolRegistry(toolDependenciesFromConfig(config, es, { gateway, memory })),
    memory,
    memoryDefaults: config.memory,
    runs: new RunStore(es, indexName(prefix, 'runs')),
    runClaims: new RunClaimStore(es, indexName(prefix, 'run-claims')),
    runFailures: new RunFailureStore(es, indexName(prefix, 'run-failures')),
    documents: new DocumentStore(es, indexName(prefix, 'documents')),
    batchRequests: new BatchRequestStore(es, indexName(prefix, 'llm-batch-requests')),
    temporal: temporalClient,
    rateLimits: new RateLimitReporter({
      temporal: temporalClient,
      taskQueue: config.temporal.taskQueue,
      settings: defaultLlmRateSettings(config.llm.requestsPerSecond, config.llm.adaptiveRateIntervalMs),
      logger,
    }),
    pacerRate,
    ...(sharedPacer ? { sharedPacer } : {}),
    llmPacing,
    async close() {
      pacerRate?.stop();
      await flushTracing();
      await endpoint.close();
      await es.close();
      if (temporal) await temporal.then((client) => client.connection.close()).catch(() => undefined);
    },
  };
}

/** Best effort: with Elasticsearch down the worker still starts, and the indices are made on first use. */
async function prepareIndices(gateway: LlmGateway, verdicts: VerdictStore, logger: Logger): Promise<void> {
  try {
    await Promise.all([gateway.prepare(), verdicts.ensureIndex()]);
  } catch (err) {
    logger.warn({ err: (err as Error).message }, 'could not prepare the Elasticsearch indices; they are created on first use');
  }
}
