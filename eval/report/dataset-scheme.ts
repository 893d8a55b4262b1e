import { datasetLabelSpec, goldSchemeLabel, isKnownDataset, type SchemeLabel, type SchemeName } from '../labels';

/** The scheme a dataset is scored on; datasets without a label mapping are shown on the 3-way scheme, unscored. */
export function datasetScheme(dataset: string): SchemeName {
  return isKnownDataset(dataset) ? datasetLabelSpec(dataset).scheme : 'three-way';
}

/** Gold on the dataset's scheme, or null when the dataset or the label has no mapping onto it. */
export function goldOnScheme(dataset: string, raw: string | boolean | null): SchemeLabel | null {
  if (raw === null || !isKnownDataset(dataset)) return null;
  return goldSchemeLabel(dataset, raw);
}
