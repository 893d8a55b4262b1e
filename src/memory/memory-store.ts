import type { Client, estypes } from '@elastic/elasticsearch';
import { ensureIndex } from '../es/ensure-index';
import { keywordCandidateQuery } from './candidate-query';
import { type MemoryEntry, memoryEntrySchema } from './entry';
import { EVIDENCE_MEMORY_INDEX } from './memory-index';
import type { KeywordRecallMode, RankableEntry } from './recall-match';

const PAGE_SIZE = 1000;
const SCOPE_ORDER: estypes.Sort = [{ insertionOrder: 'asc' }, { id: 'asc' }];

export interface KeywordCandidate extends RankableEntry {
  id: string;
}

export interface WriteResult {
  written: number;
  /** Already stored under the same id (same scope and dedup key): the first write wins. */
  duplicates: number;
}

export interface MemoryStats {
  scope: string;
  entries: number;
  claims: number;
  embedded: number;
  tools: Record<string, number>;
  /** The keywords with the most entries (the paper's "excessive evidence under a single keyword"). */
  topKeywords: { keyword: string; entries: number }[];
  oldest?: string;
  newest?: string;
}

/** The evidence memory index: idempotent writes by deterministic id, candidate fetching, export. */
export class EvidenceMemoryStore {
  private ready = false;

  constructor(
    private readonly client: Client,
    readonly index: string,
  ) {}

  async ensureIndex(): Promise<void> {
    if (this.ready) return;
    await ensureIndex(this.client, this.index, EVIDENCE_MEMORY_INDEX);
    this.ready = true;
  }

  /** Creates entries whose id is new; an existing id (a repeat, or a retried write) is left as it was. */
  async create(entries: readonly MemoryEntry[]): Promise<WriteResult> {
    const items = await this.bulk(entries, 'create');
    const duplicates = items.filter((item) => item.status === 409).length;
    this.throwOnFailures(items.filter((item) => item.status !== 409));
    return { written: entries.length - duplicates, duplicates };
  }

  /** Writes entries as given, replacing any stored under the same id (import). */
  async put(entries: readonly MemoryEntry[]): Promise<number> {
    this.throwOnFailures(await this.bulk(entries, 'index'));
    return entries.length;
  }

  /** Deletes entries by id (an import that failed undoes its writes). */
  async remove(ids: readonly string[]): Promise<void> {
    if (ids.length === 0) return;
    const response = await this.client.bulk({ refresh: 'wait_for', operations: ids.map((id) => ({ delete: { _index: this.index, _id: id } })) });
    this.throwOnFailures(response.items.map((item) => ({ id: String(item.delete!._id), status: item.delete!.status === 404 ? 200 : item.delete!.status, reason: item.delete!.error?.reason ?? undefined })));
  }

  /** Id, keywords and order of every entry a keyword recall could match, oldest first. */
  async keywordCandidates(scope: string, claimKeys: readonly string[], mode: KeywordRecallMode): Promise<KeywordCandidate[]> {
    if (claimKeys.length === 0) return [];
    const candidates: KeywordCandidate[] = [];
    for await (const source of this.scan(keywordCandidateQuery(scope, claimKeys, mode), ['id', 'keywords', 'insertionOrder'])) {
      candidates.push(source as unknown as KeywordCandidate);
    }
    return candidates;
  }

  /** Approximate nearest entries of the scope to one vector (HNSW): the candidates of a semantic recall. */
  async nearestEntries(scope: string, vector: number[], k: number): Promise<MemoryEntry[]> {
    await this.ensureIndex();
    const response = await this.client.search({
      index: this.index,
      knn: { field: 'embedding', query_vector: vector, k, num_candidates: Math.max(k * 4, 100), filter: { term: { runScope: scope } } },
      size: k,
    });
    return response.hits.hits.map((hit) => memoryEntrySchema.parse(hit._source));
  }

  /** Full entries by id, in the order asked. */
  async getEntries(ids: readonly string[]): Promise<MemoryEntry[]> {
    if (ids.length === 0) return [];
    await this.ensureIndex();
    const response = await this.client.mget({ index: this.index, ids: [...ids] });
    return response.docs.flatMap((doc) => ('found' in doc && doc.found ? [memoryEntrySchema.parse(doc._source)] : []));
  }

  /** Every entry of a scope in insertion order (export). */
  async *entriesOf(scope: string): AsyncGenerator<MemoryEntry> {
    for await (const source of this.scan({ term: { runScope: scope } })) yield memoryEntrySchema.parse(source);
  }

  async stats(scope: string, topKeywords = 10): Promise<MemoryStats> {
    await this.ensureIndex();
    await this.client.indices.refresh({ index: this.index });
    const response = await this.client.search({
      index: this.index,
      size: 0,
      track_total_hits: true,
      query: { term: { runScope: scope } },
      aggs: {
        claims: { cardinality: { field: 'claimId' } },
        embedded: { value_count: { field: 'embeddingModel' } },
        tools: { terms: { field: 'tool', size: 100 } },
        keywords: { terms: { field: 'keywords', size: topKeywords } },
        oldest: { min: { field: 'timestamp' } },
        newest: { max: { field: 'timestamp' } },
      },
    });
    const aggs = response.aggregations as Record<string, { value?: number | null; value_as_string?: string; buckets?: { key: string; doc_count: number }[] }>;
    const total = response.hits.total;
    return {
      scope,
      entries: typeof total === 'number' ? total : (total?.value ?? 0),
      claims: aggs.claims?.value ?? 0,
      embedded: aggs.embedded?.value ?? 0,
      tools: Object.fromEntries((aggs.tools?.buckets ?? []).map((bucket) => [bucket.key, bucket.doc_count])),
      topKeywords: (aggs.keywords?.buckets ?? []).map((bucket) => ({ keyword: bucket.key, entries: bucket.doc_count })),
      oldest: aggs.oldest?.value_as_string,
      newest: aggs.newest?.value_as_string,
    };
  }

  private async *scan(query: estypes.QueryDslQueryContainer, fields?: string[]): AsyncGenerator<Record<string, unknown>> {
    await this.ensureIndex();
    let after: estypes.SortResults | undefined;
    for (;;) {
      const response = await this.client.search({
        index: this.index,
        query,
        sort: SCOPE_ORDER,
        size: PAGE_SIZE,
        search_after: after,
        _source: fields ?? true,
      });
      const hits = response.hits.hits;
      for (const hit of hits) yield hit._source as Record<string, unknown>;
      if (hits.length < PAGE_SIZE) return;
      after = hits[hits.length - 1]!.sort;
    }
  }

  private async bulk(entries: readonly MemoryEntry[], action: 'create' | 'index'): Promise<{ id: string; status: number; reason?: string }[]> {
    if (entries.length === 0) return [];
    await this.ensureIndex();
    const response = await this.client.bulk({
      refresh: 'wait_for',
      operations: entries.flatMap((entry) => [{ [action]: { _index: this.index, _id: entry.id } }, entry]),
    });
    return response.items.map((item) => {
      const result = item[action]!;
      return { id: String(result._id), status: result.status, reason: result.error?.reason ?? undefined };
    });
  }

  private throwOnFailures(items: { id: string; status: number; reason?: string }[]): void {
    const failed = items.find((item) => item.status >= 300);
    if (failed) throw new Error(`evidence memory write failed for ${failed.id} (${failed.status}): ${failed.reason ?? 'unknown'}`);
  }
}
