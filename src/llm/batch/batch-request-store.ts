import type { Client } from '@elastic/elasticsearch';
import { z } from 'zod';
import { ensureIndex, type IndexDefinition } from '../../es/ensure-index';
import type { LlmTaskInput } from '../types';

const INDEX: IndexDefinition = {
  mappings: { dynamic: false, properties: { createdAt: { type: 'date' }, call: { type: 'object', enabled: false } } },
};

const storedCallSchema = z.object({
  call: z.object({ task: z.string(), variables: z.record(z.string(), z.unknown()) }).passthrough(),
});

/**
 * The calls waiting in batches, by request hash: their variables (evidence passages …) stay in
 * Elasticsearch, and only the hashes and task tokens cross Temporal (the collector's history,
 * its continue-as-new and its activities' inputs stay small, whatever the batch size).
 */
export class BatchRequestStore {
  private ready: Promise<void> | undefined;

  constructor(
    private readonly es: Client,
    readonly index: string,
  ) {}

  async put(requestKey: string, call: LlmTaskInput): Promise<void> {
    this.ready ??= ensureIndex(this.es, this.index, INDEX).catch((err: unknown) => {
      this.ready = undefined;
      throw err;
    });
    await this.ready;
    await this.es.index({ index: this.index, id: requestKey, document: { call, createdAt: new Date().toISOString() } });
  }

  /** The stored calls of `requestKeys` (a get by id is real-time: no refresh needed); a missing or damaged one is left out. */
  async getMany(requestKeys: readonly string[]): Promise<Map<string, LlmTaskInput>> {
    const calls = new Map<string, LlmTaskInput>();
    if (requestKeys.length === 0) return calls;
    const response = await this.es.mget<unknown>({ index: this.index, ids: [...requestKeys] });
    for (const doc of response.docs) {
      if (!('found' in doc) || !doc.found) continue;
      const parsed = storedCallSchema.safeParse(doc._source);
      if (parsed.success) calls.set(doc._id, parsed.data.call as LlmTaskInput);
    }
    return calls;
  }
}
