import { pairedAccuracy, clusterCorrect, type BootstrapOptions, type ConfidenceInterval, type McNemarTest, type PairedCluster } from '../metrics';
import type { ClaimRow } from './report-types';

/** One side of a paired comparison: a method × model of a run. */
export interface ComparedSide {
  runId: string;
  method: string;
  model: string;
}

/** How one side answered a claim, over its repeats (one entry per verification). */
export interface SideAnswer {
  /** The raw label of each verdict, or `failed`. */
  predicted: string[];
  correct: boolean[];
  /** The verifications' workflow ids (their transcripts), where recorded. */
  workflowIds: string[];
}

/** A claim both sides scored and answered differently: another label, or right on one side only. */
export interface Disagreement {
  claimId: string;
  gold: string | null;
  a: SideAnswer;
  b: SideAnswer;
  /** Right on exactly one side (more than half of its repeats): one of McNemar's discordant pairs. */
  discordant: boolean;
}

export type ComparedFactor = 'method' | 'model' | 'run';

export interface PairedComparison {
  dataset: string;
  /** What differs between the two sides (everything else is the same). */
  varies: ComparedFactor;
  /** The baseline side. */
  a: ComparedSide;
  b: ComparedSide;
  /** Claims scored by both sides: the paired sample (n, the unit the bootstrap resamples). */
  claims: number;
  /** k: the most repeats any paired claim has (1 without repeats); shown apart from n. */
  repeats: number;
  /** Claims scored by one side only (left out of the comparison). */
  onlyInA: number;
  onlyInB: number;
  /** Accuracies over the paired claims (repeats pooled); null without a paired claim. */
  accuracyA: number | null;
  accuracyB: number | null;
  /** accuracy(B) − accuracy(A) with its paired bootstrap interval (claims resampled with their repeats). */
  difference: ConfidenceInterval | null;
  /** McNemar's exact test on the claims right on one side only. */
  mcnemar: McNemarTest | null;
  /** Claims answered differently; discordant ones first. */
  disagreements: Disagreement[];
  /** Why the comparison is partial or missing (samples differ). */
  note: string | null;
}

export interface RunComparisons {
  runId: string;
  /** The side every comparison is made against, if one was asked for. */
  baseline: { kind: ComparedFactor; value: string } | null;
  /** Whether a claim has more than one verification per side (repeats: each claim is one cluster). */
  repeats: boolean;
  comparisons: PairedComparison[];
  /** Datasets or pairs with nothing to compare, one sentence each. */
  notes: string[];
}

export interface ComparisonOptions {
  /** Compare every other method (or model) with this one only. */
  baseline?: { kind: 'method' | 'model'; value: string };
  bootstrap?: BootstrapOptions;
}

export const COMPARISON_NOTE =
  'Paired over the claims both sides scored (a failed verification is a wrong answer): Δ = accuracy of B − accuracy of A, with a 95% paired bootstrap interval ' +
  '(claims resampled, each with its repeats); p: McNemar\'s exact test on the claims only one side got right (with repeats: right in more than half of them).';

/** The scored rows of one side, by claim (repeats together). */
function byClaim(rows: readonly ClaimRow[]): Map<string, ClaimRow[]> {
  const claims = new Map<string, ClaimRow[]>();
  for (const row of rows) {
    if (row.correct === null) continue;
    const own = claims.get(row.claimId);
    if (own) own.push(row);
    else claims.set(row.claimId, [row]);
  }
  for (const own of claims.values()) own.sort((x, y) => x.repeat - y.repeat);
  return claims;
}

function answerOf(rows: readonly ClaimRow[]): SideAnswer {
  return {
    predicted: rows.map((row) => (row.status === 'verdict' ? (row.predictedRaw ?? '') : row.status)),
    correct: rows.map((row) => row.correct === true),
    workflowIds: rows.flatMap((row) => (row.workflowId ? [row.workflowId] : [])),
  };
}

