import type { GeneratedCorpusSpec } from '../corpus/generated-passages';
import { sha256HexOf } from './sha256';

/** Input of bulkIngestWorkflow (sandbox-safe: types only from src/corpus). */
export interface BulkIngestInput {
  index: string;
  corpus: GeneratedCorpusSpec;
  /** Passages per batch (one activity, one bulk request). */
  batchSize: number;
  /** Batches in flight at once. */
  parallel: number;
  /** Primary shards of the index when the ingest creates it. */
  shards: number;
  /** Carried across continue-as-new: every batch below it is written. */
  resume?: BulkIngestState;
}

export interface BulkIngestState {
  nextBatch: number;
  passages: number;
  checksum: string;
  startedAt: string;
}

export interface BulkIngestProgress extends BulkIngestState {
  batches: number;
  total: number;
  inFlight: number;
}

export interface BulkIngestResult {
  index: string;
  passages: number;
  batches: number;
  checksum: string;
  startedAt: string;
}

/** One workflow per (index, corpus, batching): running the same ingest again attaches to it or redoes it idempotently. */
export function bulkIngestWorkflowId(input: Pick<BulkIngestInput, 'index' | 'corpus' | 'batchSize'>): string {
  const { sourceSha256, seed, total } = input.corpus;
  return `bulk-ingest:${input.index}:${total}:${sha256HexOf(`${sourceSha256}|${seed}|${total}|${input.batchSize}`).slice(0, 12)}`;
}
