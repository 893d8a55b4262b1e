/**
 * The distribution of Tool-MAD's answer-relevance scores (one per debater turn), in equal-width
 * buckets over [0, 1] — the Fig. 3-style histogram a pilot run gives, to calibrate the 0.8 gate
 * for another embedding model (src/methods/tool-mad/README.md, "Calibrating the relevance threshold").
 */
import { PAPER_RELEVANCE_PASS_SHARE } from '../../../src/methods/tool-mad/relevance-thresholds';

export interface RelevanceBucket {
  /** Inclusive lower bound. */
  from: number;
  /** Exclusive upper bound (inclusive for the last bucket, so a score of 1 is counted). */
  to: number;
  count: number;
}

export interface RelevanceDistribution {
  scores: number;
  buckets: RelevanceBucket[];
  /** Turns whose score passes the gate (`>` as Algorithm 1) at `threshold`. */
  passing: number;
  threshold: number;
  /** Scores at these quantiles (nearest rank), for picking a threshold. */
  quantiles: Record<string, number>;
}

const QUANTILES = [0.1, 0.25, 0.5, 0.75, 0.9];

export function relevanceDistribution(scores: readonly number[], threshold: number, bucketCount = 10): RelevanceDistribution {
  const buckets: RelevanceBucket[] = Array.from({ length: bucketCount }, (_, i) => ({ from: i / bucketCount, to: (i + 1) / bucketCount, count: 0 }));
  for (const score of scores) {
    const clamped = Math.min(Math.max(score, 0), 1);
    buckets[Math.min(Math.floor(clamped * bucketCount), bucketCount - 1)]!.count += 1;
  }
  const sorted = [...scores].sort((a, b) => a - b);
  const quantiles = Object.fromEntries(
    sorted.length === 0 ? [] : QUANTILES.map((q) => [`p${Math.round(q * 100)}`, sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))]!]),
  );
  return { scores: scores.length, buckets, passing: scores.filter((s) => s > threshold).length, threshold, quantiles };
}

/** Text histogram: one line per bucket with a bar scaled to the largest bucket. */
export function renderRelevanceDistribution(distribution: RelevanceDistribution, width = 40): string {
  const largest = Math.max(1, ...distribution.buckets.map((b) => b.count));
  const share = (n: number) => (distribution.scores === 0 ? '0.0' : ((100 * n) / distribution.scores).toFixed(1));
  const lines = distribution.buckets.map((b) => {
    const bar = '#'.repeat(Math.round((b.count / largest) * width));
    return `    [${b.from.toFixed(1)}, ${b.to.toFixed(1)}${b.to >= 1 ? ']' : ')'} ${String(b.count).padStart(5)} ${share(b.count).padStart(5)}% ${bar}`;
  });
  const quantiles = Object.entries(distribution.quantiles).map(([q, v]) => `${q} ${v.toFixed(3)}`).join(', ');
  const calibrated = distribution.quantiles.p25;
  return [
    `  answer relevance over ${distribution.scores} debater turns: ${distribution.passing} (${share(distribution.passing)}%) pass > ${distribution.threshold}${quantiles ? `; ${quantiles}` : ''}`,
    ...lines,
    ...(calibrated === undefined
      ? []
      : [`    threshold at the paper's place (p25: ${100 * PAPER_RELEVANCE_PASS_SHARE}% of turns pass): ${calibrated.toFixed(3)} — an entry for src/methods/tool-mad/relevance-thresholds.ts`]),
  ].join('\n');
}
