import type { RunFailure, RunRecords, RunVerdict } from '../runs/run-records';
import { goldOnScheme } from './dataset-scheme';
import type { GoldLabels } from './gold-labels';
import { claimKeyId } from './group-key';
import type { ClaimRow } from './report-types';
import { LIMIT_REACHED_TYPE } from '../shared/verification-limits';
import { EMPTY_USAGE } from '../shared/verify';
import type { RunProtocol } from '../runs/run-manifest';
import { noAnswerScoring } from './unanswered-claims';

/** The report's own label for a verification ended by a per-verification limit. */
export const LIMIT_REACHED_LABEL = 'LIMIT_REACHED';
import { parsePredictedLabel, predictedSchemeLabel, type SchemeLabel, type SchemeName } from '../labels';
import { groupSchemes } from './answer-scheme';
import type { GroupKey } from './report-types';

const UNKNOWN_DATASET = 'unknown';

/** The dataset of a verdict that does not name one: from the run's stored claims, or the run's only dataset. */
function datasetResolver(records: Pick<RunRecords, 'manifest' | 'claims'>): (claimId: string, dataset?: string) => string {
  const byClaim = new Map(records.claims.map((claim) => [claim.claimId, claim.dataset]));
  const datasets = records.manifest.config.datasets;
  const only = datasets.length === 1 ? datasets[0]?.name : undefined;
  return (claimId, dataset) => dataset ?? byClaim.get(claimId) ?? only ?? UNKNOWN_DATASET;
}

/** The dataset of each verdict (see datasetResolver). */
export function verdictDatasetResolver(records: Pick<RunRecords, 'manifest' | 'claims'>): (verdict: Pick<RunVerdict, 'claimId' | 'dataset'>) => string {
  const datasetOf = datasetResolver(records);
  return (verdict) => datasetOf(verdict.claimId, verdict.dataset);
}

function rawGold(gold: GoldLabels, claimId: string): string | null {
  const raw = gold.get(claimId);
  return raw === undefined ? null : String(raw);
}

/**
 * The verdict's label on the scheme. A verdict's label has three values, so Tool-MAD's four-label
 * AVeriTeC answer "CONFLICTING EVIDENCE/CHERRYPICKING" is NEI there; its method label keeps the class
 * the four-way scheme scores (issue 37 §2.3: otherwise Conflicting gold could never be right).
 */
function predictedOnScheme(verdict: RunVerdict, scheme: SchemeName): SchemeLabel | null {
  if (scheme === 'four-way' && verdict.methodLabel !== undefined && parsePredictedLabel(verdict.methodLabel) === 'CONFLICTING') return 'CONFLICTING';
  return predictedSchemeLabel(verdict.label, scheme);
}

function verdictRow(verdict: RunVerdict, dataset: string, scheme: SchemeName, gold: GoldLabels, protocol: RunProtocol): ClaimRow {
  const goldRaw = rawGold(gold, verdict.claimId);
  const goldLabel = goldOnScheme(dataset, goldRaw, scheme);
  const scoring = noAnswerScoring(verdict, protocol);
  const predicted = scoring === 'answer' ? predictedOnScheme(verdict, scheme) : null;
  const excluded = goldLabel !== null && scoring === 'excluded';
  return {
    dataset,
    method: verdict.method,
    model: verdict.model,
    claimId: verdict.claimId,
    workflowId: verdict.workflowId,
    repeat: verdict.sampling?.repeat ?? 0,
    status: 'verdict',
    goldRaw,
    gold: goldLabel,
    predictedRaw: verdict.label,
    predicted,
    correct: goldLabel === null || excluded ? null : predicted === goldLabel,
    excluded,
    ...verdict.usage,
    durationMs: verdict.durationMs,
    promptVersion: verdict.promptVersion,
    failureReason: null,
    decidedBy: verdict.trace?.decidedBy ?? null,
    ...(verdict.method === 'mermaid' && verdict.trace?.answerClass === 'invalid' ? { offVocabularyAnswer: true } : {}),
  };
}