function sameAnswers(a: SideAnswer, b: SideAnswer): boolean {
  return a.predicted.length === b.predicted.length && a.predicted.every((label, i) => label === b.predicted[i]) && a.correct.every((right, i) => right === b.correct[i]);
}

function sideName(side: ComparedSide, varies: ComparedFactor): string {
  return varies === 'method' ? side.method : varies === 'model' ? side.model : `run ${side.runId}`;
}

/** The paired comparison of two sides of one dataset, from their claim rows. */
export function comparePair(
  dataset: string,
  varies: ComparedFactor,
  sides: { a: ComparedSide; rowsA: readonly ClaimRow[]; b: ComparedSide; rowsB: readonly ClaimRow[] },
  bootstrap: BootstrapOptions = {},
): PairedComparison {
  const claimsA = byClaim(sides.rowsA);
  const claimsB = byClaim(sides.rowsB);
  const paired = [...claimsA.keys()].filter((claimId) => claimsB.has(claimId)).sort();
  const onlyInA = claimsA.size - paired.length;
  const onlyInB = claimsB.size - paired.length;
  const clusters: PairedCluster[] = [];
  const disagreements: Disagreement[] = [];
  for (const claimId of paired) {
    const a = answerOf(claimsA.get(claimId)!);
    const b = answerOf(claimsB.get(claimId)!);
    clusters.push({ a: a.correct, b: b.correct });
    if (sameAnswers(a, b)) continue;
    const discordant = clusterCorrect(a.correct) !== clusterCorrect(b.correct);
    disagreements.push({ claimId, gold: claimsA.get(claimId)![0]!.gold ?? claimsB.get(claimId)![0]!.gold, a, b, discordant });
  }
  disagreements.sort((x, y) => Number(y.discordant) - Number(x.discordant));
  const [nameA, nameB] = [sideName(sides.a, varies), sideName(sides.b, varies)];
  const note =
    paired.length === 0
      ? `${nameA} and ${nameB} scored no claim in common (${claimsA.size} vs ${claimsB.size} scored claims): the samples differ, so there is no paired comparison`
      : onlyInA + onlyInB > 0
        ? `paired over the ${paired.length} claims both scored; ${onlyInA} scored only by ${nameA} and ${onlyInB} only by ${nameB} are left out`
        : null;
  const result = paired.length > 0 ? pairedAccuracy(clusters, bootstrap) : null;
  return {
    dataset,
    varies,
    a: sides.a,
    b: sides.b,
    claims: paired.length,
    repeats: clusters.reduce((most, cluster) => Math.max(most, cluster.a.length, cluster.b.length), paired.length > 0 ? 1 : 0),
    onlyInA,
    onlyInB,
    accuracyA: result?.accuracyA ?? null,
    accuracyB: result?.accuracyB ?? null,
    difference: result?.difference ?? null,
    mcnemar: result?.mcnemar ?? null,
    disagreements,
    note,
  };
}

/** Rows of the run's datasets (never their strata, which are subsets of the same claims), by dataset and side. */
function rowsBySide(rows: readonly ClaimRow[]): Map<string, Map<string, ClaimRow[]>> {
  const datasets = new Map<string, Map<string, ClaimRow[]>>();
  for (const row of rows) {
    const sides = datasets.get(row.dataset) ?? new Map<string, ClaimRow[]>();
    const key = sideKey(row.method, row.model);
    const own = sides.get(key);
    if (own) own.push(row);
    else sides.set(key, [row]);
    datasets.set(row.dataset, sides);
  }
  return datasets;
}

const sideKey = (method: string, model: string): string => `${method}\u0000${model}`;

/** Ordered pairs (baseline first) of `values`: all of them, or the baseline against each other value. */
function pairsOf(values: readonly string[], baseline: string | undefined): [string, string][] {
  if (baseline !== undefined) return values.filter((value) => value !== baseline).map((value) => [baseline, value]);
  return values.flatMap((first, i) => values.slice(i + 1).map((second): [string, string] => [first, second]));
}

