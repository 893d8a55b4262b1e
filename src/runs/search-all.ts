import type { Client, estypes } from '@elastic/elasticsearch';
import { isIndexNotFound } from '../es/client';

const PAGE_SIZE = 1000;

export interface PageOptions {
  pageSize?: number;
  /** Source fields left out of every hit (large ones a reader does not need). */
  sourceExcludes?: string[];
  /** Only these source fields of every hit (a reader that needs a few fields of large documents). */
  sourceIncludes?: string[];
}

/**
 * The documents matching a query, one page at a time, with a point in time and search_after (no
 * 10,000-hit window, and only one page in memory). A missing index yields no pages.
 */
export async function* searchPages(client: Client, index: string, query: estypes.QueryDslQueryContainer, options: PageOptions = {}): AsyncGenerator<unknown[]> {
  const pageSize = options.pageSize ?? PAGE_SIZE;
  let pit: string;
  try {
    pit = (await client.openPointInTime({ index, keep_alive: '1m' })).id;
  } catch (err) {
    if (isIndexNotFound(err)) return;
    throw err;
  }
  try {
    let searchAfter: estypes.SortResults | undefined;
    for (;;) {
      const response = await client.search({
        pit: { id: pit, keep_alive: '1m' },
        query,
        size: pageSize,
        sort: [{ _shard_doc: 'asc' }],
        ...(options.sourceExcludes ? { _source_excludes: options.sourceExcludes } : {}),
        ...(options.sourceIncludes ? { _source_includes: options.sourceIncludes } : {}),
        ...(searchAfter ? { search_after: searchAfter } : {}),
      });
      const hits = response.hits.hits;
      if (hits.length > 0) yield hits.map((hit) => hit._source);
      if (hits.length < pageSize) break;
      searchAfter = hits[hits.length - 1]?.sort;
      pit = response.pit_id ?? pit;
    }
  } finally {
    await client.closePointInTime({ id: pit }).catch(() => undefined);
  }
}

/** Every document matching a query (see searchPages), in memory. */
export async function searchAll(client: Client, index: string, query: estypes.QueryDslQueryContainer): Promise<unknown[]> {
  const sources: unknown[] = [];
  for await (const page of searchPages(client, index, query)) sources.push(...page);
  return sources;
}
