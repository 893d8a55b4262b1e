import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { Client } from '@elastic/elasticsearch';
import { isIndexNotFound } from '../../es/client';
import { indexName } from '../../es/indices';
import { readManifest } from '../read-run';
import { type ExportFormat, openRowWriter } from './row-writers';
import { type ExportStats, streamRunRows } from './stream-run-rows';

/** The export was stopped by its signal (Ctrl-C); nothing was written to the file asked for. */
export class ExportInterruptedError extends Error {
  override name = 'ExportInterruptedError';
}

/**
 * Where the rows go: a regular file is written as a temporary file beside it and renamed over it
 * once complete, so an interrupted or failed export never leaves a truncated file that looks whole.
 * Standard output and devices (/dev/null) are written directly.
 */
function outputPath(file: string): string {
  if (file === '-') return file;
  const existing = fs.statSync(file, { throwIfNoEntry: false });
  if (existing && !existing.isFile()) return file;
  return path.join(path.dirname(file), `.${path.basename(file)}.${process.pid}-${randomBytes(4).toString('hex')}.part`);
}

/**
 * Streams every verification of a run (verdicts, then failures without one) from Elasticsearch
 * into `file` in the given format, one page at a time. Fails on an unknown run; `signal` stops it
 * between pages (ExportInterruptedError) with the temporary file removed.
 */
export async function exportRun(
  client: Client,
  prefix: string,
  runId: string,
  format: ExportFormat,
  file: string,
  onProgress?: (rows: number) => void,
  signal?: AbortSignal,
): Promise<ExportStats> {
  const manifest = await readManifest(client, prefix, runId);
  // A sweep with `check` stores its claims' verdicts under claim ids of its own (see run-documents.ts).
  const variants = manifest.config.check ? undefined : { methods: manifest.config.methods, models: manifest.config.models, claims: await hasStoredClaims(client, prefix, runId) };
  // Verdicts are stored without waiting for a refresh: make the latest ones searchable first.
  await client.indices.refresh({ index: [indexName(prefix, 'verdicts'), indexName(prefix, 'run-failures')], ignore_unavailable: true, allow_no_indices: true });
  const stats: ExportStats = { verdicts: 0, failures: 0, skipped: 0, problems: [] };
  const target = outputPath(file);
  let complete = false;
  try {
    const writer = openRowWriter(format, target, file);
    try {
      for await (const rows of streamRunRows(client, prefix, runId, stats, undefined, variants)) {
        if (signal?.aborted) throw new ExportInterruptedError(`export of run ${runId} interrupted; ${file === '-' ? 'output incomplete' : `${file} not written`}`);
        await writer.write(rows);
        onProgress?.(stats.verdicts + stats.failures);
      }
      if (signal?.aborted) throw new ExportInterruptedError(`export of run ${runId} interrupted; ${file === '-' ? 'output incomplete' : `${file} not written`}`);
    } finally {
      await writer.close();
    }
    if (target !== file) fs.renameSync(target, file);
    complete = true;
  } finally {
    if (!complete && target !== file) fs.rmSync(target, { force: true });
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
