import { normalizeFeverTitle } from '../../corpus/formats';
import { asObject, toDatasetClaim, uniqueStrings, type DatasetClaim } from '../dataset-claim';
import type { FormatReaderFactory } from '../format-reader';
import { jsonArrayElements } from '../record-sources';

/** HoVer release JSON element: {uid, claim, supporting_facts: [[title, sentence id]], label, num_hops}. */
export function parseHoverRecord(value: unknown, dataset = 'hover'): DatasetClaim {
  const record = asObject(value);
  const facts = Array.isArray(record.supporting_facts) ? (record.supporting_facts as unknown[]) : [];
  const supportingFacts = facts
    .filter((fact): fact is [string, unknown] => Array.isArray(fact) && typeof fact[0] === 'string')
    .map(([title, sentence]): [string, number] => [normalizeFeverTitle(title), Number(sentence)]);
  return toDatasetClaim({
    id: `${dataset}-${String(record.uid)}`,
    dataset,
    claim: record.claim as string,
    label: record.label as string,
    goldTitles: uniqueStrings(supportingFacts.map(([title]) => title)),
    meta: { uid: record.uid, numHops: record.num_hops, hpqaId: record.hpqa_id, supportingFacts },
  }, 'hover');
}

export const hoverReader: FormatReaderFactory = (_file, options) => ({
  records: jsonArrayElements,
  parse: (value) => parseHoverRecord(value, options.dataset),
});
