import { bootstrapCI, type BootstrapOptions, type ConfidenceInterval } from './bootstrap';

/**
 * One claim scored by both sides of a paired comparison: whether each verification of it was
 * correct, per side (one entry per repeat; a failed verification is a wrong one). A claim with its
 * repeats is one cluster: the paired bootstrap resamples claims, never single repeats.
 */
export interface PairedCluster {
  a: readonly boolean[];
  b: readonly boolean[];
}

export interface McNemarTest {
  /** Claims only side A got right (b of the 2×2 table). */
  onlyA: number;
  /** Claims only side B got right (c of the 2×2 table). */
  onlyB: number;
  /** Two-sided exact p: 2 · P(X ≤ min(b, c)) for X ~ Binomial(b + c, ½), capped at 1; 1 without discordant pairs. */
  pValue: number;
}

/**
 * McNemar's exact test on the discordant pairs (b: only A right, c: only B right): the two-sided
 * exact binomial test of b against Binomial(b + c, ½). Summed in log space, so thousands of
 * discordant pairs neither overflow nor underflow.
 */
export function mcnemarExact(onlyA: number, onlyB: number): McNemarTest {
  for (const count of [onlyA, onlyB]) {
    if (!Number.isInteger(count) || count < 0) throw new RangeError(`McNemar's test takes counts of discordant pairs, not ${count}`);
  }
  const n = onlyA + onlyB;
  const k = Math.min(onlyA, onlyB);
  if (n === 0) return { onlyA, onlyB, pValue: 1 };
  // log C(n, i) · 2^−n for i = 0 … k, then a log-sum-exp.
  const logTerms: number[] = [];
  let logTerm = -n * Math.LN2;
  for (let i = 0; i <= k; i += 1) {
    logTerms.push(logTerm);
    logTerm += Math.log(n - i) - Math.log(i + 1);
  }
  const top = Math.max(...logTerms);
  const tail = Math.exp(top) * logTerms.reduce((sum, term) => sum + Math.exp(term - top), 0);
  return { onlyA, onlyB, pValue: Math.min(1, 2 * tail) };
}

const share = (values: readonly boolean[]): number => values.filter(Boolean).length;

/** Accuracy of one side over a sample of clusters: correct verifications / verifications (repeats pooled). */
export function clusterAccuracy(clusters: readonly PairedCluster[], side: 'a' | 'b'): number {
  let correct = 0;
  let total = 0;
  for (const cluster of clusters) {
    correct += share(cluster[side]);
    total += cluster[side].length;
  }
  return total === 0 ? Number.NaN : correct / total;
}

/** Accuracy of B minus accuracy of A over a sample of clusters. */
export function accuracyDifference(clusters: readonly PairedCluster[]): number {
  return clusterAccuracy(clusters, 'b') - clusterAccuracy(clusters, 'a');
}

/**
 * Paired bootstrap interval of accuracy(B) − accuracy(A): claims (with their repeats) are resampled
 * with replacement and both sides are scored on the same resample, so the claims' shared difficulty
 * cancels out. Seeded (the same RNG and percentile method as bootstrapCI), so reproducible.
 */
export function pairedBootstrapDifference(clusters: readonly PairedCluster[], options: BootstrapOptions = {}): ConfidenceInterval {
  return bootstrapCI(clusters, accuracyDifference, options);
}

/**
 * The claim's outcome in McNemar's table: right in more than half of its verifications (with one
 * verification: right). With repeats, one outcome per claim keeps the pairs independent.
 */
export function clusterCorrect(outcomes: readonly boolean[]): boolean {
  return share(outcomes) * 2 > outcomes.length;
}

export interface PairedAccuracy {
  /** Claims scored by both sides. */
  claims: number;
  accuracyA: number;
  accuracyB: number;
  /** accuracy(B) − accuracy(A) with its paired bootstrap interval. */
  difference: ConfidenceInterval;
  mcnemar: McNemarTest;
}

/** The whole paired comparison of two sides over the claims both scored. */
export function pairedAccuracy(clusters: readonly PairedCluster[], options: BootstrapOptions = {}): PairedAccuracy {
  let onlyA = 0;
  let onlyB = 0;
  for (const cluster of clusters) {
    const a = clusterCorrect(cluster.a);
    const b = clusterCorrect(cluster.b);
    if (a && !b) onlyA += 1;
    if (b && !a) onlyB += 1;
  }
  return {
    claims: clusters.length,
    accuracyA: clusterAccuracy(clusters, 'a'),
    accuracyB: clusterAccuracy(clusters, 'b'),
    difference: pairedBootstrapDifference(clusters, options),
    mcnemar: mcnemarExact(onlyA, onlyB),
  };
}
