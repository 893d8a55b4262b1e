import type { Client } from '@elastic/elasticsearch';
import { ApplicationFailure } from '@temporalio/common';
import { toTemporalFailure } from '../src/llm/errors';
import type { LlmGateway } from '../src/llm/gateway';
import { hasPassageEmbeddings } from '../src/retrieval/dense';
import { queryEmbedder } from '../src/retrieval/embedder';
import { retrievePassages } from '../src/retrieval/retrieve';
import { OBSERVATION_MAX_CHARS } from '../src/shared/constants';
import { DEFAULT_RETRIEVAL_MODE, type RetrievalMode } from '../src/shared/retrieval';
import { truncate } from '../src/shared/text';
import type { EvidencePassage } from '../src/shared/verify';
import { toEsFailure } from './support/es-failure';
import { annotateActiveSpan } from '../src/telemetry/active-span';

export interface RetrievePassagesInput {
  query: string;
  index: string;
  k: number;
  /** Absent in histories recorded before modes existed: bm25. */
  mode?: RetrievalMode;
}

export interface RetrievalActivityDeps {
  es: Client;
  /** Embeds queries for dense and hybrid mode. */
  gateway?: Pick<LlmGateway, 'embed'>;
}

export function createRetrievalActivities(deps: RetrievalActivityDeps) {
  const retrieval = { es: deps.es, embedQuery: deps.gateway && queryEmbedder(deps.gateway) };
  return {
    /** Top-k passages (bm25, dense or hybrid); texts are truncated so histories stay small. */
    async retrievePassages(input: RetrievePassagesInput): Promise<{ passages: EvidencePassage[] }> {
      try {
        const mode = input.mode ?? DEFAULT_RETRIEVAL_MODE;
        const hits = await retrievePassages(retrieval, { index: input.index, query: input.query, k: input.k, mode });
        annotateActiveSpan({ 'verity.retrieval.mode': mode, 'verity.retrieval.top_k': input.k, 'verity.retrieval.hits': hits.length });
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
        const failure = toEsFailure(err);
        throw failure instanceof ApplicationFailure ? failure : toTemporalFailure(err); // embedding-call failures
      }
    },

    /** Whether the passages of `index` carry embeddings (dense retrieval is possible). */
    async passageIndexHasEmbeddings(input: { index: string }): Promise<{ embedded: boolean }> {
      try {
        return { embedded: await hasPassageEmbeddings(deps.es, input.index) };
      } catch (err) {
        throw toEsFailure(err);
      }
    },
  };
}
