import type { Client, estypes } from '@elastic/elasticsearch';
import { isIndexNotFound } from '../es/client';
import { searchPage } from './deep-page';
import { indexName } from '../es/indices';
import type { ChatMessage } from '../llm/types';
import type { DocumentVerdict } from '../shared/check/document';
import type { Verdict } from '../shared/verify';
import type { RunManifest } from '../runs/run-manifest';
import { ExplorerDocuments, type ExplorerDocumentRow } from './explorer-documents';
import { type ExplorerFilter, failureQuery, type GoldIndex, INVALID_CALLS_FIELD, needsGold, selectsFailures, verdictQuery } from './explorer-filter';
import { ExplorerChartSource, type ExplorerChartsAnswer } from './explorer-chart-source';

/** Characters of a claim in a table row (the transcript has it whole). */
const ROW_CLAIM_CHARS = 300;
/** Gold labels are re-read after this long, so a growing run shows its new claims. */
const GOLD_TTL_MS = 30_000;
/** Verdicts of one claim shown side by side (methods × models). */
const COMPARE_MAX = 50;
/** Workflow ids read per request when collecting the verifications a filter selects. */
const ID_PAGE = 5_000;

export interface ExplorerRow {
  workflowId: string;
  claimId: string;
  dataset?: string;
  method: string;
  model: string;
  claim: string;
  label: string;
  methodLabel?: string;
  gold: string | null;
  correct: boolean | null;
  llmCalls: number;
  toolCalls: number;
  totalTokens: number;
  costUsd: number;
  durationMs: number;
  /** LLM calls that failed for good (an answer that never parsed); the verdict came from a fallback. */
  invalidLlmCalls: number;
  /** Set on rows of verifications that failed without a verdict (status filter `failed`). */
  failure?: { type?: string; reason: string; temporalUrl?: string };
}

export interface ExplorerFailure {
  workflowId: string;
  claimId: string;
  dataset?: string;
  method?: string;
  model?: string;
  reason: string;
  type?: string;
  failedAt?: string;
  temporalUrl?: string;
}

export interface ExplorerSummary {
  runId: string;
  verdicts: number;
  failures: number;
  /** Verdicts with at least one invalid LLM answer (handled by a re-ask or the method's fallback). */
  withInvalidAnswers?: number;
  costUsd: number;
  totalTokens: number;
  llmCalls: number;
  facets: { method: string[]; model: string[]; dataset: string[]; predicted: string[]; gold: string[] };
  temporalUiUrl?: string;
  /** Whether the run is still going on (Temporal's word); absent when unknown. The page refreshes while it is not false. */
  running?: boolean;
}

/** What an LLM call's cache entry holds for the transcript (entries written before transcripts have no messages). */
export interface CachedCall {
  messages?: ChatMessage[];
  rawResponse?: string;
  createdAt?: string;
}

export interface ExplorerClaim {
  verdict: Verdict;
  gold: string | null;
  /** Absent when no Temporal UI is configured. */
  temporalUrl?: string;
  /** Cache entries by request hash. */
  calls: Record<string, CachedCall>;
}

/** Where the explorer reads a run: verdicts, claims, failures and the LLM cache, paged in Elasticsearch. */
export interface ExplorerSource {
  summary(): Promise<ExplorerSummary>;
  claims(filter: ExplorerFilter): Promise<{ total: number; rows: ExplorerRow[] }>;
  claim(workflowId: string): Promise<ExplorerClaim | undefined>;
  compare(claimId: string): Promise<ExplorerClaim[]>;
  failures(from: number, size: number): Promise<{ total: number; failures: ExplorerFailure[] }>;
  /** The run's checked documents (`verity check`), newest first. */
  documents(from: number, size: number): Promise<{ total: number; documents: ExplorerDocumentRow[] }>;
  /** One document verdict whole, with its text and claims. */
  document(documentId: string): Promise<DocumentVerdict | undefined>;
  /** The charts of the verifications the filter selects (its page ignored); absent where no charts are drawn. */
  charts?(filter: ExplorerFilter): Promise<ExplorerChartsAnswer>;
}

export interface ExplorerOptions {
  client: Client;
  prefix: string;
  runId: string;
  /** Link to one workflow in the Temporal UI (none when no UI is configured). */
  workflowUrl: (workflowId: string) => string | undefined;
  temporalUiUrl?: string;
  /** Whether any of the run's workflows still runs; the page redraws at a bounded interval until it says no. */
  runActive?: () => Promise<boolean>;
}

