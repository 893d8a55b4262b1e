import { normalizeFeverTitle } from '../../corpus/formats';
import { asObject, toDatasetClaim, uniqueStrings, type DatasetClaim } from '../dataset-claim';
import type { FormatReaderFactory } from '../format-reader';
import { jsonLines } from '../record-sources';

/** FEVER evidence: sets of [annotation id, evidence id, wiki URL | null, sentence id | null]. */
type FeverEvidence = [unknown, unknown, unknown, unknown][][];

export function feverEvidenceSets(evidence: unknown): [string, number][][] {
  if (!Array.isArray(evidence)) return [];
  return (evidence as FeverEvidence).map((set) =>
    (Array.isArray(set) ? set : [])
      .filter((item) => Array.isArray(item) && typeof item[2] === 'string')
      .map((item): [string, number] => [normalizeFeverTitle(item[2] as string), Number(item[3])]),
  ).filter((set) => set.length > 0);
}

/** FEVER shared-task / paper_dev JSONL: {id, verifiable, label, claim, evidence}. */
export function parseFeverRecord(value: unknown, dataset = 'fever'): DatasetClaim {
  const record = asObject(value);
  const evidenceSets = feverEvidenceSets(record.evidence);
  return toDatasetClaim({
    id: `${dataset}-${String(record.id)}`,
    dataset,
    claim: record.claim as string,
    label: record.label as string,
    goldTitles: uniqueStrings(evidenceSets.flat().map(([title]) => title)),
    meta: { sourceId: record.id, verifiable: record.verifiable, evidenceSets },
  }, 'fever');
}

export const feverReader: FormatReaderFactory = (_file, options) => ({
  records: jsonLines,
  parse: (value) => parseFeverRecord(value, options.dataset),
});
