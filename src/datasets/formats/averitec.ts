import { asObject, toDatasetClaim, type DatasetClaim } from '../dataset-claim';
import type { FormatReaderFactory } from '../format-reader';
import { jsonArrayElements } from '../record-sources';

/** AVeriTeC JSON array element: {claim, label, justification, claim_date, speaker, questions: [{question, answers}], …}. */
export function parseAveritecRecord(value: unknown, index: number, dataset = 'averitec'): DatasetClaim {
  const record = asObject(value);
  return toDatasetClaim({
    id: `${dataset}-${index}`,
    dataset,
    claim: record.claim as string,
    label: record.label as string,
    goldTitles: [],
    meta: {
      claimDate: record.claim_date,
      speaker: record.speaker,
      justification: record.justification,
      originalClaimUrl: record.original_claim_url,
      questions: record.questions,
    },
  }, 'averitec');
}

export const averitecReader: FormatReaderFactory = (_file, options) => ({
  records: jsonArrayElements,
  parse: (value, position) => parseAveritecRecord(value, 'index' in position ? position.index : position.line - 1, options.dataset),
});