/** The explorer's reads for one run; nothing is held in memory but the gold labels a filter asks for. */
export class ExplorerData implements ExplorerSource {
  private readonly index: { verdicts: string; claims: string; failures: string; cache: string };
  private gold: { at: number; index: GoldIndex; byClaim: Map<string, string> } | undefined;
  private readonly checkedDocuments: ExplorerDocuments;
  private sweepScope: Promise<estypes.QueryDslQueryContainer[]> | undefined;
  private chartSource: ExplorerChartSource | undefined;

  constructor(private readonly options: ExplorerOptions) {
    const { prefix } = options;
    this.checkedDocuments = new ExplorerDocuments(options.client, indexName(prefix, 'documents'), options.runId);
    this.index = {
      verdicts: indexName(prefix, 'verdicts'),
      claims: indexName(prefix, 'run-claims'),
      failures: indexName(prefix, 'run-failures'),
      cache: indexName(prefix, 'llm-cache'),
    };
  }

  /**
   * Of a run a sweep made, only its own verdicts: its (method, model) variants, of a dataset claim
   * (`verify --run` stored verdicts without one before it was refused). Nothing for other runs.
   */
  private scope(): Promise<estypes.QueryDslQueryContainer[]> {
    this.sweepScope ??= (async (): Promise<estypes.QueryDslQueryContainer[]> => {
      const doc = await this.options.client.get<RunManifest>({ index: indexName(this.options.prefix, 'runs'), id: this.options.runId }, { ignore: [404] }).catch((err: unknown) => {
        if (isIndexNotFound(err)) return undefined;
        throw err;
      });
      const config = doc?.found ? doc._source?.config : undefined;
      if (!config || config.check || !Array.isArray(config.methods) || !Array.isArray(config.models)) return [];
      return [{ terms: { method: config.methods } }, { terms: { model: config.models } }, { exists: { field: 'dataset' } }];
    })();
    return this.sweepScope;
  }

  /** The run's verdicts `query` selects, within the sweep's own set. */
  private async scoped(query: estypes.QueryDslQueryContainer): Promise<estypes.QueryDslQueryContainer> {
    const scope = await this.scope();
    return scope.length === 0 ? query : { bool: { must: [query], filter: scope } };
  }

  async summary(): Promise<ExplorerSummary> {
    const { client, runId } = this.options;
    const terms = (field: string) => ({ terms: { field, size: 200 } });
    const response = await this.search(this.index.verdicts, {
      size: 0,
      track_total_hits: true,
      query: await this.scoped({ term: { runId } }),
      aggs: {
        method: terms('method'),
        model: terms('model'),
        dataset: terms('dataset'),
        predicted: terms('label'),
        cost: { sum: { field: 'usage.costUsd' } },
        tokens: { sum: { field: 'usage.totalTokens' } },
        calls: { sum: { field: 'usage.llmCalls' } },
        invalid: { filter: { range: { [INVALID_CALLS_FIELD]: { gte: 1 } } } },
      },
    });
    const gold = await this.search(this.index.claims, { size: 0, query: { term: { runId } }, aggs: { gold: terms('labelNorm') } });
    const failures = await client.count({ index: this.index.failures, query: { term: { runId } } }, { ignore: [404] }).catch(() => ({ count: 0 }));
    // Asked after the counts: a run that ends between the two reads is still drawn once more.
    const running = await this.options.runActive?.().catch(() => undefined);
    const aggs = (response?.aggregations ?? {}) as Record<string, { buckets?: { key: string }[]; value?: number; doc_count?: number }>;
    const keys = (name: string, from = aggs) => (from[name]?.buckets ?? []).map((bucket) => String(bucket.key)).sort();
    return {
      runId,
      verdicts: totalOf(response),
      failures: failures.count ?? 0,
      withInvalidAnswers: aggs.invalid?.doc_count ?? 0,
      costUsd: aggs.cost?.value ?? 0,
      totalTokens: aggs.tokens?.value ?? 0,
      llmCalls: aggs.calls?.value ?? 0,
      facets: {
        method: keys('method'),
        model: keys('model'),
        dataset: keys('dataset'),
        predicted: keys('predicted'),
        gold: keys('gold', (gold?.aggregations ?? {}) as typeof aggs),
      },
      ...(this.options.temporalUiUrl ? { temporalUiUrl: this.options.temporalUiUrl } : {}),
      ...(running !== undefined ? { running } : {}),
    };
  }

