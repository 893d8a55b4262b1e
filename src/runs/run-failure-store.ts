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
  /** The sweep execution chain that saw it fail (its first run id): a repeated record from the same chain replaces, never adds. */
  sweepExecution?: string;
  /** What a verification ended by its limits spent. */
  tokens?: number;
  costUsd?: number;
}

const storedFailureSchema = z
  .object({ runId: z.string(), workflowId: z.string(), claimId: z.string(), reason: z.string(), failedAt: z.string() })
  .passthrough();

/** An earlier failure of a verification that was retried. */
export interface EarlierFailure {
  reason: string;
  type?: string;
  failedAt: string;
}

export type StoredRunFailure = RunFailure & { failedAt: string; earlier?: EarlierFailure[] };

const earlierFailureSchema = z.object({ reason: z.string(), type: z.string().optional(), failedAt: z.string() });

function earlierOf(stored: Record<string, unknown>): EarlierFailure[] {
  const parsed = z.array(earlierFailureSchema).safeParse(stored.earlier ?? []);
  return parsed.success ? parsed.data : [];
}

function asEarlier(stored: Record<string, unknown>): EarlierFailure[] {
  const own = earlierFailureSchema.safeParse(stored);
  return own.success ? [{ reason: own.data.reason, ...(own.data.type ? { type: own.data.type } : {}), failedAt: own.data.failedAt }] : [];
}

/** Failed verifications of a run in `<prefix>-run-failures`, `_id` = the verification's workflow id. */
export class RunFailureStore {
  private ready = false;

  constructor(
    private readonly client: Client,
    readonly index: string,
  ) {}

  /**
   * Records a verification's failure. A failure recorded before for the same verification (a
   * retried one that failed again) is kept in `earlier`, oldest first.
   */
  async record(failure: RunFailure): Promise<void> {
    await this.ensureIndex();
    const previous = await this.client.get<Record<string, unknown>>({ index: this.index, id: failure.workflowId }, { ignore: [404] });
    const stored = previous.found ? previous._source : undefined;
    const sameAttempt = stored !== undefined && failure.sweepExecution !== undefined && stored.sweepExecution === failure.sweepExecution;
    const earlier = stored ? (sameAttempt ? earlierOf(stored) : [...earlierOf(stored), ...asEarlier(stored)]) : [];
    await this.client.index({
      index: this.index,
      id: failure.workflowId,
      document: { ...failure, failedAt: new Date().toISOString(), ...(earlier.length > 0 ? { earlier } : {}) },
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
