import type { Client, estypes } from '@elastic/elasticsearch';
import { isIndexNotFound } from '../es/client';

const PAGE_SIZE = 1000;

/**
 * Every document matching a query, paged with a point in time and search_after (no 10,000-hit
 * window). A missing index yields no documents.
 */
export async function searchAll(client: Client, index: string, query: estypes.QueryDslQueryContainer): Promise<unknown[]> {
  let pit: string;
  try {
    pit = (await client.openPointInTime({ index, keep_alive: '1m' })).id;
  } catch (err) {
    if (isIndexNotFound(err)) return [];
    throw err;
  }
  const sources: unknown[] = [];
  try {
    let searchAfter: estypes.SortResults | undefined;
    for (;;) {
      const response = await client.search({
        pit: { id: pit, keep_alive: '1m' },
        query,
        size: PAGE_SIZE,
        sort: [{ _shard_doc: 'asc' }],
        ...(searchAfter ? { search_after: searchAfter } : {}),
      });
      const hits = response.hits.hits;
      for (const hit of hits) sources.push(hit._source);
      if (hits.length < PAGE_SIZE) break;
      searchAfter = hits[hits.length - 1]?.sort;
      pit = response.pit_id ?? pit;
    }
  } finally {
    await client.closePointInTime({ id: pit }).catch(() => undefined);
  }
  return sources;
}