  async claims(filter: ExplorerFilter): Promise<{ total: number; rows: ExplorerRow[] }> {
    if (filter.status === 'failed') return this.failedRows(filter);
    const gold = needsGold(filter) ? await this.goldLabels() : undefined;
    const response = await this.page<Verdict>(this.index.verdicts, {
      from: filter.from,
      size: filter.size,
      track_total_hits: true,
      query: await this.scoped(verdictQuery(this.options.runId, filter, gold?.index)),
      sort: [{ claimId: 'asc' }, { method: 'asc' }, { model: 'asc' }],
      _source: { excludes: ['trace', 'transcript', 'evidence', 'rationale'] },
    });
    const verdicts = (response?.hits.hits ?? []).map((hit) => hit._source as StoredVerdict);
    const golds = gold?.byClaim ?? (await this.goldOf(verdicts.map((v) => v.claimId)));
    return { total: totalOf(response), rows: verdicts.map((verdict) => rowOf(verdict, golds.get(verdict.claimId) ?? null)) };
  }

  /** Verifications of the run that ended without a verdict, as table rows with their reason and error type. */
  private async failedRows(filter: ExplorerFilter): Promise<{ total: number; rows: ExplorerRow[] }> {
    const response = await this.page<ExplorerFailure & { ordinal?: number }>(this.index.failures, {
      from: filter.from,
      size: filter.size,
      track_total_hits: true,
      query: failureQuery(this.options.runId, filter),
      sort: [{ claimId: 'asc' }, { method: 'asc' }, { model: 'asc' }],
    });
    const failures = (response?.hits.hits ?? []).map((hit) => hit._source as ExplorerFailure);
    const golds = await this.goldOf(failures.map((f) => f.claimId));
    return {
      total: totalOf(response),
      rows: failures.map((failure) => failureRow({ ...failure, ...withUrl(this.options.workflowUrl(failure.workflowId)) }, golds.get(failure.claimId) ?? null)),
    };
  }

  async claim(workflowId: string): Promise<ExplorerClaim | undefined> {
    const doc = await this.options.client.get<Verdict>({ index: this.index.verdicts, id: workflowId }, { ignore: [404] }).catch((err: unknown) => {
      if (isIndexNotFound(err)) return undefined;
      throw err;
    });
    if (!doc?.found || doc._source?.runId !== this.options.runId) return undefined;
    if ((await this.scope()).length > 0) {
      const own = await this.options.client.count({ index: this.index.verdicts, query: await this.scoped({ ids: { values: [workflowId] } }) });
      if (own.count === 0) return undefined;
    }
    return (await this.withDetails([doc._source]))[0];
  }

  async compare(claimId: string): Promise<ExplorerClaim[]> {
    const response = await this.search<Verdict>(this.index.verdicts, {
      size: COMPARE_MAX,
      query: await this.scoped({ bool: { must: [{ term: { runId: this.options.runId } }, { term: { claimId } }] } }),
      sort: [{ method: 'asc' }, { model: 'asc' }],
    });
    return this.withDetails((response?.hits.hits ?? []).map((hit) => hit._source as Verdict));
  }

  async failures(from: number, size: number): Promise<{ total: number; failures: ExplorerFailure[] }> {
    const response = await this.page<ExplorerFailure>(this.index.failures, {
      from,
      size,
      track_total_hits: true,
      query: { term: { runId: this.options.runId } },
      sort: [{ failedAt: { order: 'desc', unmapped_type: 'date' } }],
    });
    const failures = (response?.hits.hits ?? []).map((hit) => {
      const failure = hit._source as ExplorerFailure;
      const temporalUrl = this.options.workflowUrl(failure.workflowId);
      return { ...failure, ...(temporalUrl ? { temporalUrl } : {}) };
    });
    return { total: totalOf(response), failures };
  }

