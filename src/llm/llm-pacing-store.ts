import type { Client } from '@elastic/elasticsearch';
import { z } from 'zod';
import { ensureIndex, type IndexDefinition } from '../es/ensure-index';
import { indexName } from '../es/indices';
import { reserveStart, type ScheduleSlot } from './shared-schedule';

const PACING_INDEX: IndexDefinition = {
  mappings: { dynamic: 'strict', properties: { nextFreeMs: { type: 'double' }, rateLimit: { type: 'double' } } },
};

const slotSchema = z.object({ nextFreeMs: z.number().optional(), rateLimit: z.number().positive().optional() });

/** A write that lost the race to another machine's is redone on the new version, at most this often. */
const MAX_CONFLICTS = 200;

/**
 * The shared request schedule of the LLM queues in `<prefix>-llm-pacing`: one document per LLM
 * task queue (`_id` = the queue) with the next free start and the 429 controller's rate. Every
 * change is a compare-and-set on the document's sequence number (no script: it works on any
 * cluster), so the reservations of all machines are serialized.
 */
export class LlmPacingStore {
  readonly index: string;
  private ready: Promise<void> | undefined;

  constructor(
    private readonly client: Client,
    prefix: string,
  ) {
    this.index = indexName(prefix, 'llm-pacing');
  }

  /** Reserves the queue's next start for a request at `requestsPerSecond` (reserveStart); returns it (epoch ms). */
  async reserve(llmTaskQueue: string, nowMs: number, requestsPerSecond: number): Promise<{ startMs: number; rateLimit?: number }> {
    const calledAt = Date.now();
    let startMs = nowMs;
    const slot = await this.change(llmTaskQueue, (current) => {
      // A retry after a conflict reserves from its own time, not the first attempt's.
      const reserved = reserveStart(current, nowMs + (Date.now() - calledAt), requestsPerSecond);
      startMs = reserved.startMs;
      return reserved.slot;
    });
    return { startMs, ...(slot.rateLimit !== undefined ? { rateLimit: slot.rateLimit } : {}) };
  }

  /** Sets the queue-wide rate every machine's next reservation follows (the 429 controller's); null removes it. */
  async setRateLimit(llmTaskQueue: string, requestsPerSecond: number | null): Promise<void> {
    await this.change(llmTaskQueue, ({ rateLimit: _previous, ...rest }) => (requestsPerSecond === null ? rest : { ...rest, rateLimit: requestsPerSecond }));
  }

  /** The queue-wide rate set by the 429 controller, if any. */
  async rateLimitOf(llmTaskQueue: string): Promise<number | undefined> {
    return (await this.read(llmTaskQueue)).slot.rateLimit;
  }

  private ensure(): Promise<void> {
    this.ready ??= ensureIndex(this.client, this.index, PACING_INDEX).catch((err: unknown) => {
      this.ready = undefined;
      throw err;
    });
    return this.ready;
  }

  private async read(llmTaskQueue: string): Promise<{ slot: ScheduleSlot; version?: { if_seq_no: number; if_primary_term: number } }> {
    await this.ensure();
    const response = await this.client.get({ index: this.index, id: llmTaskQueue }, { ignore: [404] });
    if (!response.found) return { slot: {} };
    return { slot: slotSchema.parse(response._source), version: { if_seq_no: response._seq_no!, if_primary_term: response._primary_term! } };
  }

  private async change(llmTaskQueue: string, next: (slot: ScheduleSlot) => ScheduleSlot): Promise<ScheduleSlot> {
    for (let conflicts = 0; ; conflicts += 1) {
      const { slot, version } = await this.read(llmTaskQueue);
      const changed = next(slot);
      try {
        await this.client.index({ index: this.index, id: llmTaskQueue, document: changed, ...(version ?? { op_type: 'create' }) });
        return changed;
      } catch (err) {
        if ((err as { meta?: { statusCode?: number } }).meta?.statusCode !== 409 || conflicts >= MAX_CONFLICTS) throw err;
      }
    }
  }
}
