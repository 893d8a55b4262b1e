import path from 'node:path';
import { isKnownDataset } from '../../labels';
import { asObject, toDatasetClaim, type DatasetClaim } from '../dataset-claim';
import type { FormatReaderFactory } from '../format-reader';
import { jsonLines } from '../record-sources';

/** FIRE's datasets/<name>/<file>.jsonl: generic file names take the folder's name (factool_qa, bingcheck, felm_wk, factcheckbench). */
const FIRE_FOLDER_DATASETS: Record<string, string> = { factcheckbench: 'factcheck_bench' };
const GENERIC_FILE_NAMES = new Set(['data', 'data_full', 'claim_factuality']);

export function fireDatasetName(file: string): string {
  const base = path.basename(file).replace(/\.jsonl$/, '');
  const name = GENERIC_FILE_NAMES.has(base) ? path.basename(path.dirname(file)) : base;
  return FIRE_FOLDER_DATASETS[name] ?? name;
}

/**
 * FIRE-style `{claim, label}` (labels "true"/"false" strings or JSON booleans); the id is
 * `<dataset>-<0-based line index>`. Datasets without a declared mapping use the true/false one.
 */
export function parseFireRecord(value: unknown, line: number, dataset: string): DatasetClaim {
  const { claim, label, ...rest } = asObject(value);
  return toDatasetClaim({
    id: `${dataset}-${line - 1}`,
    dataset,
    claim: claim as string,
    label: label as string | boolean,
    goldTitles: [],
    meta: rest,
  }, isKnownDataset(dataset) ? dataset : 'factool_qa');
}

export const fireReader: FormatReaderFactory = (file, options) => {
  const dataset = options.dataset ?? fireDatasetName(file);
  return {
    records: jsonLines,
    parse: (value, position) => parseFireRecord(value, 'line' in position ? position.line : position.index + 1, dataset),
  };
};