  /**
   * Workflow ids of the verifications `filter` selects (its page ignored): the verdicts the claims
   * table lists, and the failed verifications when selectsFailures; at most `limit` of them.
   */
  async verificationIds(filter: ExplorerFilter, limit: number): Promise<{ ids: Set<string>; truncated: boolean }> {
    const ids = new Set<string>();
    const collect = async (index: string, query: estypes.QueryDslQueryContainer) => {
      let searchAfter: estypes.SortResults | undefined;
      // One more than `limit` tells a truncated set.
      while (ids.size <= limit) {
        const size = Math.min(ID_PAGE, limit + 1 - ids.size);
        const response = await this.search<{ workflowId: string }>(index, {
          size,
          query,
          _source: ['workflowId'],
          sort: [{ workflowId: 'asc' }],
          ...(searchAfter ? { search_after: searchAfter } : {}),
        });
        const hits = response?.hits.hits ?? [];
        for (const hit of hits) if (hit._source?.workflowId) ids.add(hit._source.workflowId);
        if (hits.length < size) return;
        searchAfter = hits.at(-1)!.sort;
      }
    };
    if (filter.status !== 'failed') {
      const gold = needsGold(filter) ? await this.goldLabels() : undefined;
      await collect(this.index.verdicts, await this.scoped(verdictQuery(this.options.runId, filter, gold?.index)));
    }
    if (selectsFailures(filter)) await collect(this.index.failures, failureQuery(this.options.runId, filter));
    const truncated = ids.size > limit;
    if (truncated) ids.delete([...ids].at(-1)!);
    return { ids, truncated };
  }

  charts(filter: ExplorerFilter): Promise<ExplorerChartsAnswer> {
    this.chartSource ??= new ExplorerChartSource(this.options, (selected, limit) => this.verificationIds(selected, limit));
    return this.chartSource.charts(filter);
  }

  documents(from: number, size: number): Promise<{ total: number; documents: ExplorerDocumentRow[] }> {
    return this.checkedDocuments.list(from, size);
  }

  document(documentId: string): Promise<DocumentVerdict | undefined> {
    return this.checkedDocuments.get(documentId);
  }

  private async withDetails(verdicts: Verdict[]): Promise<ExplorerClaim[]> {
    const hashes = [...new Set(verdicts.flatMap((v) => (v.transcript?.llmCalls ?? []).flatMap((call) => (call.requestHash ? [call.requestHash] : []))))];
    const calls: Record<string, CachedCall> = {};
    if (hashes.length > 0) {
      const docs = await this.options.client
        .mget<CachedCall>({ index: this.index.cache, ids: hashes, _source_includes: ['messages', 'rawResponse', 'createdAt'] })
        .catch((err: unknown) => {
          if (isIndexNotFound(err)) return { docs: [] };
          throw err;
        });
      for (const doc of docs.docs) if ('found' in doc && doc.found && doc._source) calls[doc._id] = doc._source;
    }
    const golds = await this.goldOf(verdicts.map((v) => v.claimId));
    return verdicts.map((verdict) => ({
      verdict,
      gold: golds.get(verdict.claimId) ?? null,
      ...withUrl(this.options.workflowUrl(verdict.workflowId)),
      calls: Object.fromEntries((verdict.transcript?.llmCalls ?? []).flatMap((call) => (call.requestHash && calls[call.requestHash] ? [[call.requestHash, calls[call.requestHash]!]] : []))),
    }));
  }

  /** Gold labels of a page's claims (one query). */
  private async goldOf(claimIds: string[]): Promise<Map<string, string>> {
    const ids = [...new Set(claimIds)];
    if (ids.length === 0) return new Map();
    const response = await this.search<{ claimId: string; labelNorm?: string }>(this.index.claims, {
      size: ids.length,
      query: { bool: { must: [{ term: { runId: this.options.runId } }, { terms: { claimId: ids } }] } },
      _source: ['claimId', 'labelNorm'],
    });
    return new Map((response?.hits.hits ?? []).flatMap((hit) => (hit._source?.labelNorm ? [[hit._source.claimId, hit._source.labelNorm] as const] : [])));
  }

