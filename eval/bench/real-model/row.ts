import type { ClaimRow, GroupReport } from '../../../src/report/report-types';
import type { RealModelRow } from './table';

/**
 * One dataset × method row of bench:real-model from the run report: `claims` is the number scored (gold
 * label on the scheme, failures included), `sampled` the number verified; per-claim figures are per
 * verified claim.
 */
export function rowOf(group: GroupReport, claims: readonly ClaimRow[]): RealModelRow {
  const { counts, usage } = group;
  const claimsRun = Math.max(counts.claims, 1);
  const invalidAnswers = claims.reduce((sum, claim) => sum + ((claim as Partial<Record<'invalidAnswers', number>>).invalidAnswers ?? 0), 0);
  return {
    dataset: group.key.dataset,
    method: group.key.method,
    claims: counts.scored,
    sampled: counts.claims,
    scheme: group.scheme,
    accuracy: group.accuracy,
    macroF1: group.macroF1,
    failed: counts.failed,
    invalidLabels: counts.invalid,
    invalidAnswers,
    llmCalls: usage.total.llmCalls,
    toolCallsPerClaim: usage.total.toolCalls / claimsRun,
    claimsWithToolCalls: claims.filter((c) => c.toolCalls > 0).length,
    tokensPerClaim: usage.total.totalTokens / claimsRun,
    secondsPerClaim: group.latencyMs.mean / 1000,
  };
}

