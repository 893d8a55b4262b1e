import { csvCell } from '../../shared/csv-cell';
import type { GroupReport, RunReport } from '../report-types';

type CsvValue = string | number | boolean | null;

export function toCsv(header: readonly string[], rows: readonly CsvValue[][]): string {
  return [header, ...rows].map((row) => row.map(csvCell).join(',')).join('\n') + '\n';
}

const CLAIM_COLUMNS = [
  'dataset', 'method', 'model', 'claimId', 'status', 'goldRaw', 'gold', 'predictedRaw', 'predicted', 'correct', 'excluded',
  'llmCalls', 'cachedLlmCalls', 'toolCalls', 'promptTokens', 'completionTokens', 'totalTokens', 'costUsd', 'durationMs',
  'promptVersion', 'failureReason', 'decidedBy',
] as const;

/** claims.csv: one row per verification (the last columns: its stratum's value, if its dataset is stratified, and its repeat). */
export function renderClaimsCsv(report: RunReport): string {
  return toCsv([...CLAIM_COLUMNS, 'stratum', 'repeat'], report.claims.map((row) => [...CLAIM_COLUMNS.map((column) => row[column]), row.stratum?.value ?? null, row.repeat]));
}

const GROUP_COLUMNS: [string, (g: GroupReport) => CsvValue][] = [
  ['dataset', (g) => g.key.dataset],
  ['method', (g) => g.key.method],
  ['model', (g) => g.key.model],
  ['scheme', (g) => g.scheme],
  ['claims', (g) => g.counts.claims],
  ['distinctClaims', (g) => g.counts.distinctClaims],
  ['repeats', (g) => g.counts.repeats],
  ['verdicts', (g) => g.counts.verdicts],
  ['failed', (g) => g.counts.failed],
  ['scored', (g) => g.counts.scored],
  ['unscored', (g) => g.counts.unscored],
  ['invalid', (g) => g.counts.invalid],
  ['excluded', (g) => g.counts.excluded],
  ['accuracy', (g) => g.accuracy.estimate],
  ['accuracyLower', (g) => g.accuracy.lower],
  ['accuracyUpper', (g) => g.accuracy.upper],
  ['macroF1', (g) => g.macroF1.estimate],
  ['macroF1Lower', (g) => g.macroF1.lower],
  ['macroF1Upper', (g) => g.macroF1.upper],
  ['weightedF1', (g) => g.weightedF1.estimate],
  ['weightedF1Lower', (g) => g.weightedF1.lower],
  ['weightedF1Upper', (g) => g.weightedF1.upper],
  ['paperMacroF1', (g) => g.paper?.macroF1 ?? null],
  ['paperWeightedF1', (g) => g.paper?.weightedF1 ?? null],
  ['llmCallsPerClaim', (g) => g.usage.mean.llmCalls],
  ['cachedLlmCallsPerClaim', (g) => g.cachedLlmCallsPerClaim],
  ['toolCallsPerClaim', (g) => g.usage.mean.toolCalls],
  ['tokensPerClaim', (g) => g.usage.mean.totalTokens],
  ['costPerClaimUsd', (g) => g.usage.mean.costUsd],
  ['totalCostUsd', (g) => g.usage.total.costUsd],
  ['latencyP50Ms', (g) => g.latencyMs.p50],
  ['latencyP90Ms', (g) => g.latencyMs.p90],
  ['latencyP99Ms', (g) => g.latencyMs.p99],
  ['debatesByConsensus', (g) => g.debates?.consensus ?? null],
  ['debatesByJudge', (g) => g.debates?.judge ?? null],
  // A stratum group (e.g. num_hops=2) repeats its dataset's key: this column tells it apart.
  ['stratum', (g) => (g.key.stratum ? `${g.key.stratum.field}=${g.key.stratum.value}` : null)],
  // Across repeats (empty with one repeat): mean, sd and 95% t-interval per repeat, majority vote, pass^k.
  ['repeats', (g) => g.repeats?.k ?? null],
  ['accuracyRepeatMean', (g) => g.repeats?.accuracy.mean ?? null],
  ['accuracyRepeatSd', (g) => g.repeats?.accuracy.sd ?? null],
  ['accuracyRepeatLower', (g) => g.repeats?.accuracy.lower ?? null],
  ['accuracyRepeatUpper', (g) => g.repeats?.accuracy.upper ?? null],
  ['macroF1RepeatMean', (g) => g.repeats?.macroF1.mean ?? null],
  ['macroF1RepeatSd', (g) => g.repeats?.macroF1.sd ?? null],
  ['macroF1RepeatLower', (g) => g.repeats?.macroF1.lower ?? null],
  ['macroF1RepeatUpper', (g) => g.repeats?.macroF1.upper ?? null],
  ['majorityVoteAccuracy', (g) => g.repeats?.majorityVoteAccuracy ?? null],
  ['passHatK', (g) => g.repeats?.passHatK ?? null],
];

/** groups.csv: one row of metrics per dataset × method × model. */
export function renderGroupsCsv(report: RunReport): string {
  return toCsv(GROUP_COLUMNS.map(([name]) => name), report.groups.map((g) => GROUP_COLUMNS.map(([, value]) => value(g))));
}
