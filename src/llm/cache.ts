import type { Client } from '@elastic/elasticsearch';
import type { LlmCacheMode } from '../config/config';
import { isIndexNotFound } from '../es/client';
import { ensureIndex, type IndexDefinition } from '../es/ensure-index';
import { indexName } from '../es/indices';
import { z } from 'zod';
import { canonicalJson, sha256Hex } from './canonical-json';
import type { ChatMessage, LlmUsage } from './types';

/** Everything that determines an LLM answer; its hash is the cache document's `_id`. */
export interface CanonicalLlmRequest {
  /** Who answers: the simulator, or a provider and base URL (never the key). Answers are never served across endpoints. */
  endpoint: { provider: string; baseUrl?: string };
  model: string;
  messages: ChatMessage[];
  schemaName: string;
  jsonSchema: unknown;
  temperature: number;
  seed: number;
  /** Present only when set, so the hashes of earlier requests stay the same. */
  topP?: number;
  maxTokens?: number;
  /** A sweep's repeat index (≥ 1; see SamplingSettings.repeat). */
  repeat?: number;
  /** Present only for plain-text tasks (task `answer: 'text'`): asked without response_format. */
  plainText?: true;
  promptVersion: string;
}

export interface CachedLlmAnswer {
  output: unknown;
  usage: LlmUsage;
  model: string;
  schemaName: string;
  promptVersion: string;
  createdAt: string;
  /** The rendered request and the model's raw text, for transcripts (absent in entries written before). */
  messages?: ChatMessage[];
  rawResponse?: string;
  /** The workflow whose call paid for the answer (absent in entries written before), so a cancelled verification's spend can be counted. */
  paidBy?: string;
}

/** What the calls a set of verifications paid for cost, from their cache entries. */
export interface PaidSpend {
  calls: number;
  tokens: number;
  costUsd: number;
}

const count = z.number().finite().nonnegative();

/** What an entry must hold to be served; anything else (a damaged or hand-edited document) is a miss, never the model's fault. */
const cachedAnswerSchema = z
  .object({
    output: z.unknown().refine((output) => output !== undefined && output !== null, 'no output'),
    usage: z.object({ promptTokens: count, completionTokens: count, totalTokens: count, costUsd: count }).passthrough(),
    model: z.string(),
    schemaName: z.string(),
    promptVersion: z.string(),
    createdAt: z.string(),
  })
  .passthrough();

export function llmRequestHash(request: CanonicalLlmRequest): string {
  return sha256Hex(canonicalJson(request));
}

const LLM_CACHE_INDEX: IndexDefinition = {
  mappings: {
    dynamic: false,
    properties: {
      model: { type: 'keyword' },
      schemaName: { type: 'keyword' },
      promptVersion: { type: 'keyword' },
      createdAt: { type: 'date' },
      paidBy: { type: 'keyword' },
      output: { type: 'object', enabled: false },
      usage: { type: 'object', enabled: false },
      messages: { type: 'object', enabled: false },
      rawResponse: { type: 'text', index: false },
    },
  },
};

/** The Elasticsearch request cache: a sweep resumed after a crash pays for no call twice. */
export class LlmCache {
  readonly index: string;
  private indexReady: Promise<void> | undefined;

  constructor(
    private readonly es: Client,
    indexPrefix: string,
    readonly mode: LlmCacheMode,
  ) {
    this.index = indexName(indexPrefix, 'llm-cache');
  }

  async get(requestHash: string): Promise<CachedLlmAnswer | undefined> {
    if (this.mode === 'off') return undefined;
    try {
      const doc = await this.es.get<CachedLlmAnswer>({ index: this.index, id: requestHash }, { ignore: [404] });
      // A damaged entry is a miss: the call is made again and its answer replaces the entry.
      return doc.found && cachedAnswerSchema.safeParse(doc._source).success ? doc._source : undefined;
    } catch (err) {
      if (isIndexNotFound(err)) return undefined;
      throw err;
    }
  }

  /** Only mode 'readwrite' records answers; 'replay' never writes. */
  async put(requestHash: string, answer: CachedLlmAnswer): Promise<void> {
    if (this.mode !== 'readwrite') return;
    await this.ensureIndex();
    await this.es.index({ index: this.index, id: requestHash, document: answer });
  }

  /**
   * Creates the cache index once. Workers call it at start: created lazily by concurrent
   * calls, the new index's shards are briefly unavailable to the other readers.
   */
  async ensureIndex(): Promise<void> {
    if (this.mode === 'off') return;
    this.indexReady ??= ensureIndex(this.es, this.index, LLM_CACHE_INDEX)
      // Indices created before `paidBy` existed get its mapping (adding a field is allowed and idempotent).
      .then(async () => void (await this.es.indices.putMapping({ index: this.index, properties: { paidBy: { type: 'keyword' } } })))
      .catch((err: unknown) => {
        this.indexReady = undefined;
        throw err;
      });
    await this.indexReady;
  }

  /**
   * What the calls paid by these workflows (and their children, whose ids extend theirs with `/…`)
   * cost, per workflow. Only answers that were cached count: an invalid paid answer is not cached.
   */
  async paidSpendOf(workflowIds: readonly string[]): Promise<Record<string, PaidSpend>> {
    const spend: Record<string, PaidSpend> = Object.fromEntries(workflowIds.map((id) => [id, { calls: 0, tokens: 0, costUsd: 0 }]));
    if (workflowIds.length === 0 || this.mode === 'off') return spend;
    await this.ensureIndex();
    await this.es.indices.refresh({ index: this.index });
    const should = workflowIds.flatMap((id) => [{ term: { paidBy: id } }, { prefix: { paidBy: `${id}/` } }]);
    const response = await this.es.search<CachedLlmAnswer>({ index: this.index, size: MAX_PAID_ENTRIES, query: { bool: { should, minimum_should_match: 1 } }, _source: ['paidBy', 'usage'] });
    for (const hit of response.hits.hits) {
      const payer = hit._source?.paidBy;
      const owner = payer === undefined ? undefined : workflowIds.find((id) => payer === id || payer.startsWith(`${id}/`));
      if (!owner || !hit._source) continue;
      const entry = spend[owner]!;
      entry.calls += 1;
      entry.tokens += hit._source.usage.totalTokens;
      entry.costUsd += hit._source.usage.costUsd;
    }
    return spend;
  }
}

/** Cache entries read by one paidSpendOf: far more than the calls of the verifications one sweep runs at once. */
const MAX_PAID_ENTRIES = 10_000;
