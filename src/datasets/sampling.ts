import { mulberry32, randomIndex } from './prng';

/**
 * Splits n over strata proportionally to their sizes with largest-remainder rounding
 * (ties: larger stratum first, then stratum order); never exceeds a stratum's size.
 */
export function allocateProportionally(sizes: readonly number[], n: number): number[] {
  const total = sizes.reduce((sum, size) => sum + size, 0);
  const target = Math.min(Math.max(0, Math.floor(n)), total);
  if (total === 0) return sizes.map(() => 0);
  const exact = sizes.map((size) => (size * target) / total);
  const counts = exact.map(Math.floor);
  const byRemainder = exact
    .map((value, i) => ({ i, remainder: value - Math.floor(value), size: sizes[i] ?? 0 }))
    .sort((a, b) => b.remainder - a.remainder || b.size - a.size || a.i - b.i);
  let missing = target - counts.reduce((sum, count) => sum + count, 0);
  for (const { i } of byRemainder) {
    if (missing === 0) break;
    counts[i] = (counts[i] ?? 0) + 1;
    missing -= 1;
  }
  return counts;
}

/** Indices of k distinct elements of [0, n), by a partial Fisher–Yates shuffle. */
function sampleIndices(n: number, k: number, random: () => number): number[] {
  const indices = Array.from({ length: n }, (_, i) => i);
  for (let i = 0; i < k; i += 1) {
    const j = i + randomIndex(random, n - i);
    [indices[i], indices[j]] = [indices[j] as number, indices[i] as number];
  }
  return indices.slice(0, k);
}

export interface StratifiedSampleOptions<T> {
  seed: number;
  /** The stratum of an item; default: its `labelNorm`. */
  stratumOf?: (item: T) => string;
}

/**
 * Draws n items stratified by label, proportionally, deterministically for a seed.
 * The sample keeps the items' original order (stable), whatever the strata.
 */
export function stratifiedSample<T extends { labelNorm?: string }>(items: readonly T[], n: number, options: StratifiedSampleOptions<T>): T[] {
  const stratumOf = options.stratumOf ?? ((item: T) => String(item.labelNorm));
  const indices = stratifiedIndices(items.map((_, index) => index), (index) => stratumOf(items[index] as T), n, mulberry32(options.seed));
  return indices.sort((a, b) => a - b).map((index) => items[index] as T);
}

/** Indices of `pool` grouped by key, in key order (sorted as strings). */
function groupIndices(pool: readonly number[], keyOf: (index: number) => string): { key: string; indices: number[] }[] {
  const groups = new Map<string, number[]>();
  for (const index of pool) {
    const key = keyOf(index);
    const group = groups.get(key) ?? [];
    group.push(index);
    groups.set(key, group);
  }
  return [...groups.keys()].sort().map((key) => ({ key, indices: groups.get(key) ?? [] }));
}

/** n of `pool`'s indices, allocated proportionally over their strata, drawn from `random`. */
function stratifiedIndices(pool: readonly number[], stratumOf: (index: number) => string, n: number, random: () => number): number[] {
  const groups = groupIndices(pool, stratumOf).map((group) => group.indices);
  const counts = allocateProportionally(groups.map((group) => group.length), n);
  return groups.flatMap((group, g) => sampleIndices(group.length, counts[g] ?? 0, random).map((i) => group[i] as number));
}

export interface PerValueSampleOptions<T> {
  seed: number;
  /** The value an item is sampled (and reported) by, e.g. HoVer's hop count. */
  valueOf: (item: T) => string;
}

/**
 * Draws `perValue` items for every value of `valueOf` (all of a value's items when it has fewer),
 * stratified by label within each value, deterministically for a seed: values are taken in sorted
 * order from one seeded stream. The sample keeps the items' original order.
 */
export function samplePerValue<T extends { labelNorm?: string }>(items: readonly T[], perValue: number, options: PerValueSampleOptions<T>): T[] {
  const random = mulberry32(options.seed);
  const groups = groupIndices(items.map((_, index) => index), (index) => options.valueOf(items[index] as T));
  const chosen = groups.flatMap((group) => stratifiedIndices(group.indices, (index) => String(items[index]?.labelNorm), perValue, random));
  return chosen.sort((a, b) => a - b).map((index) => items[index] as T);
}
