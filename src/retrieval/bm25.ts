import type { Client } from '@elastic/elasticsearch';
import { isIndexNotFound } from '../es/client';
import type { WikiPassageDoc } from '../corpus/wiki-index';
import { IndexNotFoundError, InvalidQueryError } from './errors';

export const MAX_SEARCH_K = 1000;

/** A passage found by a search, best first. */
export interface Passage {
  /** The passage's `_id`: `<docId>#<passage>`. */
  id: string;
  docId: string;
  title: string;
  passage: number;
  text: string;
  score: number;
}

type StoredPassage = Pick<WikiPassageDoc, 'doc_id' | 'title' | 'passage' | 'text'>;

function validateQuery(query: string, k: number): void {
  if (query.trim() === '') throw new InvalidQueryError('search query is empty');
  if (!Number.isInteger(k) || k < 1 || k > MAX_SEARCH_K) {
    throw new InvalidQueryError(`k must be an integer between 1 and ${MAX_SEARCH_K}, got ${k}`);
  }
}

/**
 * BM25 over the title-prefixed passage text plus a half-weight title match, so title words
 * count a little more than body words. (Measured on dev/fever and dev/hover over corpus/wiki:
 * a stronger title boost lowers HoVer all-gold recall@10 by about 4 points.)
 */
export async function searchPassages(client: Client, index: string, query: string, k: number): Promise<Passage[]> {
  validateQuery(query, k);
  try {
    const response = await client.search<StoredPassage>({
      index,
      size: k,
      query: { multi_match: { query, fields: ['content', 'title^0.5'], type: 'most_fields' } },
      _source: ['doc_id', 'title', 'passage', 'text'],
    });
    return response.hits.hits.map((hit) => ({
      id: hit._id ?? '',
      docId: hit._source?.doc_id ?? '',
      title: hit._source?.title ?? '',
      passage: hit._source?.passage ?? 0,
      text: hit._source?.text ?? '',
      score: hit._score ?? 0,
    }));
  } catch (err) {
    if (isIndexNotFound(err)) throw new IndexNotFoundError(index);
    throw err;
  }
}
