import type { IndexDefinition } from '../es/ensure-index';

/**
 * `<prefix>-evidence-memory`: only what recall, export and stats query is mapped; args, evidence,
 * sources and entity keys live in `_source`. The vector size is fixed by the first embedded entry.
 */
export const EVIDENCE_MEMORY_INDEX: IndexDefinition = {
  mappings: {
    dynamic: false,
    properties: {
      id: { type: 'keyword' },
      runScope: { type: 'keyword' },
      claimId: { type: 'keyword' },
      keywords: { type: 'keyword' },
      tool: { type: 'keyword' },
      timestamp: { type: 'date' },
      insertionOrder: { type: 'long' },
      embedding: { type: 'dense_vector', index: true, similarity: 'cosine' },
      embeddingModel: { type: 'keyword' },
    },
  },
};
