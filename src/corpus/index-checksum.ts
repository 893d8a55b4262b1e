import type { Client } from '@elastic/elasticsearch';
import { addChecksums, EMPTY_CHECKSUM } from '../shared/passage-checksum';
import { passageTerm } from './passage-digest';
import { checksumOfTerms } from '../shared/passage-checksum';

export interface IndexChecksum {
  /** Documents the scan read. */
  count: number;
  /** Distinct `_id`s among them (equal to count unless a scan saw a document twice). */
  distinctIds: number;
  checksum: string;
}

const PAGE = 5_000;

/**
 * Reads every document of the index (a point in time, `slices` scans in parallel) and returns the
 * order-independent checksum of (id, content) over them, as the bulk ingest computes it.
 * `trackIds` keeps every id in memory to count distinct ones (tests; ~100 bytes an id).
 */
export async function indexChecksum(client: Client, index: string, options: { slices?: number; trackIds?: boolean; onPage?: (read: number) => void } = {}): Promise<IndexChecksum> {
  const slices = options.slices ?? 1;
  const pit = await client.openPointInTime({ index, keep_alive: '5m' });
  const ids = options.trackIds ? new Set<string>() : undefined;
  let read = 0;
  const scanSlice = async (slice: number): Promise<{ count: number; checksum: string }> => {
    let after: (string | number)[] | undefined;
    let count = 0;
    let checksum = EMPTY_CHECKSUM;
    for (;;) {
      const page = await client.search<{ content: string }>({
        pit: { id: pit.id, keep_alive: '5m' },
        ...(slices > 1 ? { slice: { id: String(slice), max: slices } } : {}),
        size: PAGE,
        sort: [{ _shard_doc: 'asc' }],
        _source: ['content'],
        track_total_hits: false,
        ...(after ? { search_after: after } : {}),
      });
      const hits = page.hits.hits;
      if (hits.length === 0) return { count, checksum };
      checksum = addChecksums(checksum, checksumOfTerms(hits.map((hit) => passageTerm(hit._id!, hit._source?.content ?? ''))));
      for (const hit of hits) ids?.add(hit._id!);
      count += hits.length;
      read += hits.length;
      options.onPage?.(read);
      after = hits[hits.length - 1]!.sort as (string | number)[];
    }
  };
  try {
    const parts = await Promise.all(Array.from({ length: slices }, (_, slice) => scanSlice(slice)));
    const count = parts.reduce((sum, part) => sum + part.count, 0);
    return { count, distinctIds: ids?.size ?? count, checksum: parts.reduce((sum, part) => addChecksums(sum, part.checksum), EMPTY_CHECKSUM) };
  } finally {
    await client.closePointInTime({ id: pit.id }).catch(() => undefined);
  }
}
