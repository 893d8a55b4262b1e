import type { DatasetClaim } from './dataset-claim';
import type { RecordPosition, SourceRecord } from './record-sources';

export const DATASET_FORMATS = ['verity', 'fever', 'hover', 'scifact', 'feverous', 'averitec', 'fire', 'liar', 'politifact'] as const;
export type DatasetFormat = (typeof DATASET_FORMATS)[number];

export interface FormatOptions {
  /** Dataset name written into each claim (and used for its label mapping); each format has a default. */
  dataset?: string;
  /** SciFact: corpus.jsonl whose titles become gold titles (default: a corpus.jsonl next to the claims file). */
  scifactCorpus?: string;
}

/** Reads one file format: where its records come from and how one record becomes a claim. */
export interface FormatReader {
  records(file: string): AsyncIterable<SourceRecord>;
  /** Returns null for records that are legitimately not claims (e.g. FEVEROUS's header line). */
  parse(value: unknown, position: RecordPosition): DatasetClaim | null;
}

export type FormatReaderFactory = (file: string, options: FormatOptions) => FormatReader | Promise<FormatReader>;
