import type { MemoryRecallOptions, MemoryUpdateOptions } from '../shared/memory';
import type { Embedder } from './embedder';
import type { MemoryEntry } from './entry';
import { keywordsOf } from './keys';
import { planUpdate, type MemoryUpdateRequest, type PlannedUpdate } from './plan-update';
import { recalledLine } from './recall-format';
import { rankByKeywords, rankBySimilarity, type RankedEntry } from './recall-match';
import type { EvidenceMemoryStore } from './memory-store';

/** Nearest neighbours fetched per claim key before the exact threshold is applied in code. */
const SEMANTIC_CANDIDATES_PER_KEY = 50;

export interface RecallHit {
  id: string;
  claimId: string;
  tool: string;
  query: string;
  score: number;
  timestamp: string;
}

export interface MemoryRecall {
  hits: RecallHit[];
  /** `[Memory] Previous evidence for '<query>': <evidence[:2000]>...`, best first. */
  lines: string[];
}

export interface MemoryUpdateResult {
  written: number;
  /** Observations whose (scope, dedup key) was already stored or repeated in the batch. */
  duplicates: number;
  invalid: PlannedUpdate['invalid'];
  /** Observations not written because the memory is frozen. */
  frozenSkipped: number;
}

export class SemanticRecallUnavailableError extends Error {
  override name = 'SemanticRecallUnavailableError';
}

export interface EvidenceMemoryDependencies {
  store: EvidenceMemoryStore;
  /** Needed for semantic recall; without it entries are stored without embeddings. */
  embedder?: Embedder;
  embeddingModel?: string;
  now?: () => Date;
}

/** MERMAID's recall-then-update evidence memory (spec §3) over the Elasticsearch store. */
export class EvidenceMemory {
  readonly counters = { frozenUpdatesSkipped: 0 };
  private lastOrder = 0;

  constructor(private readonly deps: EvidenceMemoryDependencies) {}

  async recall(scope: string, entities: string[], options: MemoryRecallOptions): Promise<MemoryRecall> {
    const ranked = options.mode === 'semantic' ? await this.recallSemantic(scope, entities, options) : await this.recallByKeywords(scope, entities, options);
    return {
      hits: ranked.map(({ entry, score }) => ({
        id: entry.id,
        claimId: entry.claimId,
        tool: entry.tool,
        query: entry.query,
        score,
        timestamp: entry.timestamp,
      })),
      lines: ranked.map(({ entry }) => recalledLine(entry)),
    };
  }

  async update(request: MemoryUpdateRequest, options: MemoryUpdateOptions): Promise<MemoryUpdateResult> {
    if (options.frozen) {
      this.counters.frozenUpdatesSkipped += request.observations.length;
      return { written: 0, duplicates: 0, invalid: {}, frozenSkipped: request.observations.length };
    }
    const now = (this.deps.now ?? (() => new Date()))();
    const planned = planUpdate(request, options, { timestamp: now.toISOString(), firstOrder: this.nextOrder(now) });
    this.lastOrder = Math.max(this.lastOrder, planned.entries.at(-1)?.insertionOrder ?? 0);
    const written = await this.deps.store.create(await this.withEmbeddings(planned.entries));
    return { written: written.written, duplicates: written.duplicates + planned.duplicatesInBatch, invalid: planned.invalid, frozenSkipped: 0 };
  }

  private async recallByKeywords(scope: string, entities: string[], options: MemoryRecallOptions): Promise<RankedEntry<MemoryEntry>[]> {
    const mode = options.mode === 'exact' ? 'exact' : 'substring';
    const candidates = await this.deps.store.keywordCandidates(scope, keywordsOf(entities), mode);
    const ranked = rankByKeywords(candidates, entities, mode, options.topK);
    const entries = await this.deps.store.getEntries(ranked.map(({ entry }) => entry.id));
    return ranked.flatMap(({ entry, score }) => {
      const full = entries.find((candidate) => candidate.id === entry.id);
      return full ? [{ entry: full, score }] : [];
    });
  }

  private async recallSemantic(scope: string, entities: string[], options: MemoryRecallOptions): Promise<RankedEntry<MemoryEntry>[]> {
    const keys = keywordsOf(entities);
    if (keys.length === 0) return [];
    const vectors = await this.embedder().embed(keys);
    const candidates = new Map<string, MemoryEntry>();
    for (const vector of vectors) {
      for (const entry of await this.deps.store.nearestEntries(scope, vector, SEMANTIC_CANDIDATES_PER_KEY)) candidates.set(entry.id, entry);
    }
    return rankBySimilarity([...candidates.values()], vectors, options.similarityThreshold, options.topK);
  }

  /** One vector per entry, of its claim keys; entries without keys get none (a zero vector breaks cosine). */
  private async withEmbeddings(entries: MemoryEntry[]): Promise<MemoryEntry[]> {
    if (!this.deps.embedder) return entries;
    const embeddable = entries.filter((entry) => entry.keywords.length > 0);
    const vectors = await this.deps.embedder.embed(embeddable.map((entry) => embeddingText(entry.keywords)));
    return entries.map((entry) => {
      const vector = vectors[embeddable.indexOf(entry)];
      return vector && vector.some((value) => value !== 0) ? { ...entry, embedding: vector, embeddingModel: this.deps.embeddingModel ?? 'unknown' } : entry;
    });
  }

  /** Milliseconds × 1000, kept increasing within the process so two writes in one millisecond stay ordered. */
  private nextOrder(now: Date): number {
    return Math.max(now.getTime() * 1000, this.lastOrder + 1);
  }

  private embedder(): Embedder {
    if (!this.deps.embedder) throw new SemanticRecallUnavailableError('semantic memory recall needs an embedding endpoint');
    return this.deps.embedder;
  }
}

/** The text an entry is embedded from: its claim's keys. */
export function embeddingText(keywords: readonly string[]): string {
  return keywords.join(', ');
}
