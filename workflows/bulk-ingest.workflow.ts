import { condition, continueAsNew, defineQuery, proxyActivities, setHandler } from '@temporalio/workflow';
import type { Activities } from '../activities';
import { FAILURE_TYPES } from '../src/shared/constants';
import { addChecksums, EMPTY_CHECKSUM } from '../src/shared/passage-checksum';
import type { BulkIngestInput, BulkIngestProgress, BulkIngestResult, BulkIngestState } from '../src/shared/bulk-ingest';

/**
 * A batch is one bulk request: heartbeats move a killed worker's batch to another worker within
 * seconds; Elasticsearch being away is retried for as long as an outage may last.
 */
const batches = proxyActivities<Activities>({
  startToCloseTimeout: '2 minutes',
  heartbeatTimeout: '20 seconds',
  scheduleToCloseTimeout: '2 hours',
  retry: { initialInterval: '1 second', backoffCoefficient: 2, maximumInterval: '30 seconds', nonRetryableErrorTypes: Object.values(FAILURE_TYPES) },
});
/** Creating the index, and its refresh at the end (minutes on millions of passages). */
const indexSteps = proxyActivities<Activities>({
  startToCloseTimeout: '15 minutes',
  scheduleToCloseTimeout: '1 hour',
  retry: { initialInterval: '1 second', backoffCoefficient: 2, maximumInterval: '30 seconds', nonRetryableErrorTypes: Object.values(FAILURE_TYPES) },
});

export const bulkIngestProgressQuery = defineQuery<BulkIngestProgress>('bulkIngestProgress');

/** Batches per run before continue-as-new keeps the history small (about 6 events a batch). */
const BATCHES_PER_RUN = 1_000;

/**
 * A durable bulk ingest: the corpus in fixed batches with deterministic ids, `parallel` at a time.
 * What is recorded is the next batch to write, everything below it done; after a crash the
 * workflow goes on from its history, and a batch that was running is written again (idempotent).
 */
export async function bulkIngestWorkflow(input: BulkIngestInput): Promise<BulkIngestResult> {
  const total = Math.ceil(input.corpus.total / input.batchSize);
  const state: BulkIngestState = input.resume ?? { nextBatch: 0, passages: 0, checksum: EMPTY_CHECKSUM, startedAt: new Date(Date.now()).toISOString() };
  let inFlight = 0;
  // Batches finish out of order: the recorded frontier only moves past contiguous completions.
  const finished = new Set<number>();
  let frontier = state.nextBatch;
  setHandler(bulkIngestProgressQuery, () => ({ ...state, nextBatch: frontier, batches: total, total: input.corpus.total, inFlight }));

  if (!input.resume) await indexSteps.prepareBulkIndex({ index: input.index, shards: input.shards });

  const runEnd = Math.min(total, state.nextBatch + BATCHES_PER_RUN);
  let next = state.nextBatch;
  let failure: unknown;
  const runBatch = async (batch: number) => {
    inFlight += 1;
    try {
      const outcome = await batches.ingestGeneratedBatch({ index: input.index, corpus: input.corpus, batch, batchSize: input.batchSize });
      state.passages += outcome.passages;
      state.checksum = addChecksums(state.checksum, outcome.checksum);
      finished.add(batch);
      while (finished.delete(frontier)) frontier += 1;
    } catch (err) {
      failure ??= err;
    } finally {
      inFlight -= 1;
    }
  };
  while (next < runEnd && failure === undefined) {
    await condition(() => inFlight < input.parallel || failure !== undefined);
    if (failure !== undefined) break;
    void runBatch(next);
    next += 1;
  }
  await condition(() => inFlight === 0);
  if (failure !== undefined) throw failure;
  state.nextBatch = frontier;

  if (state.nextBatch < total) {
    return continueAsNew<typeof bulkIngestWorkflow>({ ...input, resume: state });
  }
  await indexSteps.finishBulkIndex({ index: input.index });
  return { index: input.index, passages: state.passages, batches: total, checksum: state.checksum, startedAt: state.startedAt };
}
