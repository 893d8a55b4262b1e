import type { DocumentGroupReport } from './document-groups';
import type { PaperHeadline } from './paper-headline';
import type { RunComparisons } from './paired-comparisons';
import type { RunManifest, RunProtocol } from '../runs/run-manifest';
import type { VerdictUsage } from '../shared/verify';
import type { SchemeLabel, SchemeName } from '../labels';
import type { ClassMetrics, ConfidenceInterval, ConfusionMatrix, LatencySummary, PaperReport, RepeatMetrics, UsageAggregate } from '../metrics';

export const SIMULATOR_BANNER = 'Simulator run: these numbers exercise the pipeline; they are not any method\'s accuracy.';

export interface GroupKey {
  dataset: string;
  method: string;
  model: string;
  /** A group of one value of a stratified dataset's field (e.g. HoVer's num_hops=2), reported after its dataset's group. */
  stratum?: GroupStratum;
}

export interface GroupStratum {
  field: string;
  value: string;
}

/** One verification of a run, joined with its gold label: the unit of the per-claim CSV and of `diff`. */
export interface ClaimRow extends GroupKey, VerdictUsage {
  claimId: string;
  /** The verification's workflow id (its transcript in the explorer and the Temporal UI); null for a failure recorded without one. */
  workflowId: string | null;
  /** The repeat of a sweep with `repeats` (0 for the first, and without repeats). */
  repeat: number;
  /** `limit-reached`: ended by a per-verification limit (tokens, cost, wall time), with its spend. */
  status: 'verdict' | 'failed' | 'limit-reached';
  /** The gold label as written in the dataset; null when no gold label was found. */
  goldRaw: string | null;
  /** Gold on the dataset's scheme; null when the claim is not scored (no gold, or e.g. NEI on a binary scheme). */
  gold: SchemeLabel | null;
  predictedRaw: string | null;
  /** Prediction on the scheme; null when it does not parse or the verification failed (the invalid/failed bucket). */
  predicted: SchemeLabel | null;
  /** null when the claim is not scored (no gold label, or excluded); false for a failed verification with one. */
  correct: boolean | null;
  /** Left out of the metrics by the run's protocol (FIRE's unanswered claims under `protocol: paper`). */
  excluded: boolean;
  durationMs: number;
  promptVersion: string;
  failureReason: string | null;
  /** MERMAID: the answer was none of the label set's labels or their aliases (scored as its negative label). */
  offVocabularyAnswer?: boolean;
  /** Tool-MAD: whether a gated consensus or the judge decided the debate; null for other methods and failures. */
  decidedBy: 'consensus' | 'judge' | null;
}

export interface GroupCounts {
  /** Verifications of the group: verdicts plus failures (distinctClaims × repeats when every repeat ran). */
  claims: number;
  /** n: distinct claims, the unit the bootstrap intervals resample. */
  distinctClaims: number;
  /** k: repeats of the sweep the group's verifications come from (1 without repeats). */
  repeats: number;
  verdicts: number;
  failed: number;
  /**
   * Claims with a gold label on the scheme (the metrics' denominator): verdicts and failed
   * verifications alike, a failure counted as a wrong answer (the invalid/failed column).
   */
  scored: number;
  /** Verdicts without a usable gold label. */
  unscored: number;
  /** Scored verdicts whose label does not parse onto the scheme. */
  invalid: number;
  /** Verdicts with a gold label that the protocol leaves out of the metrics (FIRE's unanswered claims under `protocol: paper`). */
  excluded: number;
}

export interface GroupReport {
  key: GroupKey;
  scheme: SchemeName;
  counts: GroupCounts;
  accuracy: ConfidenceInterval;
  macroF1: ConfidenceInterval;
  weightedF1: ConfidenceInterval;
  perClass: ClassMetrics[];
  /** `protocol: paper`: class P/R/F1 and macro/weighted F1 rounded as the papers did (paperRoundedReport); null otherwise. */
  paper: (PaperReport & { headline: PaperHeadline }) | null;
  confusion: ConfusionMatrix<SchemeLabel>;
  /** Over verdicts (failed verifications record no usage). */
  usage: UsageAggregate;
  cachedLlmCallsPerClaim: number;
  latencyMs: LatencySummary;
  /** Verifications without a verdict; `outcome` is LIMIT_REACHED or `failed`. */
  failures: { claimId: string; outcome: string; reason: string }[];
  /** How the model's answers had to be handled, over verdicts (see VerdictUsage). */
  answers: { invalid: number; /** MERMAID answers off its label vocabulary. */ offVocabulary?: number; formatFallbacks: number; trimmedPrompts: number; /** Of the completion tokens, reasoning (billed as output); only when a server reported some. */ reasoningTokens?: number };
  promptVersions: string[];
  /** Debates (Tool-MAD) decided by a gated consensus vs by the judge; null when no verdict records one. */
  debates: DebateOutcomes | null;
  /** Across the repeats of a sweep with `repeats` (the metrics above pool them); null with one repeat. */
  repeats: RepeatMetrics | null;
}

export interface DebateOutcomes {
  consensus: number;
  judge: number;
  /** judge / (consensus + judge). */
  judgeShare: number;
}

export interface RunReport {
  schemaVersion: 1;
  runId: string;
  generatedAt: string;
  simulator: boolean;
  /** SIMULATOR_BANNER for simulator runs. */
  banner: string | null;
  manifest: RunManifest;
  /** The manifest's protocol (`verity` when the config names none). */
  protocol: RunProtocol;
  /** How each metric is computed and rounded under that protocol, one sentence each. */
  conventions: MetricConvention[];
  groups: GroupReport[];
  claims: ClaimRow[];
  /** Every pair of methods (same model) and of models (same method) compared on the claims both scored. */
  comparisons: RunComparisons;
  /** A sweep with `check`: each (dataset, method, model)'s document scores (its `groups` score the documents' labels). */
  documents?: DocumentGroupReport[];
  /** Human reviews of the run (`verity view`), when any: metrics again with disputed gold labels set aside. */
  reviewed?: ReviewedMetrics;
  warnings: string[];
}

/** The run's metrics again without the claims whose gold label a reviewer disputed. */
export interface ReviewedMetrics {
  reviews: number;
  reviewers: string[];
  /** Verdicts reviewers marked right or wrong (each reviewer's latest mark counts once). */
  verdictMarks: { right: number; wrong: number };
  /** Claims whose gold label at least one reviewer disputed, with each reviewer's reason. */
  disputedClaims: { dataset: string; claimId: string; reasons: { reviewer: string; reason: string }[] }[];
  /** The groups' metrics with those claims set aside (the `groups` above score every gold label). */
  groups: GroupReport[];
}

export interface MetricConvention {
  metric: string;
  convention: string;
}
