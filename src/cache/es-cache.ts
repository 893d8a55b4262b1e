import type { Client } from '@elastic/elasticsearch';
import type { WebCacheMode } from '../config/config';
import { isIndexNotFound } from '../es/client';
import { ensureIndex, type IndexDefinition } from '../es/ensure-index';

export interface CacheCounters {
  hits: number;
  misses: number;
  /** Entries found but older than the TTL (also counted as misses). */
  expired: number;
  writes: number;
}

interface CacheEntry<V> {
  value: V;
  /** What was asked, for inspection (query, URL); never used for lookup. */
  request: unknown;
  storedAt: string;
}

const CACHE_INDEX: IndexDefinition = {
  mappings: {
    dynamic: false,
    properties: { storedAt: { type: 'date' }, request: { type: 'object', enabled: false }, value: { type: 'object', enabled: false } },
  },
};

export interface EsCacheOptions {
  es: Client;
  index: string;
  mode: WebCacheMode;
  /** 0 = entries never expire. Replay ignores the TTL: it reproduces what was recorded. */
  ttlSeconds: number;
  now?: () => number;
}

/** A request-hash keyed cache in one Elasticsearch index, with TTL and hit/miss counters. */
export class EsCache<V> {
  readonly counters: CacheCounters = { hits: 0, misses: 0, expired: 0, writes: 0 };
  private indexReady: Promise<void> | undefined;

  constructor(private readonly options: EsCacheOptions) {}

  get mode(): WebCacheMode {
    return this.options.mode;
  }

  get index(): string {
    return this.options.index;
  }

  async get(key: string): Promise<V | undefined> {
    if (this.mode === 'off') return undefined;
    const entry = await this.read(key);
    if (entry && this.isFresh(entry)) {
      this.counters.hits++;
      return entry.value;
    }
    if (entry) this.counters.expired++;
    this.counters.misses++;
    return undefined;
  }

  /** Only 'readwrite' records; 'replay' never writes. (GET by id is real-time: no refresh needed.) */
  async put(key: string, value: V, request: unknown): Promise<void> {
    if (this.mode !== 'readwrite') return;
    await this.ensureIndex();
    const entry: CacheEntry<V> = { value, request, storedAt: new Date(this.now()).toISOString() };
    await this.options.es.index({ index: this.index, id: key, document: entry });
    this.counters.writes++;
  }

  async ensureIndex(): Promise<void> {
    this.indexReady ??= ensureIndex(this.options.es, this.index, CACHE_INDEX).catch((err: unknown) => {
      this.indexReady = undefined;
      throw err;
    });
    await this.indexReady;
  }

  private async read(key: string): Promise<CacheEntry<V> | undefined> {
    try {
      const doc = await this.options.es.get<CacheEntry<V>>({ index: this.index, id: key }, { ignore: [404] });
      return doc.found ? doc._source : undefined;
    } catch (err) {
      if (isIndexNotFound(err)) return undefined;
      throw err;
    }
  }

  private isFresh(entry: CacheEntry<V>): boolean {
    const { ttlSeconds } = this.options;
    if (this.mode === 'replay' || ttlSeconds === 0) return true;
    return this.now() - Date.parse(entry.storedAt) <= ttlSeconds * 1000;
  }

  private now(): number {
    return (this.options.now ?? Date.now)();
  }
}
