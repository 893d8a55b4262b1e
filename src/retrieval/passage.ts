import type { estypes } from '@elastic/elasticsearch';
import type { WikiPassageDoc } from '../corpus/wiki-index';
import { InvalidQueryError } from './errors';

export const MAX_SEARCH_K = 1000;

/** A passage found by a search, best first. */
export interface Passage {
  /** The passage's `_id`: `<docId>#<passage>`. */
  id: string;
  docId: string;
  title: string;
  passage: number;
  text: string;
  /** The retriever's score: BM25, cosine similarity, or the fused RRF score. */
  score: number;
}

export type StoredPassage = Pick<WikiPassageDoc, 'doc_id' | 'title' | 'passage' | 'text'>;

/** Fields a search fetches to build a Passage (never the embedding). */
export const PASSAGE_SOURCE_FIELDS = ['doc_id', 'title', 'passage', 'text'];

export function validateQuery(query: string, k: number): void {
  if (query.trim() === '') throw new InvalidQueryError('search query is empty');
  if (!Number.isInteger(k) || k < 1 || k > MAX_SEARCH_K) {
    throw new InvalidQueryError(`k must be an integer between 1 and ${MAX_SEARCH_K}, got ${k}`);
  }
}

export function toPassage(hit: estypes.SearchHit<StoredPassage>): Passage {
  return {
    id: hit._id ?? '',
    docId: hit._source?.doc_id ?? '',
    title: hit._source?.title ?? '',
    passage: hit._source?.passage ?? 0,
    text: hit._source?.text ?? '',
    score: hit._score ?? 0,
  };
}
