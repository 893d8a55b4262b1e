import type { Client } from '@elastic/elasticsearch';
import { isIndexNotFound } from '../../es/client';
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
  const manifest = await readManifest(client, prefix, runId);
  // A sweep with `check` stores its claims' verdicts under claim ids of its own (see run-documents.ts).
  const variants = manifest.config.check ? undefined : { methods: manifest.config.methods, models: manifest.config.models, claims: await hasStoredClaims(client, prefix, runId) };
  // Verdicts are stored without waiting for a refresh: make the latest ones searchable first.
  await client.indices.refresh({ index: [indexName(prefix, 'verdicts'), indexName(prefix, 'run-failures')], ignore_unavailable: true, allow_no_indices: true });
  const stats: ExportStats = { verdicts: 0, failures: 0, skipped: 0, problems: [] };
  const writer = openRowWriter(format, file);
  try {
    for await (const rows of streamRunRows(client, prefix, runId, stats, undefined, variants)) {
      await writer.write(rows);
      onProgress?.(stats.verdicts + stats.failures);
    }
  } finally {
    await writer.close();
  }
  return stats;
}

async function hasStoredClaims(client: Client, prefix: string, runId: string): Promise<boolean> {
  try {
    return (await client.count({ index: indexName(prefix, 'run-claims'), query: { term: { runId } } })).count > 0;
  } catch (err) {
    if (isIndexNotFound(err)) return false;
    throw err;
  }
}
