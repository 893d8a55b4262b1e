import type { Client } from '@elastic/elasticsearch';
import { searchPassages } from '../src/retrieval/bm25';
import { OBSERVATION_MAX_CHARS } from '../src/shared/constants';
import { truncate } from '../src/shared/text';
import type { EvidencePassage } from '../src/shared/verify';
import { toEsFailure } from './support/es-failure';

export interface RetrievePassagesInput {
  query: string;
  index: string;
  k: number;
}

export function createRetrievalActivities(deps: { es: Client }) {
  return {
    /** BM25 top-k passages; texts are truncated so histories stay small. */
    async retrievePassages(input: RetrievePassagesInput): Promise<{ passages: EvidencePassage[] }> {
      try {
        const hits = await searchPassages(deps.es, input.index, input.query, input.k);
        return {
          passages: hits.map((hit) => ({
            id: hit.id,
            docId: hit.docId,
            title: hit.title,
            text: truncate(hit.text, OBSERVATION_MAX_CHARS),
            score: hit.score,
          })),
        };
      } catch (err) {
        throw toEsFailure(err);
      }
    },
  };
}
