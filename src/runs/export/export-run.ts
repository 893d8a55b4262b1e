import type { Client } from '@elastic/elasticsearch';
import { indexName } from '../../es/indices';
import { readManifest } from '../read-run';
import { type ExportFormat, openRowWriter } from './row-writers';
import { type ExportStats, streamRunRows } from './stream-run-rows';

/**
 * Streams every verification of a run (verdicts, then failures without one) from Elasticsearch
 * into `file` in the given format, one page at a time. Fails on an unknown run.
 */
export async function exportRun(
  client: Client,
  prefix: string,
  runId: string,
  format: ExportFormat,
  file: string,
  onProgress?: (rows: number) => void,
): Promise<ExportStats> {
  await readManifest(client, prefix, runId);
  // Verdicts are stored without waiting for a refresh: make the latest ones searchable first.
  await client.indices.refresh({ index: [indexName(prefix, 'verdicts'), indexName(prefix, 'run-failures')], ignore_unavailable: true, allow_no_indices: true });
  const stats: ExportStats = { verdicts: 0, failures: 0, skipped: 0, problems: [] };
  const writer = openRowWriter(format, file);
  try {
    for await (const rows of streamRunRows(client, prefix, runId, stats)) {
      await writer.write(rows);
      onProgress?.(stats.verdicts + stats.failures);
    }
  } finally {
    await writer.close();
  }
  return stats;
}
