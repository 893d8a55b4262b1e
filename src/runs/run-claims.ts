import fs from 'node:fs';
import { DATASET_FORMATS, type DatasetClaim, type DatasetFormat, datasetFileHash, loadDataset, samplePerValue, stratifiedSample } from '../datasets';
import type { RunClaim, SweepDatasetRef, SweepStratify } from '../shared/sweep';

/** The run's inputs cannot make a claim list (missing file, unknown format, clashing ids). */
export class RunInputError extends Error {
  override name = 'RunInputError';
}

export function datasetFormatOf(ref: Pick<SweepDatasetRef, 'format' | 'file'>): DatasetFormat | 'auto' {
  if (ref.format === 'auto' || (DATASET_FORMATS as readonly string[]).includes(ref.format)) return ref.format as DatasetFormat | 'auto';
  throw new RunInputError(`unknown dataset format "${ref.format}" for ${ref.file}; known formats: auto, ${DATASET_FORMATS.join(', ')}`);
}

/**
 * The claims of a run, in dataset order: each dataset's claims (a seeded, label-stratified
 * sample when `sample` is set, `perValue` per value of a field when `stratify` is, in file order;
 * claims with a `dropLabels` gold label left out),
 * numbered from 0 across datasets.
 */
export async function sampleRunClaims(runId: string, datasets: SweepDatasetRef[], seed: number): Promise<RunClaim[]> {
  const claims: RunClaim[] = [];
  const seen = new Map<string, string>();
  for (const [position, ref] of datasets.entries()) {
    if (!fs.existsSync(ref.file)) throw new RunInputError(`dataset file not found: ${ref.file}`);
    const format = datasetFormatOf(ref);
    await requireRecordedContent(ref);
    const { claims: loaded } = await loadDataset(ref.file, format === 'verity' || format === 'auto' ? { format } : { format, dataset: ref.name });
    // Hashed before and after reading: a file replaced while it was read is refused too.
    await requireRecordedContent(ref);
    const all = ref.dropLabels ? loaded.filter((claim) => !ref.dropLabels!.includes(claim.labelNorm)) : loaded;
    const chosen = chooseClaims(all, ref, seed);
    for (const claim of chosen) {
      const clash = seen.get(claim.id);
      if (clash) throw new RunInputError(`claim id ${claim.id} appears in both ${clash} and ${ref.file}`);
      seen.set(claim.id, ref.file);
      claims.push({
        runId,
        ordinal: claims.length,
        claimId: claim.id,
        dataset: claim.dataset,
        datasetPosition: position,
        claim: claim.claim,
        label: claim.label,
        labelNorm: claim.labelNorm,
        ...(ref.stratify ? { stratum: stratumOf(claim, ref.stratify, ref.file) } : {}),
      });
    }
  }
  return claims;
}

/** The dataset's claims of the run: all, a label-stratified sample, or `perValue` per value of the stratify field. */
function chooseClaims(all: DatasetClaim[], ref: SweepDatasetRef, seed: number): DatasetClaim[] {
  const { stratify } = ref;
  if (stratify) return samplePerValue(all, stratify.perValue, { seed, valueOf: (claim) => stratumOf(claim, stratify, ref.file) });
  return ref.sample !== undefined && ref.sample < all.length ? stratifiedSample(all, ref.sample, { seed }) : all;
}

/** A claim's value of the stratify field as text; a claim without one cannot be placed in a stratum. */
export function stratumOf(claim: DatasetClaim, stratify: SweepStratify, file: string): string {
  const value = claim.meta[stratify.field];
  if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') return String(value);
  throw new RunInputError(`claim ${claim.id} of ${file} has no meta.${stratify.field} (a string or number) to stratify by`);
}

/** A dataset whose file no longer has the sha256 its run recorded would be verified as another dataset under the old one's name. */
async function requireRecordedContent(ref: SweepDatasetRef): Promise<void> {
  if (ref.sha256 === undefined) return;
  const actual = await datasetFileHash(ref.file);
  if (actual !== ref.sha256) {
    throw new RunInputError(
      `${ref.file} changed after the run was recorded (sha256 ${ref.sha256.slice(0, 12)}…, now ${actual.slice(0, 12)}…); restore it, or start the run under a new run id`,
    );
  }
}
