import { RecordError, toDatasetClaim, type DatasetClaim } from '../dataset-claim';
import type { FormatReaderFactory } from '../format-reader';
import { textLines, type SourceRecord } from '../record-sources';

/** LIAR (Wang 2017) train/valid/test.tsv: 14 tab-separated columns, no header, no quoting. */
export const LIAR_COLUMNS = [
  'id', 'label', 'statement', 'subjects', 'speaker', 'speakerJobTitle', 'stateInfo', 'partyAffiliation',
  'barelyTrueCount', 'falseCount', 'halfTrueCount', 'mostlyTrueCount', 'pantsOnFireCount', 'context',
] as const;

async function* liarRows(file: string): AsyncGenerator<SourceRecord> {
  for await (const read of textLines(file)) {
    yield 'problem' in read ? { position: { line: read.line }, ok: false, reason: read.problem } : { position: { line: read.line }, ok: true, value: read.text.split('\t') };
  }
}

/** `dataset` picks the label mapping: `liar` (binary) or `liar_3way`. */
export function parseLiarRow(columns: unknown, dataset = 'liar'): DatasetClaim {
  if (!Array.isArray(columns) || columns.length !== LIAR_COLUMNS.length) {
    throw new RecordError(`expected ${LIAR_COLUMNS.length} tab-separated columns, found ${Array.isArray(columns) ? columns.length : 0}`);
  }
  const row = Object.fromEntries(LIAR_COLUMNS.map((name, i) => [name, String(columns[i]).trim()])) as Record<(typeof LIAR_COLUMNS)[number], string>;
  const { id, label, statement, ...meta } = row;
  return toDatasetClaim({
    id: `liar-${id.replace(/\.json$/, '')}`,
    dataset,
    claim: statement,
    label,
    goldTitles: [],
    meta,
  });
}

export const liarReader: FormatReaderFactory = (_file, options) => ({
  records: liarRows,
  parse: (value) => parseLiarRow(value, options.dataset),
});
