import { DatasetFormatError, describePosition, loadDataset, type MalformedRecord } from '../datasets';
import type { SweepDatasetRef } from '../shared/sweep';
import { datasetFormatOf, RunInputError } from './run-claims';

export interface DatasetCheck {
  file: string;
  claims: number;
  /** Malformed or duplicate records that the run skips (the first ones, up to the loader's limit). */
  skipped: MalformedRecord[];
  skippedCount: number;
}

/**
 * Reads every dataset of a run before it starts: a dataset that yields no claim (empty, or not a
 * dataset at all) fails it, and so does any malformed line when `strict`; otherwise the skipped
 * lines are returned for the caller to report.
 */
export async function checkRunDatasets(datasets: SweepDatasetRef[], options: { strict: boolean }): Promise<DatasetCheck[]> {
  const checks: DatasetCheck[] = [];
  for (const ref of datasets) {
    const format = datasetFormatOf(ref);
    let loaded: Awaited<ReturnType<typeof loadDataset>>;
    try {
      loaded = await loadDataset(ref.file, { ...(format === 'verity' || format === 'auto' ? { format } : { format, dataset: ref.name }), strict: options.strict });
    } catch (err) {
      if (err instanceof DatasetFormatError) throw new RunInputError(`${err.message} (strict: true makes malformed lines fatal)`);
      throw new RunInputError((err as Error).message.split('\n')[0] ?? String(err));
    }
    const { claims, stats } = loaded;
    if (claims.length === 0) {
      const skipped = stats.malformedCount > 0 ? `; ${stats.malformedCount} malformed record(s), the first at ${describePosition(stats.malformed[0]!.position)}: ${stats.malformed[0]!.reason}` : '';
      throw new RunInputError(`${ref.file}: no claims found (format ${stats.format ?? format})${skipped}`);
    }
    checks.push({ file: ref.file, claims: claims.length, skipped: stats.malformed, skippedCount: stats.malformedCount });
  }
  return checks;
}

/** One line per skipped record: `<file>: line 7 skipped: <reason>`. */
export function describeSkipped(check: DatasetCheck): string[] {
  const lines = check.skipped.map((record) => `${check.file}: ${describePosition(record.position)} skipped: ${record.reason}`);
  const unlisted = check.skippedCount - check.skipped.length;
  if (unlisted > 0) lines.push(`${check.file}: … and ${unlisted} more skipped record(s)`);
  return lines;
}
