import { schemeLabels, type SchemeLabel } from '../labels';
import {
  aggregateUsage,
  bootstrapCI,
  classificationReport,
  confusionMatrix,
  latencySummary,
  weightedF1,
  type BootstrapOptions,
  type LabelPair,
} from '../metrics';
import { accuracyCI, macroF1CI } from '../metrics';
import { LIMIT_REACHED_LABEL } from './claim-rows';
import { datasetScheme } from './dataset-scheme';
import type { ClaimRow, GroupKey, GroupReport } from './report-types';

function scoredPairs(rows: readonly ClaimRow[]): LabelPair<SchemeLabel>[] {
  return rows.flatMap((row) => (row.status === 'verdict' && row.gold !== null ? [{ gold: row.gold, predicted: row.predicted }] : []));
}

function failuresOf(rows: readonly ClaimRow[]): GroupReport['failures'] {
  return rows.flatMap((row) => (row.status !== 'verdict' ? [{ claimId: row.claimId, outcome: row.status === 'limit-reached' ? LIMIT_REACHED_LABEL : 'failed', reason: row.failureReason ?? '' }] : []));
}

/** Metrics of one dataset × method × model: failed verifications are counted and listed, not scored. */
export function buildGroupReport(key: GroupKey, rows: readonly ClaimRow[], bootstrap: BootstrapOptions = {}): GroupReport {
  const scheme = datasetScheme(key.dataset);
  const labels = schemeLabels(scheme);
  const verdicts = rows.filter((row) => row.status === 'verdict');
  const pairs = scoredPairs(rows);
  const confusion = confusionMatrix(pairs, labels);
  const classification = classificationReport(confusion);
  const usage = aggregateUsage(verdicts);
  return {
    key,
    scheme,
    counts: {
      claims: rows.length,
      verdicts: verdicts.length,
      failed: rows.length - verdicts.length,
      scored: pairs.length,
      unscored: verdicts.length - pairs.length,
      invalid: classification.invalid,
    },
    accuracy: accuracyCI(pairs, labels, bootstrap),
    macroF1: macroF1CI(pairs, labels, bootstrap),
    weightedF1: bootstrapCI(pairs, (sample) => weightedF1(confusionMatrix(sample, labels)), bootstrap),
    perClass: classification.perClass,
    confusion,
    usage,
    cachedLlmCallsPerClaim: verdicts.reduce((sum, row) => sum + row.cachedLlmCalls, 0) / Math.max(verdicts.length, 1),
    latencyMs: latencySummary(verdicts.map((row) => row.durationMs)),
    failures: failuresOf(rows),
    promptVersions: [...new Set(verdicts.map((row) => row.promptVersion).filter((v) => v !== ''))].sort(),
  };
}
