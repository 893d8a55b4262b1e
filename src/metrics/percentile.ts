export type PercentileMethod = 'nearest-rank' | 'linear';

/**
 * The p-th percentile (0–100) of a sample. `nearest-rank` (default) returns the observed value at
 * rank ceil(p/100·n), so a reported p99 latency is a latency that really happened; `linear`
 * interpolates between closest ranks (numpy's default). NaN for an empty sample.
 */
export function percentile(values: readonly number[], p: number, method: PercentileMethod = 'nearest-rank'): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return percentileOfSorted(sorted, p, method);
}

export function percentileOfSorted(sorted: readonly number[], p: number, method: PercentileMethod): number {
  const n = sorted.length;
  if (method === 'nearest-rank') return sorted[Math.min(n, Math.max(1, Math.ceil((p / 100) * n))) - 1] ?? Number.NaN;
  const position = (p / 100) * (n - 1);
  const below = Math.floor(position);
  const lower = sorted[below] ?? Number.NaN;
  const upper = sorted[Math.min(below + 1, n - 1)] ?? lower;
  return lower + (upper - lower) * (position - below);
}
