import type { RunManifest } from '../../src/runs/run-manifest';
import type { VerdictUsage } from '../../src/shared/verify';
import type { SchemeLabel, SchemeName } from '../labels';
import type { ClassMetrics, ConfidenceInterval, ConfusionMatrix, LatencySummary, UsageAggregate } from '../metrics';

export const SIMULATOR_BANNER = 'Simulator run: these numbers exercise the pipeline; they are not any method\'s accuracy.';

export interface GroupKey {
  dataset: string;
  method: string;
  model: string;
}

/** One verification of a run, joined with its gold label: the unit of the per-claim CSV and of `diff`. */
export interface ClaimRow extends GroupKey, VerdictUsage {
  claimId: string;
  /** `limit-reached`: ended by a per-verification limit (tokens, cost, wall time), with its spend. */
  status: 'verdict' | 'failed' | 'limit-reached';
  /** The gold label as written in the dataset; null when no gold label was found. */
  goldRaw: string | null;
  /** Gold on the dataset's scheme; null when the claim is not scored (no gold, or e.g. NEI on a binary scheme). */
  gold: SchemeLabel | null;
  predictedRaw: string | null;
  /** Prediction on the scheme; null when it does not parse (the invalid bucket) or the verification failed. */
  predicted: SchemeLabel | null;
  /** null when the claim is not scored. */
  correct: boolean | null;
  durationMs: number;
  promptVersion: string;
  failureReason: string | null;
}

export interface GroupCounts {
  /** Verifications of the group: verdicts plus failures. */
  claims: number;
  verdicts: number;
  failed: number;
  /** Verdicts with a gold label on the scheme (the metrics' denominator). */
  scored: number;
  /** Verdicts without a usable gold label. */
  unscored: number;
  /** Scored verdicts whose label does not parse onto the scheme. */
  invalid: number;
}

export interface GroupReport {
  key: GroupKey;
  scheme: SchemeName;
  counts: GroupCounts;
  accuracy: ConfidenceInterval;
  macroF1: ConfidenceInterval;
  weightedF1: ConfidenceInterval;
  perClass: ClassMetrics[];
  confusion: ConfusionMatrix<SchemeLabel>;
  /** Over verdicts (failed verifications record no usage). */
  usage: UsageAggregate;
  cachedLlmCallsPerClaim: number;
  latencyMs: LatencySummary;
  /** Verifications without a verdict; `outcome` is LIMIT_REACHED or `failed`. */
  failures: { claimId: string; outcome: string; reason: string }[];
  promptVersions: string[];
}

export interface RunReport {
  schemaVersion: 1;
  runId: string;
  generatedAt: string;
  simulator: boolean;
  /** SIMULATOR_BANNER for simulator runs. */
  banner: string | null;
  manifest: RunManifest;
  groups: GroupReport[];
  claims: ClaimRow[];
  warnings: string[];
}
