import { asObject, toDatasetClaim, uniqueStrings, type DatasetClaim } from '../dataset-claim';
import type { FormatReaderFactory } from '../format-reader';
import { jsonLines } from '../record-sources';

/** FEVEROUS element ids look like `<page>_sentence_0`, `<page>_cell_0_1_1`, `<page>_header_cell_…`. */
const ELEMENT_ID = /^(.+?)_(?:sentence|header_cell|cell|table_caption|item|section|title)(?:_[\d_]+)?$/;

export function feverousPageOf(elementId: string): string | undefined {
  return ELEMENT_ID.exec(elementId)?.[1];
}

/** FEVEROUS JSONL: {id, label, claim, evidence: [{content: [element ids], context}], challenge}. Null for the empty header line. */
export function parseFeverousRecord(value: unknown, dataset = 'feverous'): DatasetClaim | null {
  const record = asObject(value);
  if (record.claim === '' && (record.id === '' || record.id === undefined)) return null;
  const evidence = Array.isArray(record.evidence) ? (record.evidence as unknown[]) : [];
  const evidenceSets = evidence.map((set) => {
    const content = (set as { content?: unknown } | null)?.content;
    return Array.isArray(content) ? content.filter((item): item is string => typeof item === 'string') : [];
  });
  const pages = evidenceSets.flat().map(feverousPageOf).filter((page): page is string => page !== undefined);
  return toDatasetClaim({
    id: `${dataset}-${String(record.id)}`,
    dataset,
    claim: record.claim as string,
    label: record.label as string,
    goldTitles: uniqueStrings(pages),
    meta: { sourceId: record.id, challenge: record.challenge, evidenceSets },
  }, 'feverous');
}

export const feverousReader: FormatReaderFactory = (_file, options) => ({
  records: jsonLines,
  parse: (value) => parseFeverousRecord(value, options.dataset),
});
