import { describe, expect, it } from 'vitest';
import { clusterCorrect, mcnemarExact, pairedAccuracy, pairedBootstrapDifference, type PairedCluster } from '../../src/metrics';

/** The two-sided exact binomial p of McNemar's test, with exact integers (BigInt), for comparison. */
function exactP(b: number, c: number): number {
  const n = b + c;
  if (n === 0) return 1;
  let choose = 1n;
  let tail = 0n;
  for (let i = 0; i <= Math.min(b, c); i += 1) {
    tail += choose;
    choose = (choose * BigInt(n - i)) / BigInt(i + 1);
  }
  // 2 · tail / 2^n: the top 53 bits of tail as a float, scaled by the powers of two.
  const shift = Math.max(0, tail.toString(2).length - 53);
  return Math.min(1, Number(tail >> BigInt(shift)) * 2 ** (shift + 1 - n));
}

const T = true;
const F = false;

describe("McNemar's exact test", () => {
  it('matches known values', () => {
    // b = 1, c = 9: 2 · (C(10,0) + C(10,1)) / 2^10 = 22 / 1024.
    expect(mcnemarExact(1, 9).pValue).toBeCloseTo(0.02148, 5);
    expect(mcnemarExact(1, 9).pValue).toBeCloseTo(22 / 1024, 15);
    expect(mcnemarExact(9, 1).pValue).toBeCloseTo(22 / 1024, 15);
    expect(mcnemarExact(0, 10).pValue).toBeCloseTo(2 / 1024, 15);
    // No discordant pair, or a balanced table: nothing to see.
    expect(mcnemarExact(0, 0)).toEqual({ onlyA: 0, onlyB: 0, pValue: 1 });
    expect(mcnemarExact(5, 5).pValue).toBe(1);
    expect(mcnemarExact(0, 1).pValue).toBe(1);
    // scipy.stats.binomtest(3, 15).pvalue
    expect(mcnemarExact(3, 12).pValue).toBeCloseTo(0.03515625, 8);
  });

  it('agrees with exact integer arithmetic for thousands of discordant pairs (no overflow, no underflow)', () => {
    for (const [b, c] of [[20, 40], [400, 600], [1200, 1300], [0, 1000], [3, 1000]] as const) {
      const p = mcnemarExact(b, c).pValue;
      expect(p).toBeGreaterThan(0);
      expect(p / exactP(b, c)).toBeCloseTo(1, 9);
    }
    expect(mcnemarExact(1000, 1000).pValue).toBe(1);
  });

  it('refuses what is not a count', () => {
    expect(() => mcnemarExact(-1, 3)).toThrow(RangeError);
    expect(() => mcnemarExact(1.5, 3)).toThrow(RangeError);
  });
});

describe('paired bootstrap of an accuracy difference', () => {
  it('resamples claims with the seeded RNG, as computed by hand', () => {
    // mulberry32(42) draws 0.6011, 0.4483, 0.8525, 0.6697 | 0.1748, 0.5266, 0.2732, 0.6247 → indices (×4) 2,1,3,2 | 0,2,1,2.
    const clusters: PairedCluster[] = [
      { a: [T], b: [F] },
      { a: [F], b: [T] },
      { a: [T], b: [T] },
      { a: [F], b: [T] },
    ];
    // Resample 1 (claims 2,1,3,2): A 2/4, B 4/4 → +0.5. Resample 2 (claims 0,2,1,2): A 3/4, B 3/4 → 0.
    // Sorted [0, 0.5]; the 25th and 75th percentiles (linear) are 0.125 and 0.375.
    const ci = pairedBootstrapDifference(clusters, { seed: 42, resamples: 2, confidence: 0.5 });
    expect(ci).toEqual({ estimate: 0.25, lower: 0.125, upper: 0.375, confidence: 0.5, resamples: 2 });
  });

  it('keeps a claim with its repeats as one cluster and pools the repeats', () => {
    const clusters: PairedCluster[] = [
      { a: [T, T], b: [F, F] },
      { a: [F], b: [T] },
      { a: [T, F], b: [T, T] },
      { a: [F, F], b: [F, T] },
    ];
    // Estimate: A 3/7, B 4/7. Resample (claims 2,1,3,2): A (1+0+0+1)/7 = 2/7, B (2+1+1+2)/7 = 6/7 → 4/7.
    const ci = pairedBootstrapDifference(clusters, { seed: 42, resamples: 1 });
    expect(ci.estimate).toBeCloseTo(1 / 7, 12);
    expect(ci.lower).toBeCloseTo(4 / 7, 12);
    expect(ci.upper).toBeCloseTo(4 / 7, 12);
  });

  it("is as wide as the paired normal approximation, narrower than an unpaired one", () => {
    // 200 claims: 100 both right, 40 both wrong, 20 only A right, 40 only B right → difference 0.1.
    const clusters: PairedCluster[] = [
      ...Array.from({ length: 100 }, () => ({ a: [T], b: [T] })),
      ...Array.from({ length: 40 }, () => ({ a: [F], b: [F] })),
      ...Array.from({ length: 20 }, () => ({ a: [T], b: [F] })),
      ...Array.from({ length: 40 }, () => ({ a: [F], b: [T] })),
    ];
    const ci = pairedBootstrapDifference(clusters, { seed: 3, resamples: 4000 });
    // Paired SE = √(((b + c)/n − d²)/n) = √((0.3 − 0.01)/200) = 0.03808 → ±0.0746; unpaired would be ±0.093.
    expect(ci.estimate).toBeCloseTo(0.1, 12);
    expect(ci.lower).toBeGreaterThan(0.1 - 0.0746 - 0.01);
    expect(ci.lower).toBeLessThan(0.1 - 0.0746 + 0.01);
    expect(ci.upper).toBeGreaterThan(0.1 + 0.0746 - 0.01);
    expect(ci.upper).toBeLessThan(0.1 + 0.0746 + 0.01);
    expect(pairedBootstrapDifference(clusters, { seed: 3, resamples: 500 })).toEqual(pairedBootstrapDifference(clusters, { seed: 3, resamples: 500 }));
    const whole = pairedAccuracy(clusters, { seed: 3, resamples: 200 });
    expect(whole).toMatchObject({ claims: 200, accuracyA: 0.6, accuracyB: 0.7, mcnemar: { onlyA: 20, onlyB: 40 } });
    expect(whole.mcnemar.pValue / exactP(20, 40)).toBeCloseTo(1, 12);
  });

  it('counts a claim with repeats as right in McNemar\'s table when more than half of its repeats are', () => {
    expect([clusterCorrect([T]), clusterCorrect([F]), clusterCorrect([T, F]), clusterCorrect([T, T, F]), clusterCorrect([])]).toEqual([T, F, F, T, F]);
    const result = pairedAccuracy([{ a: [T, T, F], b: [F, F, T] }, { a: [T, F], b: [T, T] }], { resamples: 10 });
    expect(result.mcnemar).toMatchObject({ onlyA: 1, onlyB: 1 });
  });
});
