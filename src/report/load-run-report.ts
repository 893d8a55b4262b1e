import type { Client } from '@elastic/elasticsearch';
import { readRun } from '../runs/read-run';
import { buildReport, type BuildReportOptions } from './build-report';
import { goldFromDatasetFiles } from './dataset-gold-labels';
import { goldFromRunClaims, mergeGoldLabels } from './gold-labels';
import type { RunReport } from './report-types';

/** Reads a run from Elasticsearch, joins gold labels (stored with the run, else from its dataset files) and builds its report. */
export async function loadRunReport(client: Client, prefix: string, runId: string, options: BuildReportOptions = {}): Promise<RunReport> {
  const records = await readRun(client, prefix, runId);
  const stored = goldFromRunClaims(records.claims);
  const needsFiles = records.verdicts.some((verdict) => !stored.has(verdict.claimId));
  const fromFiles = needsFiles ? await goldFromDatasetFiles(records.manifest, records.warnings) : new Map();
  return buildReport(records, mergeGoldLabels(stored, fromFiles), options);
}
