import { describe, expect, it } from 'vitest';
import { repeatMetrics, spreadAcrossRepeats, tQuantile975, type RepeatTrial } from '../../src/metrics';

type Label = 'SUPPORTED' | 'REFUTED';
const LABELS: Label[] = ['SUPPORTED', 'REFUTED'];
const S = 'SUPPORTED' as const;
const R = 'REFUTED' as const;

function trials(claims: { claimId: string; gold: Label; predicted: (Label | null)[] }[]): RepeatTrial<Label>[] {
  return claims.flatMap(({ claimId, gold, predicted }) => predicted.map((label, repeat) => ({ claimId, repeat, gold, predicted: label })));
}

describe('tQuantile975', () => {
  it('is the t table for small df and close to the exact quantile beyond it', () => {
    expect(tQuantile975(1)).toBe(12.706);
    expect(tQuantile975(2)).toBe(4.303);
    expect(tQuantile975(30)).toBe(2.042);
    // Exact: t(0.975, 60) = 2.0003, t(0.975, 120) = 1.9799.
    expect(tQuantile975(60)).toBeCloseTo(2.0003, 3);
    expect(tQuantile975(120)).toBeCloseTo(1.9799, 3);
  });
});

describe('spreadAcrossRepeats', () => {
  it('gives the mean, the sample sd and the 95% t-interval of the mean', () => {
    const spread = spreadAcrossRepeats([0.6, 0.7, 0.8]);
    expect(spread.mean).toBeCloseTo(0.7, 12);
    expect(spread.sd).toBeCloseTo(0.1, 12);
    // 0.7 ± 4.303 · 0.1 / √3
    expect(spread.lower).toBeCloseTo(0.7 - 0.24843, 4);
    expect(spread.upper).toBeCloseTo(0.7 + 0.24843, 4);
  });

  it('has no spread for one repeat', () => {
    expect(spreadAcrossRepeats([0.5])).toEqual({ values: [0.5], mean: 0.5, sd: 0, lower: 0.5, upper: 0.5 });
  });
});

describe('repeatMetrics', () => {
  // c1 right in all three repeats; c2 wrong in repeat 1 only; c3 wrong in all (failed in repeat 1).
  const metrics = repeatMetrics(
    trials([
      { claimId: 'c1', gold: S, predicted: [S, S, S] },
      { claimId: 'c2', gold: R, predicted: [R, S, R] },
      { claimId: 'c3', gold: S, predicted: [R, null, R] },
    ]),
    LABELS,
  );

  it('computes accuracy per repeat (2/3, 1/3, 2/3) with mean 5/9 and sd √3/9', () => {
    expect(metrics.k).toBe(3);
    expect(metrics.accuracy.values).toEqual([2 / 3, 1 / 3, 2 / 3]);
    expect(metrics.accuracy.mean).toBeCloseTo(5 / 9, 12);
    expect(metrics.accuracy.sd).toBeCloseTo(Math.sqrt(3) / 9, 12);
    expect(metrics.accuracy.upper - metrics.accuracy.mean).toBeCloseTo((4.303 * Math.sqrt(3)) / 9 / Math.sqrt(3), 12);
  });

  it('computes macro-F1 per repeat (2/3, 1/4, 2/3) and their mean 19/36', () => {
    // Repeat 1: SUPPORTED P = R = 1/2 (F1 1/2); REFUTED has gold but no right answer (F1 0).
    expect(metrics.macroF1.values.map((v) => Number(v.toFixed(12)))).toEqual([2 / 3, 1 / 4, 2 / 3].map((v) => Number(v.toFixed(12))));
    expect(metrics.macroF1.mean).toBeCloseTo(19 / 36, 12);
  });

  it('scores the majority answer per claim (2 of 3) and pass^k, all repeats right (1 of 3)', () => {
    expect(metrics.majorityVoteAccuracy).toBeCloseTo(2 / 3, 12);
    expect(metrics.passHatK).toBeCloseTo(1 / 3, 12);
  });

  it('counts a tied vote as wrong', () => {
    const tied = repeatMetrics(trials([{ claimId: 'c1', gold: S, predicted: [S, R] }]), LABELS);
    expect(tied.majorityVoteAccuracy).toBe(0);
    expect(tied.passHatK).toBe(0);
  });
});
