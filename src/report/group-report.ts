import { schemeLabels, type SchemeLabel, type SchemeName } from '../labels';
import {
  aggregateUsage,
  clusterBootstrapCI,
  clustersBy,
  classificationReport,
  confusionMatrix,
  latencySummary,
  paperRoundedReport,
  weightedF1,
  type BootstrapOptions,
  type LabelPair,
} from '../metrics';
import { accuracyCI, macroF1CI, repeatMetrics } from '../metrics';
import { LIMIT_REACHED_LABEL } from './claim-rows';
import { datasetScheme } from './dataset-scheme';
import { debateOutcomes } from './debate-outcomes';
import { paperHeadline } from './paper-headline';
import type { ClaimRow, GroupKey, GroupReport } from './report-types';
import type { RunProtocol } from '../runs/run-manifest';

/**
 * Every claim with a gold label is scored, as the papers score every claim: a failed verification
 * (or one ended by a limit) has no prediction and lands in the invalid/failed bucket, a wrong answer.
 * Only a row the run's protocol excludes (FIRE's unanswered claims under `protocol: paper`) is left out.
 */
function scoredPairs(rows: readonly ClaimRow[]): (LabelPair<SchemeLabel> & { claimId: string })[] {
  return rows.flatMap((row) => (row.gold !== null && !row.excluded ? [{ claimId: row.claimId, gold: row.gold, predicted: row.status === 'verdict' ? row.predicted : null }] : []));
}

function answerHandlingOf(verdicts: readonly ClaimRow[]): GroupReport['answers'] {
  const total = (field: 'invalidAnswers' | 'formatFallbacks' | 'trimmedPrompts' | 'reasoningTokens') => verdicts.reduce((sum, row) => sum + (row[field] ?? 0), 0);
  const reasoningTokens = total('reasoningTokens');
  const offVocabulary = verdicts.filter((row) => row.offVocabularyAnswer === true).length;
  return { invalid: total('invalidAnswers'), ...(offVocabulary > 0 ? { offVocabulary } : {}), formatFallbacks: total('formatFallbacks'), trimmedPrompts: total('trimmedPrompts'), ...(reasoningTokens > 0 ? { reasoningTokens } : {}) };
}

function failuresOf(rows: readonly ClaimRow[]): GroupReport['failures'] {
  return rows.flatMap((row) => (row.status !== 'verdict' ? [{ claimId: row.claimId, outcome: row.status === 'limit-reached' ? LIMIT_REACHED_LABEL : 'failed', reason: row.failureReason ?? '' }] : []));
}

/** Metrics across repeats, when the group's verifications come from more than one repeat. */
function repeatsOf(rows: readonly ClaimRow[], labels: readonly SchemeLabel[]): GroupReport['repeats'] {
  if (!rows.some((row) => row.repeat > 0)) return null;
  const trials = rows.flatMap((row) => (row.gold !== null ? [{ claimId: row.claimId, repeat: row.repeat, gold: row.gold, predicted: row.status === 'verdict' ? row.predicted : null }] : []));
  return repeatMetrics(trials, labels);
}

/**
 * Metrics of one dataset × method × model on `scheme` (the run's protocol scheme, see runDatasetScheme):
 * failed verifications are counted as wrong (never left out) and listed.
 */
export function buildGroupReport(
  key: GroupKey,
  rows: readonly ClaimRow[],
  bootstrap: BootstrapOptions = {},
  scheme: SchemeName = datasetScheme(key.dataset),
  protocol: RunProtocol = 'verity',
): GroupReport {
  const labels = schemeLabels(scheme);
  const verdicts = rows.filter((row) => row.status === 'verdict');
  const pairs = scoredPairs(rows);
  // A claim with its repeats is one cluster: intervals resample claims, never single repeats.
  const clusters = clustersBy(pairs, (pair) => pair.claimId);
  const excluded = verdicts.filter((row) => row.excluded).length;
  const scoredVerdicts = verdicts.filter((row) => row.gold !== null).length - excluded;
  const confusion = confusionMatrix(pairs, labels);
  const classification = classificationReport(confusion);
  const usage = aggregateUsage(verdicts);
  const repeats = repeatsOf(rows, labels);
  return {
    key,
    scheme,
    counts: {
      claims: rows.length,
      distinctClaims: new Set(rows.map((row) => row.claimId)).size,
      repeats: new Set(rows.map((row) => row.repeat)).size,
      verdicts: verdicts.length,
      failed: rows.length - verdicts.length,
      scored: pairs.length,
      unscored: verdicts.length - scoredVerdicts - excluded,
      // The matrix's invalid/failed bucket holds both; this count is the verdicts' share.
      invalid: classification.invalid - (pairs.length - scoredVerdicts),
      excluded,
    },
    accuracy: accuracyCI(pairs, labels, bootstrap, clusters),
    macroF1: macroF1CI(pairs, labels, bootstrap, clusters),
    weightedF1: clusterBootstrapCI(clusters, (sample) => weightedF1(confusionMatrix(sample, labels)), bootstrap),
    perClass: classification.perClass,
    paper: protocol === 'paper' ? { ...paperRoundedReport(confusion), headline: paperHeadline(key.method, confusion, repeats) } : null,
    confusion,
    usage,
    cachedLlmCallsPerClaim: verdicts.reduce((sum, row) => sum + row.cachedLlmCalls, 0) / Math.max(verdicts.length, 1),
    latencyMs: latencySummary(verdicts.map((row) => row.durationMs)),
    failures: failuresOf(rows),
    answers: answerHandlingOf(verdicts),
    promptVersions: [...new Set(verdicts.map((row) => row.promptVersion).filter((v) => v !== ''))].sort(),
    debates: debateOutcomes(verdicts),
    repeats,
  };
}
