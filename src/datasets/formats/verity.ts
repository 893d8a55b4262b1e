import { z } from 'zod';
import { VERDICT_LABELS } from '../../shared/constants';
import { internalLabel, isKnownDataset } from '../../labels';
import { parseRecord, RecordError, validateClaim, type DatasetClaim } from '../dataset-claim';
import type { FormatReaderFactory } from '../format-reader';
import { jsonLines } from '../record-sources';

/** verity's normalised claim JSONL (/work/shared/data README, "Claim files"). */
const verityRecordSchema = z.object({
  id: z.string().min(1),
  dataset: z.string().min(1),
  split: z.string().optional(),
  claim: z.string(),
  label: z.union([z.string(), z.boolean()]),
  label_norm: z.enum(VERDICT_LABELS),
  gold_titles: z.array(z.string()).default([]),
  gold_sentences: z.array(z.unknown()).default([]),
  meta: z.record(z.string(), z.unknown()).default({}),
});

export function parseVerityRecord(value: unknown): DatasetClaim {
  const record = parseRecord(verityRecordSchema, value);
  assertConsistentLabel(record.dataset, record.label, record.label_norm);
  return validateClaim({
    id: record.id,
    dataset: record.dataset,
    claim: record.claim,
    label: record.label,
    labelNorm: record.label_norm,
    goldTitles: record.gold_titles,
    meta: { ...record.meta, split: record.split, goldSentences: record.gold_sentences },
  });
}

/** For datasets with a declared mapping, `label_norm` must agree with it. */
function assertConsistentLabel(dataset: string, label: string | boolean, labelNorm: string): void {
  if (!isKnownDataset(dataset)) return;
  const expected = internalLabel(dataset, label);
  if (expected !== labelNorm) {
    throw new RecordError(`label_norm ${labelNorm} disagrees with the ${dataset} mapping of ${JSON.stringify(label)} (${expected ?? 'unknown label'})`);
  }
}

export const verityReader: FormatReaderFactory = () => ({ records: jsonLines, parse: parseVerityRecord });
