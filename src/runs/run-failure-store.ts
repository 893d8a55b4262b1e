import type { Client } from '@elastic/elasticsearch';
import { z } from 'zod';
import { ensureIndex } from '../es/ensure-index';
import type { SweepChildRef } from '../shared/sweep';
import { RUN_FAILURES_INDEX } from './run-indices';

export interface RunFailure extends SweepChildRef {
  runId: string;
  reason: string;
  /** Error type of the innermost ApplicationFailure (IndexNotFound, InvalidInput, …). */
  type?: string;
}

const storedFailureSchema = z
  .object({ runId: z.string(), workflowId: z.string(), claimId: z.string(), reason: z.string(), failedAt: z.string() })
  .passthrough();

export type StoredRunFailure = RunFailure & { failedAt: string };

/** Failed verifications of a run in `<prefix>-run-failures`, `_id` = the verification's workflow id. */
export class RunFailureStore {
  private ready = false;

  constructor(
    private readonly client: Client,
    readonly index: string,
  ) {}

  async record(failure: RunFailure): Promise<void> {
    await this.ensureIndex();
    await this.client.index({
      index: this.index,
      id: failure.workflowId,
      document: { ...failure, failedAt: new Date().toISOString() },
      refresh: 'wait_for',
    });
  }

  async list(runId: string, size = 10_000): Promise<StoredRunFailure[]> {
    await this.ensureIndex();
    const response = await this.client.search({ index: this.index, size, query: { term: { runId } }, sort: [{ ordinal: 'asc' }] });
    return response.hits.hits.map((hit) => storedFailureSchema.parse(hit._source) as unknown as StoredRunFailure);
  }

  async ensureIndex(): Promise<void> {
    if (this.ready) return;
    await ensureIndex(this.client, this.index, RUN_FAILURES_INDEX);
    this.ready = true;
  }
}
