import { describe, expect, it } from 'vitest';
import {
  accuracy,
  accuracyCI,
  aggregateUsage,
  bootstrapCI,
  classificationReport,
  confusionMatrix,
  latencySummary,
  macroF1,
  macroF1CI,
  percentile,
  pythonRound,
  type LabelPair,
} from '../../src/metrics';

const THREE = ['SUPPORTED', 'REFUTED', 'NEI'] as const;
type Three = (typeof THREE)[number];

function pairs(gold: Three[], predicted: (Three | null)[]): LabelPair<Three>[] {
  return gold.map((g, i) => ({ gold: g, predicted: predicted[i] ?? null }));
}

describe('confusion matrix and classification metrics', () => {
  it('perfect predictions score 1.0 everywhere', () => {
    const gold: Three[] = ['SUPPORTED', 'REFUTED', 'NEI', 'SUPPORTED', 'NEI'];
    const report = classificationReport(confusionMatrix(pairs(gold, gold), THREE));
    expect(report.accuracy).toBe(1);
    expect(report.macroF1).toBe(1);
    expect(report.weightedF1).toBe(1);
    expect(report.perClass.every((c) => c.precision === 1 && c.recall === 1)).toBe(true);
  });

  it('macro-F1 of a small example computed by hand', () => {
    // gold S S S R R N; pred S S R R N N
    // S: P=2/2 R=2/3 F1=0.8 · R: P=1/2 R=1/2 F1=0.5 · N: P=1/2 R=1/1 F1=2/3
    const matrix = confusionMatrix(
      pairs(['SUPPORTED', 'SUPPORTED', 'SUPPORTED', 'REFUTED', 'REFUTED', 'NEI'], ['SUPPORTED', 'SUPPORTED', 'REFUTED', 'REFUTED', 'NEI', 'NEI']),
      THREE,
    );
    expect(matrix.counts).toEqual([[2, 1, 0], [0, 1, 1], [0, 0, 1]]);
    expect(accuracy(matrix)).toBeCloseTo(4 / 6, 12);
    expect(macroF1(matrix)).toBeCloseTo((0.8 + 0.5 + 2 / 3) / 3, 12);
    expect(classificationReport(matrix).weightedF1).toBeCloseTo((0.8 * 3 + 0.5 * 2 + (2 / 3) * 1) / 6, 12);
  });

  it('keeps invalid predictions in their own bucket and counts them as errors', () => {
    const matrix = confusionMatrix(pairs(['SUPPORTED', 'REFUTED', 'REFUTED'], ['SUPPORTED', null, 'REFUTED']), THREE);
    expect(matrix.invalid).toEqual([0, 1, 0]);
    const report = classificationReport(matrix);
    expect(report.invalid).toBe(1);
    expect(report.total).toBe(3);
    expect(report.accuracy).toBeCloseTo(2 / 3, 12);
    expect(report.perClass[1]).toMatchObject({ label: 'REFUTED', precision: 1, recall: 0.5, support: 2 });
  });

  it('defines P = R = F1 = 0 for a class never predicted and never gold', () => {
    const report = classificationReport(confusionMatrix(pairs(['SUPPORTED'], ['SUPPORTED']), THREE));
    expect(report.perClass[2]).toMatchObject({ precision: 0, recall: 0, f1: 0, support: 0 });
  });

  it('rejects gold labels outside the label set', () => {
    expect(() => confusionMatrix([{ gold: 'MAYBE', predicted: null }], THREE as readonly string[])).toThrow(/not in the label set/);
  });
});

describe('pythonRound', () => {
  it('rounds the exact double like Python round()', () => {
    expect(pythonRound(0.795, 2)).toBe(0.8); // 0.795 is stored slightly above .795
    expect(pythonRound((0.91 + 0.68) / 2, 2)).toBe(0.8);
    expect(pythonRound(2.675, 2)).toBe(2.67); // stored slightly below
    expect(pythonRound(0.125, 2)).toBe(0.12); // exact tie → even
    expect(pythonRound(0.375, 2)).toBe(0.38);
    expect(pythonRound(2.5, 0)).toBe(2);
    expect(pythonRound(-0.375, 2)).toBe(-0.38);
  });
});

