import type { ActivityDependencies } from '../../activities';
import type { VerityConfig } from '../config/config';
import { createEsClient } from '../es/client';
import { indexName } from '../es/indices';
import { createLlmGateway } from '../llm/create-gateway';
import { resolveLlmEndpoint } from '../llm/endpoint';
import type { LlmGateway } from '../llm/gateway';
import type { Logger } from '../logging/logger';
import { EvidenceMemory } from '../memory/evidence-memory';
import { EvidenceMemoryStore } from '../memory/memory-store';
import '../methods/tasks';
import { VerdictStore } from '../verdicts/verdict-store';

export interface WorkerDependencies extends ActivityDependencies {
  close(): Promise<void>;
}

/**
 * Builds what the activities need from the configuration. Secrets stay here, in the worker
 * process; workflows only ever see task ids and plain data.
 */
export async function createWorkerDependencies(config: VerityConfig, logger: Logger): Promise<WorkerDependencies> {
  const es = createEsClient({ url: config.elasticsearch.url });
  const endpoint = await resolveLlmEndpoint(config, logger);
  const gateway = createLlmGateway({ config, endpoint, es, logger });
  const verdicts = new VerdictStore(es, indexName(config.elasticsearch.indexPrefix, 'verdicts'));
  await prepareIndices(gateway, verdicts, logger);
  return {
    es,
    gateway,
    verdicts,
    memory: new EvidenceMemory({
      store: new EvidenceMemoryStore(es, indexName(config.elasticsearch.indexPrefix, 'evidence-memory')),
      embedder: gateway,
      embeddingModel: config.llm.embeddingModel,
    }),
    memoryDefaults: config.memory,
    async close() {
      await endpoint.close();
      await es.close();
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
