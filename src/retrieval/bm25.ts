import type { Client } from '@elastic/elasticsearch';
import { isIndexNotFound } from '../es/client';
import { IndexNotFoundError } from './errors';
import { PASSAGE_SOURCE_FIELDS, toPassage, validateQuery, type Passage, type StoredPassage } from './passage';

export { MAX_SEARCH_K, type Passage } from './passage';

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
      _source: PASSAGE_SOURCE_FIELDS,
    });
    return response.hits.hits.map(toPassage);
  } catch (err) {
    if (isIndexNotFound(err)) throw new IndexNotFoundError(index);
    throw err;
  }
}