  /** Claim ids by gold label, paged through the run's claims (ids and labels only). */
  private async goldLabels(): Promise<{ index: GoldIndex; byClaim: Map<string, string> }> {
    if (this.gold && Date.now() - this.gold.at < GOLD_TTL_MS) return this.gold;
    const index: GoldIndex = new Map();
    const byClaim = new Map<string, string>();
    let searchAfter: estypes.SortResults | undefined;
    for (;;) {
      const response = await this.search<{ claimId: string; labelNorm?: string }>(this.index.claims, {
        size: 5_000,
        query: { term: { runId: this.options.runId } },
        _source: ['claimId', 'labelNorm'],
        sort: [{ ordinal: 'asc' }],
        ...(searchAfter ? { search_after: searchAfter } : {}),
      });
      const hits = response?.hits.hits ?? [];
      for (const hit of hits) {
        const { claimId, labelNorm } = hit._source ?? { claimId: '' };
        if (!labelNorm) continue;
        byClaim.set(claimId, labelNorm);
        index.set(labelNorm, [...(index.get(labelNorm) ?? []), claimId]);
      }
      if (hits.length < 5_000) break;
      searchAfter = hits.at(-1)!.sort;
    }
    this.gold = { at: Date.now(), index, byClaim };
    return this.gold;
  }

  /** One page at any depth (see searchPage); nothing when the index does not exist yet. */
  private async page<T>(index: string, request: Parameters<typeof searchPage>[2]): Promise<estypes.SearchResponse<T> | undefined> {
    try {
      return await searchPage<T>(this.options.client, index, request);
    } catch (err) {
      if (isIndexNotFound(err)) return undefined;
      throw err;
    }
  }

  /** A search that answers nothing (instead of failing) when the index does not exist yet. */
  private async search<T>(index: string, request: Omit<estypes.SearchRequest, 'index'>): Promise<estypes.SearchResponse<T> | undefined> {
    try {
      return await this.options.client.search<T>({ index, ...request });
    } catch (err) {
      if (isIndexNotFound(err)) return undefined;
      throw err;
    }
  }
}

function withUrl(temporalUrl: string | undefined): { temporalUrl?: string } {
  return temporalUrl ? { temporalUrl } : {};
}

function totalOf(response: estypes.SearchResponse<unknown> | undefined): number {
  const total = response?.hits.total;
  return typeof total === 'number' ? total : (total?.value ?? 0);
}

function failureRow(failure: ExplorerFailure, gold: string | null): ExplorerRow {
  return {
    workflowId: failure.workflowId,
    claimId: failure.claimId,
    ...(failure.dataset ? { dataset: failure.dataset } : {}),
    method: failure.method ?? '',
    model: failure.model ?? '',
    claim: failure.reason.length <= ROW_CLAIM_CHARS ? failure.reason : `${failure.reason.slice(0, ROW_CLAIM_CHARS)}…`,
    label: 'FAILED',
    gold,
    // No answer is a wrong answer where there is a gold label, as the report scores it.
    correct: gold === null ? null : false,
    llmCalls: 0,
    toolCalls: 0,
    totalTokens: 0,
    costUsd: 0,
    durationMs: 0,
    invalidLlmCalls: 0,
    failure: { ...(failure.type ? { type: failure.type } : {}), reason: failure.reason, ...withUrl(failure.temporalUrl) },
  };
}

/** A verdict as stored, with the count VerdictStore adds (absent on verdicts stored before it). */
type StoredVerdict = Verdict & { invalidLlmCalls?: number };

function rowOf(verdict: StoredVerdict, gold: string | null): ExplorerRow {
  return {
    workflowId: verdict.workflowId,
    claimId: verdict.claimId,
    ...(verdict.dataset ? { dataset: verdict.dataset } : {}),
    method: verdict.method,
    model: verdict.model,
    claim: verdict.claim.length <= ROW_CLAIM_CHARS ? verdict.claim : `${verdict.claim.slice(0, ROW_CLAIM_CHARS)}…`,
    label: verdict.label,
    ...(verdict.methodLabel !== undefined ? { methodLabel: verdict.methodLabel } : {}),
    gold,
    correct: gold === null ? null : verdict.label === gold,
    llmCalls: verdict.usage?.llmCalls ?? 0,
    toolCalls: verdict.usage?.toolCalls ?? 0,
    totalTokens: verdict.usage?.totalTokens ?? 0,
    costUsd: verdict.usage?.costUsd ?? 0,
    durationMs: verdict.durationMs ?? 0,
    invalidLlmCalls: verdict.invalidLlmCalls ?? 0,
  };
}