function hasRepeats(rows: readonly ClaimRow[]): boolean {
  return rows.some((row) => row.repeat > 0);
}

/**
 * Every pair of methods (same model) and every pair of models (same method) of a run, per dataset,
 * compared on the claims both scored; with a baseline, only that method (or model) against the others.
 * Methods and models keep the order of the run's configuration.
 */
export function pairedComparisons(
  report: { runId: string; manifest: { config: { methods: string[]; models: string[] } }; claims: readonly ClaimRow[] },
  options: ComparisonOptions = {},
): RunComparisons {
  const { methods, models } = report.manifest.config;
  const comparisons: PairedComparison[] = [];
  const notes: string[] = [];
  const datasets = rowsBySide(report.claims);
  for (const [dataset, sides] of [...datasets.entries()].sort(([x], [y]) => x.localeCompare(y))) {
    const side = (method: string, model: string) => ({ side: { runId: report.runId, method, model }, rows: sides.get(sideKey(method, model)) });
    const compare = (varies: ComparedFactor, a: ReturnType<typeof side>, b: ReturnType<typeof side>) => {
      if (a.rows && b.rows) comparisons.push(comparePair(dataset, varies, { a: a.side, rowsA: a.rows, b: b.side, rowsB: b.rows }, options.bootstrap));
    };
    const before = comparisons.length;
    if (options.baseline?.kind !== 'model') {
      for (const model of models) for (const [x, y] of pairsOf(methods, options.baseline?.value)) compare('method', side(x, model), side(y, model));
    }
    if (options.baseline?.kind !== 'method') {
      for (const method of methods) for (const [x, y] of pairsOf(models, options.baseline?.value)) compare('model', side(method, x), side(method, y));
    }
    if (comparisons.length === before) {
      notes.push(
        options.baseline
          ? `${dataset}: no other ${options.baseline.kind} was verified next to ${options.baseline.kind} ${options.baseline.value}`
          : `${dataset}: one method and one model, nothing to compare within the run (compare with another run: --baseline <run>)`,
      );
    }
  }
  return { runId: report.runId, baseline: options.baseline ?? null, repeats: hasRepeats(report.claims), comparisons, notes };
}

/**
 * Each method × model of `report` against the same method × model of a baseline run, paired by claim
 * id; a method × model that only one run has is named in a note.
 */
export function compareWithRun(
  baseline: { runId: string; claims: readonly ClaimRow[] },
  report: { runId: string; claims: readonly ClaimRow[] },
  bootstrap: BootstrapOptions = {},
): RunComparisons {
  const before = rowsBySide(baseline.claims);
  const after = rowsBySide(report.claims);
  const comparisons: PairedComparison[] = [];
  const notes: string[] = [];
  for (const dataset of [...new Set([...before.keys(), ...after.keys()])].sort()) {
    const sidesA = before.get(dataset) ?? new Map<string, ClaimRow[]>();
    const sidesB = after.get(dataset) ?? new Map<string, ClaimRow[]>();
    for (const key of [...new Set([...sidesA.keys(), ...sidesB.keys()])].sort()) {
      const [method, model] = key.split('\u0000') as [string, string];
      const rowsA = sidesA.get(key);
      const rowsB = sidesB.get(key);
      if (!rowsA || !rowsB) {
        notes.push(`${dataset} · ${method} · ${model}: only in run ${rowsA ? baseline.runId : report.runId}, nothing to pair it with`);
        continue;
      }
      comparisons.push(comparePair(dataset, 'run', { a: { runId: baseline.runId, method, model }, rowsA, b: { runId: report.runId, method, model }, rowsB }, bootstrap));
    }
  }
  return {
    runId: report.runId,
    baseline: { kind: 'run', value: baseline.runId },
    repeats: hasRepeats(baseline.claims) || hasRepeats(report.claims),
    comparisons,
    notes,
  };
}
