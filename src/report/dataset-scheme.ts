import type { RunManifest } from '../runs/run-manifest';
import { goldSchemeLabel, isKnownDataset, protocolScheme, type SchemeLabel, type SchemeName } from '../labels';

/**
 * The scheme a dataset is scored on: its protocol's (the dataset's own scheme, binary when the run
 * drops its NEI claims). Datasets without a label mapping are shown on the 3-way scheme, unscored.
 */
export function datasetScheme(dataset: string, dropLabels?: RunManifest['config']['datasets'][number]['dropLabels']): SchemeName {
  return isKnownDataset(dataset) ? protocolScheme(dataset, dropLabels) : 'three-way';
}

/** The scheme of a dataset as the run's manifest configured it. */
export function runDatasetScheme(manifest: Pick<RunManifest, 'config'>, dataset: string): SchemeName {
  return datasetScheme(dataset, manifest.config.datasets.find((ref) => ref.name === dataset)?.dropLabels);
}

/** Gold on the scheme, or null when the dataset or the label has no mapping onto it. */
export function goldOnScheme(dataset: string, raw: string | boolean | null, scheme: SchemeName = datasetScheme(dataset)): SchemeLabel | null {
  if (raw === null || !isKnownDataset(dataset)) return null;
  return goldSchemeLabel(dataset, raw, scheme);
}
