import type { IndexDefinition } from '../es/ensure-index';

/** Mappings of `<prefix>-documents`: `_id` = the document id; claims and scores are stored whole, these fields are searchable. */
export const DOCUMENTS_INDEX: IndexDefinition = {
  mappings: {
    dynamic: false,
    properties: {
      documentId: { type: 'keyword' },
      source: { type: 'keyword' },
      runId: { type: 'keyword' },
      method: { type: 'keyword' },
      model: { type: 'keyword' },
      sentenceCount: { type: 'integer' },
      scores: { properties: { precision: { type: 'float' }, f1AtK: { type: 'float' } } },
      finishedAt: { type: 'date' },
    },
  },
};