function failureRow(failure: RunFailure, key: { method: string; model: string }, scheme: SchemeName, gold: GoldLabels): ClaimRow {
  const goldRaw = rawGold(gold, failure.claimId);
  const goldLabel = goldOnScheme(failure.dataset, goldRaw, scheme);
  const limited = failure.type === LIMIT_REACHED_TYPE;
  return {
    dataset: failure.dataset,
    method: key.method,
    model: key.model,
    claimId: failure.claimId,
    // A failure that names no method or model stands for several verifications: no one workflow.
    workflowId: failure.method && failure.model ? (failure.workflowId ?? null) : null,
    repeat: failure.repeat ?? 0,
    status: limited ? 'limit-reached' : 'failed',
    goldRaw,
    gold: goldLabel,
    predictedRaw: limited ? LIMIT_REACHED_LABEL : null,
    predicted: null,
    // No answer is a wrong answer, as the papers score every claim.
    correct: goldLabel === null ? null : false,
    excluded: false,
    ...EMPTY_USAGE,
    totalTokens: failure.tokens ?? 0,
    costUsd: failure.costUsd ?? 0,
    durationMs: 0,
    promptVersion: '',
    failureReason: failure.reason,
    decidedBy: null,
  };
}

/**
 * A failure that does not name its method or model applies to every (method, model) of the run
 * that has no verdict for the claim.
 */
function failureRows(failure: RunFailure, records: RunRecords, verdictIds: Set<string>, gold: GoldLabels, schemeOf: (key: GroupKey) => SchemeName): ClaimRow[] {
  const { methods, models } = records.manifest.config;
  const keys = (failure.method ? [failure.method] : methods).flatMap((method) =>
    (failure.model ? [failure.model] : models).map((model) => ({ method, model })),
  );
  return keys
    .filter((key) => !verdictIds.has(claimKeyId({ dataset: failure.dataset, ...key, claimId: failure.claimId, repeat: failure.repeat ?? 0 })))
    .map((key) => failureRow(failure, key, schemeOf({ dataset: failure.dataset, ...key }), gold));
}

/** The stratum of a claim of a stratified dataset (its value of the dataset's `stratify.field`), from the run's stored claims. */
function stratumResolver(records: Pick<RunRecords, 'manifest' | 'claims'>): (row: ClaimRow) => ClaimRow {
  const fieldOf = new Map(records.manifest.config.datasets.flatMap((dataset) => (dataset.stratify ? [[dataset.name, dataset.stratify.field] as const] : [])));
  if (fieldOf.size === 0) return (row) => row;
  const valueOf = new Map(records.claims.flatMap((claim) => (claim.stratum !== undefined ? [[claim.claimId, claim.stratum] as const] : [])));
  return (row) => {
    const field = fieldOf.get(row.dataset);
    const value = valueOf.get(row.claimId);
    return field !== undefined && value !== undefined ? { ...row, stratum: { field, value } } : row;
  };
}

/** One row per verification of the run: verdicts joined with gold labels, plus failed verifications. */
export function buildClaimRows(records: RunRecords, gold: GoldLabels): ClaimRow[] {
  const datasetOf = verdictDatasetResolver(records);
  const schemeOf = groupSchemes(records, datasetOf);
  const protocol = records.manifest.config.protocol ?? 'verity';
  const withStratum = stratumResolver(records);
  const rows = records.verdicts.map((verdict) => {
    const dataset = datasetOf(verdict);
    return verdictRow(verdict, dataset, schemeOf({ dataset, method: verdict.method, model: verdict.model }), gold, protocol);
  });
  const verdictIds = new Set(rows.map(claimKeyId));
  return [...rows, ...records.failures.flatMap((failure) => failureRows(failure, records, verdictIds, gold, schemeOf))].map(withStratum);
}
