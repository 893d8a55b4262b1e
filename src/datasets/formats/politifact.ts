import { asObject, RecordError, toDatasetClaim, type DatasetClaim } from '../dataset-claim';
import type { FormatReaderFactory } from '../format-reader';
import { jsonLines } from '../record-sources';

/**
 * The Kaggle "PolitiFact fact-check" set ToE evaluates on (toe.md §9.1): JSON lines with
 * `verdict`, `statement`, `statement_originator`, `statement_date`, …; the id is
 * `politifact-<0-based line index>`.
 */
export function parsePolitifactRecord(value: unknown, line: number, dataset = 'politifact'): DatasetClaim {
  const { statement, verdict, ...meta } = asObject(value);
  if (typeof statement !== 'string') throw new RecordError('statement: expected a string');
  return toDatasetClaim({ id: `${dataset}-${line - 1}`, dataset, claim: statement, label: verdict as string, goldTitles: [], meta });
}

export const politifactReader: FormatReaderFactory = (_file, options) => ({
  records: jsonLines,
  parse: (value, position) => parsePolitifactRecord(value, 'line' in position ? position.line : position.index + 1, options.dataset),
});
