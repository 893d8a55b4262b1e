import type { Client } from '@elastic/elasticsearch';
import { searchPassages } from './bm25';
import { densePassages, type EmbedTexts } from './dense';
import { MAX_SEARCH_K, type Passage } from './passage';
import { reciprocalRankFusion, RRF_K } from './rrf';

/** How hybrid retrieval fuses the BM25 and dense lists (tuned on dev sets only; see eval/bench/README.md). */
export interface HybridFusion {
  /** RRF constant; larger values flatten the advantage of top ranks. */
  rrfK: number;
  /** Passages each retriever contributes, at least (fusion needs depth to find agreement). */
  candidates: number;
  bm25Weight: number;
  denseWeight: number;
}

export const DEFAULT_HYBRID_FUSION: HybridFusion = { rrfK: RRF_K, candidates: 100, bm25Weight: 1, denseWeight: 1 };

/** Reciprocal rank fusion of the BM25 and dense top lists; scores are RRF scores. */
export async function hybridPassages(
  es: Client,
  embedQuery: EmbedTexts,
  request: { index: string; query: string; k: number },
  fusion: HybridFusion = DEFAULT_HYBRID_FUSION,
): Promise<Passage[]> {
  const { index, query, k } = request;
  const depth = Math.min(Math.max(k, fusion.candidates), MAX_SEARCH_K);
  const [lexical, dense] = await Promise.all([searchPassages(es, index, query, depth), densePassages(es, index, query, depth, embedQuery)]);
  const lists = [
    { items: lexical, weight: fusion.bm25Weight },
    { items: dense, weight: fusion.denseWeight },
  ];
  const fused = reciprocalRankFusion(lists, (passage) => passage.id, fusion.rrfK);
  return fused.slice(0, k).map(({ item, score }) => ({ ...item, score }));
}
