import { describe, expect, it } from 'vitest';
import { allocateProportionally, mulberry32, samplePerValue, stratifiedSample } from '../../src/datasets';

type Item = { id: number; labelNorm: string };
const items: Item[] = Array.from({ length: 100 }, (_, id) => ({ id, labelNorm: id % 10 < 5 ? 'SUPPORTED' : id % 10 < 8 ? 'REFUTED' : 'NEI' }));

function histogram(sample: Item[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const item of sample) counts[item.labelNorm] = (counts[item.labelNorm] ?? 0) + 1;
  return counts;
}

describe('mulberry32', () => {
  it('is deterministic, in [0, 1), and differs between seeds', () => {
    const a = mulberry32(42);
    const b = mulberry32(42);
    const values = Array.from({ length: 1000 }, () => a());
    expect(values).toEqual(Array.from({ length: 1000 }, () => b()));
    expect(values.every((v) => v >= 0 && v < 1)).toBe(true);
    expect(mulberry32(43)()).not.toBe(values[0]);
    expect(values.reduce((s, v) => s + v, 0) / values.length).toBeCloseTo(0.5, 1);
  });
});

describe('allocateProportionally', () => {
  it('uses largest remainders and sums to n', () => {
    expect(allocateProportionally([50, 30, 20], 10)).toEqual([5, 3, 2]);
    // exact shares 3.5 / 2.1 / 1.4 → floors 3/2/1, remainders .5 .1 .4 → +1 to the first
    expect(allocateProportionally([50, 30, 20], 7)).toEqual([4, 2, 1]);
    expect(allocateProportionally([1, 1, 1], 2)).toEqual([1, 1, 0]);
  });

  it('caps at the population and handles empty input', () => {
    expect(allocateProportionally([2, 3], 99)).toEqual([2, 3]);
    expect(allocateProportionally([], 5)).toEqual([]);
    expect(allocateProportionally([0, 0], 5)).toEqual([0, 0]);
  });
});

describe('stratifiedSample', () => {
  it('keeps label proportions', () => {
    expect(histogram(stratifiedSample(items, 20, { seed: 1 }))).toEqual({ SUPPORTED: 10, REFUTED: 6, NEI: 4 });
    expect(histogram(stratifiedSample(items, 7, { seed: 1 }))).toEqual({ SUPPORTED: 4, REFUTED: 2, NEI: 1 });
  });

  it('is deterministic for a seed, keeps input order, and has no duplicates', () => {
    const first = stratifiedSample(items, 30, { seed: 123 });
    expect(stratifiedSample(items, 30, { seed: 123 })).toEqual(first);
    expect(stratifiedSample(items, 30, { seed: 124 })).not.toEqual(first);
    const ids = first.map((item) => item.id);
    expect(ids).toEqual([...ids].sort((a, b) => a - b));
    expect(new Set(ids).size).toBe(30);
  });

  it('returns everything when n exceeds the population, and accepts a custom stratum', () => {
    expect(stratifiedSample(items, 1000, { seed: 0 })).toHaveLength(100);
    const byParity = stratifiedSample(items, 10, { seed: 0, stratumOf: (item) => String(item.id % 2) });
    expect(byParity.filter((item) => item.id % 2 === 0)).toHaveLength(5);
  });
});

describe('samplePerValue', () => {
  // HoVer-like: hops 2/3/4 with 40/60/30 claims, half SUPPORTED, half REFUTED within each hop.
  type Hop = { id: number; hops: number; labelNorm: string };
  const sizes: Record<number, number> = { 2: 40, 3: 60, 4: 30 };
  const hopItems: Hop[] = Object.entries(sizes).flatMap(([hops, size]) =>
    Array.from({ length: size }, (_, i) => ({ id: 0, hops: Number(hops), labelNorm: i % 2 === 0 ? 'SUPPORTED' : 'REFUTED' })),
  );
  // Interleave the hops in file order, as a real file would.
  const shuffled = hopItems.map((item, i) => ({ item, key: (i * 7919) % hopItems.length })).sort((a, b) => a.key - b.key).map(({ item }, id) => ({ ...item, id }));
  const valueOf = (item: Hop) => String(item.hops);
  const count = (sample: Hop[], predicate: (item: Hop) => boolean) => sample.filter(predicate).length;

  it('draws the same number for every value, label-stratified within each', () => {
    const sample = samplePerValue(shuffled, 20, { seed: 7, valueOf });
    expect(sample).toHaveLength(60);
    for (const hops of [2, 3, 4]) {
      expect(count(sample, (item) => item.hops === hops)).toBe(20);
      expect(count(sample, (item) => item.hops === hops && item.labelNorm === 'SUPPORTED')).toBe(10);
    }
  });

  it('takes all of a value that has fewer items than asked', () => {
    const sample = samplePerValue(shuffled, 35, { seed: 7, valueOf });
    expect([2, 3, 4].map((hops) => count(sample, (item) => item.hops === hops))).toEqual([35, 35, 30]);
  });

  it('is a deterministic function of the items, the seed and perValue, in file order, without duplicates', () => {
    const first = samplePerValue(shuffled, 10, { seed: 7, valueOf });
    expect(samplePerValue(shuffled, 10, { seed: 7, valueOf })).toEqual(first);
    expect(samplePerValue(shuffled, 10, { seed: 8, valueOf })).not.toEqual(first);
    expect(samplePerValue(shuffled, 11, { seed: 7, valueOf })).not.toEqual(first);
    const ids = first.map((item) => item.id);
    expect(ids).toEqual([...ids].sort((a, b) => a - b));
    expect(new Set(ids).size).toBe(30);
  });
});
