import type { Client } from '@elastic/elasticsearch';
import type { VerityConfig } from '../config/config';
import { indexName } from '../es/indices';
import type { Embedder } from './embedder';
import { EvidenceMemory } from './evidence-memory';
import { EvidenceMemoryStore } from './memory-store';

/** The configured evidence memory over `<prefix>-evidence-memory`; `embedder` (the gateway) enables semantic recall. */
export function createEvidenceMemory(config: VerityConfig, es: Client, embedder?: Embedder): EvidenceMemory {
  return new EvidenceMemory({
    store: new EvidenceMemoryStore(es, indexName(config.elasticsearch.indexPrefix, 'evidence-memory')),
    embedder,
    embeddingModel: config.embedding.model,
  });
}
