import type { Client } from '@elastic/elasticsearch';
import { ConfigError } from '../config/config';
import { RETRIEVAL_MODES, type RetrievalMode } from '../shared/retrieval';
import { searchPassages } from './bm25';
import { densePassages, type EmbedTexts } from './dense';
import { InvalidQueryError } from './errors';
import { hybridPassages, type HybridFusion } from './hybrid';
import { validateQuery, type Passage } from './passage';

export { RETRIEVAL_MODES, type RetrievalMode };

export interface RetrieveRequest {
  index: string;
  query: string;
  /** Passages to return, 1..1000. */
  k: number;
  mode: RetrievalMode;
  /** Hybrid only; DEFAULT_HYBRID_FUSION when absent. */
  fusion?: HybridFusion;
}

export interface RetrievalDeps {
  es: Client;
  /** Embeds the query (`queryEmbedder(gateway)`); needed by 'dense' and 'hybrid' over an index ingested with `--embed`. */
  embedQuery?: EmbedTexts;
}

/**
 * The one entry point for passage retrieval (RAG, Wikipedia and SciFact tools):
 * - `bm25`: lexical, title-prefixed passages (see bm25.ts);
 * - `dense`: kNN over passage embeddings, the query embedded with the matching query model;
 * - `hybrid`: reciprocal rank fusion (k = 60 by default) of both lists; scores are RRF scores.
 */
export async function retrievePassages(deps: RetrievalDeps, request: RetrieveRequest): Promise<Passage[]> {
  const { index, query, k, mode } = request;
  validateQuery(query, k);
  switch (mode) {
    case 'bm25':
      return searchPassages(deps.es, index, query, k);
    case 'dense':
      return densePassages(deps.es, index, query, k, queryEmbedderOf(deps));
    case 'hybrid':
      return hybridPassages(deps.es, queryEmbedderOf(deps), { index, query, k }, request.fusion);
    default:
      throw new InvalidQueryError(`unknown retrieval mode "${String(mode)}"; expected one of ${RETRIEVAL_MODES.join(', ')}`);
  }
}

function queryEmbedderOf(deps: RetrievalDeps): EmbedTexts {
  if (!deps.embedQuery) throw new ConfigError("dense and hybrid retrieval need a query embedder (the LLM gateway's embed)");
  return deps.embedQuery;
}
