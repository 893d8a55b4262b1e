import type { Client, estypes } from '@elastic/elasticsearch';

/** Elasticsearch's default `index.max_result_window`: `from + size` beyond it is refused. */
export const RESULT_WINDOW = 10_000;

type PageRequest = Omit<estypes.SearchRequest, 'index' | 'from' | 'size'> & { from: number; size: number };

/**
 * One page of a sorted search at any depth. Within the result window it is a plain `from`/`size`
 * search; beyond it, a point in time is walked with `search_after` (sort values only) up to
 * `from`, and the page is read from there, so the explorer pages runs of any size.
 */
export async function searchPage<T>(client: Client, index: string, request: PageRequest): Promise<estypes.SearchResponse<T>> {
  const { from, size, ...rest } = request;
  if (from + size <= RESULT_WINDOW) return client.search<T>({ index, from, size, ...rest });
  const keepAlive = '1m';
  const pit = await client.openPointInTime({ index, keep_alive: keepAlive });
  try {
    const { query, sort } = rest;
    let searchAfter: estypes.SortResults | undefined;
    for (let skipped = 0; skipped < from; ) {
      const step = Math.min(RESULT_WINDOW, from - skipped);
      const response = await client.search({ pit: { id: pit.id, keep_alive: keepAlive }, size: step, query, sort, _source: false, track_total_hits: false, ...(searchAfter ? { search_after: searchAfter } : {}) });
      const hits = response.hits.hits;
      skipped += hits.length;
      if (hits.length < step) {
        // Fewer rows than `from`: an empty page with the true total.
        const counted = await client.count({ index, ...(query ? { query } : {}) });
        return { took: 0, timed_out: false, _shards: response._shards, hits: { total: { value: counted.count, relation: 'eq' }, hits: [] } };
      }
      searchAfter = hits.at(-1)!.sort;
    }
    return await client.search<T>({ pit: { id: pit.id, keep_alive: keepAlive }, size, ...rest, ...(searchAfter ? { search_after: searchAfter } : {}) });
  } finally {
    await client.closePointInTime({ id: pit.id }).catch(() => undefined);
  }
}
