import fs from 'node:fs';
import path from 'node:path';
import { projectRoot } from '../project-root';
import type { RunManifest } from '../runs/run-manifest';
import { DATASET_FORMATS, loadDataset, type DatasetFormat } from '../datasets';
import type { GoldLabels } from './gold-labels';

function resolveDatasetFile(file: string): string | undefined {
  const candidates = path.isAbsolute(file) ? [file] : [path.resolve(file), path.resolve(projectRoot(), file)];
  return candidates.find((candidate) => fs.existsSync(candidate));
}

function formatOption(format: string): DatasetFormat | 'auto' {
  return (DATASET_FORMATS as readonly string[]).includes(format) ? (format as DatasetFormat) : 'auto';
}

/** Gold labels read from the dataset files a manifest names; files that cannot be read become warnings. */
export async function goldFromDatasetFiles(manifest: RunManifest, warnings: string[]): Promise<GoldLabels> {
  const gold: GoldLabels = new Map();
  for (const dataset of manifest.config.datasets) {
    const file = resolveDatasetFile(dataset.file);
    if (!file) {
      warnings.push(`dataset file ${dataset.file} (${dataset.name}) not found; its claims have no gold label`);
      continue;
    }
    const format = formatOption(dataset.format);
    // As the sweep loads them: verity-format files name their own dataset.
    const { claims } = await loadDataset(file, format === 'verity' || format === 'auto' ? { format } : { format, dataset: dataset.name });
    for (const claim of claims) gold.set(claim.id, claim.label);
  }
  return gold;
}