describe('bootstrap confidence intervals', () => {
  const gold: Three[] = Array.from({ length: 120 }, (_, i) => THREE[i % 3] as Three);
  const predicted = gold.map((g, i) => (i % 5 === 0 ? 'REFUTED' : i % 17 === 0 ? null : g));
  const data = pairs(gold, predicted);

  it('contains the point estimate and is reproducible for a seed', () => {
    for (const ci of [accuracyCI(data, THREE, { seed: 7, resamples: 500 }), macroF1CI(data, THREE, { seed: 7, resamples: 500 })]) {
      expect(ci.lower).toBeLessThanOrEqual(ci.estimate);
      expect(ci.upper).toBeGreaterThanOrEqual(ci.estimate);
      expect(ci.upper - ci.lower).toBeGreaterThan(0);
    }
    expect(accuracyCI(data, THREE, { seed: 7, resamples: 300 })).toEqual(accuracyCI(data, THREE, { seed: 7, resamples: 300 }));
    expect(accuracyCI(data, THREE, { seed: 8, resamples: 300 })).not.toEqual(accuracyCI(data, THREE, { seed: 7, resamples: 300 }));
  });

  it('narrows as the confidence level drops, and is degenerate for a constant statistic', () => {
    const wide = accuracyCI(data, THREE, { seed: 1, confidence: 0.95 });
    const narrow = accuracyCI(data, THREE, { seed: 1, confidence: 0.5 });
    expect(narrow.upper - narrow.lower).toBeLessThan(wide.upper - wide.lower);
    expect(bootstrapCI([1, 1, 1], () => 0.5, { resamples: 10 })).toMatchObject({ estimate: 0.5, lower: 0.5, upper: 0.5 });
  });
});

describe('latency percentiles', () => {
  const durations = Array.from({ length: 100 }, (_, i) => i + 1); // 1..100

  it('nearest-rank returns observed values', () => {
    expect(latencySummary(durations)).toEqual({ count: 100, min: 1, mean: 50.5, p50: 50, p90: 90, p95: 95, p99: 99, max: 100 });
    expect(percentile([5, 1, 3], 50)).toBe(3);
    expect(percentile([7], 99)).toBe(7);
  });

  it('linear interpolates between ranks (numpy default)', () => {
    expect(percentile(durations, 50, 'linear')).toBeCloseTo(50.5, 12);
    expect(percentile([10, 20], 90, 'linear')).toBeCloseTo(19, 12);
  });

  it('is NaN for no data', () => {
    expect(Number.isNaN(latencySummary([]).p50)).toBe(true);
  });
});

describe('usage aggregates', () => {
  it('sums and averages per-claim usage', () => {
    const aggregate = aggregateUsage([
      { llmCalls: 3, promptTokens: 100, completionTokens: 20, costUsd: 0.01, toolCalls: 2 },
      { llmCalls: 5, promptTokens: 300, completionTokens: 40, costUsd: 0.03, toolCalls: 0 },
    ]);
    expect(aggregate.claims).toBe(2);
    expect(aggregate.total).toMatchObject({ llmCalls: 8, promptTokens: 400, completionTokens: 60, totalTokens: 460, toolCalls: 2 });
    expect(aggregate.total.costUsd).toBeCloseTo(0.04, 12);
    expect(aggregate.mean).toMatchObject({ llmCalls: 4, totalTokens: 230, toolCalls: 1 });
    expect(aggregateUsage([]).mean.costUsd).toBe(0);
  });
});

describe('macro-F1 on a binary scheme averages both classes, and a bootstrap never drops a class (issue 37 §2.5)', () => {
  const BINARY = ['SUPPORTED', 'REFUTED'] as const;
  it('a binary sample without REFUTED gold or predictions scores 0.5, not 1.0', () => {
    const matrix = confusionMatrix(
      [
        { gold: 'SUPPORTED' as const, predicted: 'SUPPORTED' as const },
        { gold: 'SUPPORTED' as const, predicted: 'SUPPORTED' as const },
      ],
      BINARY,
    );
    expect(macroF1(matrix)).toBe(0.5);
    expect(classificationReport(matrix).macroF1).toBe(0.5);
  });

  it("a bootstrap interval's upper bound stays below 1 when some claims are wrong", () => {
    const data = [
      ...Array.from({ length: 8 }, () => ({ gold: 'SUPPORTED' as const, predicted: 'SUPPORTED' as const })),
      { gold: 'REFUTED' as const, predicted: 'SUPPORTED' as const },
      { gold: 'SUPPORTED' as const, predicted: 'REFUTED' as const },
    ];
    expect(macroF1CI(data, BINARY, { seed: 3, resamples: 500 }).upper).toBeLessThan(1);
  });
});

describe("macro-F1 bootstrap on a 3-way scheme", () => {
  it("a 3-way resample keeps the whole sample's classes", () => {
    const data = [
      ...Array.from({ length: 9 }, () => ({ gold: 'SUPPORTED' as const, predicted: 'SUPPORTED' as const })),
      { gold: 'REFUTED' as const, predicted: 'SUPPORTED' as const },
    ];
    // Present classes: SUPPORTED (F1 18/19) and REFUTED (F1 0); a resample without the REFUTED claim must not reach 1.
    expect(macroF1CI(data, THREE, { seed: 1, resamples: 500 }).upper).toBeLessThanOrEqual(0.5);
  });
});
