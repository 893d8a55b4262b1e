import type { Client } from '@elastic/elasticsearch';
import { ConfigError } from '../config/config';
import { searchPassages } from './bm25';
import { densePassages, type EmbedTexts } from './dense';
import { InvalidQueryError } from './errors';
import { MAX_SEARCH_K, validateQuery, type Passage } from './passage';
import { reciprocalRankFusion } from './rrf';

export const RETRIEVAL_MODES = ['bm25', 'dense', 'hybrid'] as const;
export type RetrievalMode = (typeof RETRIEVAL_MODES)[number];

/** Passages each retriever contributes to hybrid fusion, at least (fusion needs depth to find agreement). */
export const HYBRID_CANDIDATES = 100;

export interface RetrieveRequest {
  index: string;
  query: string;
  /** Passages to return, 1..1000. */
  k: number;
  mode: RetrievalMode;
}

export interface RetrievalDeps {
  es: Client;
  /** Needed by 'dense' and 'hybrid'; the index must have been ingested with embeddings (`--embed`). */
  embed?: EmbedTexts;
}

/**
 * The one entry point for passage retrieval (RAG, Wikipedia and SciFact tools):
 * - `bm25`: lexical, title-prefixed passages (see bm25.ts);
 * - `dense`: kNN over passage embeddings, the query embedded with the same model;
 * - `hybrid`: reciprocal rank fusion (k = 60) of both lists; scores are RRF scores.
 */
export async function retrievePassages(deps: RetrievalDeps, request: RetrieveRequest): Promise<Passage[]> {
  const { index, query, k, mode } = request;
  validateQuery(query, k);
  switch (mode) {
    case 'bm25':
      return searchPassages(deps.es, index, query, k);
    case 'dense':
      return densePassages(deps.es, index, query, k, embedderOf(deps));
    case 'hybrid':
      return hybridPassages(deps, index, query, k);
    default:
      throw new InvalidQueryError(`unknown retrieval mode "${String(mode)}"; expected one of ${RETRIEVAL_MODES.join(', ')}`);
  }
}

async function hybridPassages(deps: RetrievalDeps, index: string, query: string, k: number): Promise<Passage[]> {
  const depth = Math.min(Math.max(k, HYBRID_CANDIDATES), MAX_SEARCH_K);
  const [lexical, dense] = await Promise.all([
    searchPassages(deps.es, index, query, depth),
    densePassages(deps.es, index, query, depth, embedderOf(deps)),
  ]);
  const fused = reciprocalRankFusion([{ items: lexical }, { items: dense }], (passage) => passage.id);
  return fused.slice(0, k).map(({ item, score }) => ({ ...item, score }));
}

function embedderOf(deps: RetrievalDeps): EmbedTexts {
  if (!deps.embed) throw new ConfigError('dense and hybrid retrieval need an embedder (the LLM gateway\'s embed)');
  return deps.embed;
}
