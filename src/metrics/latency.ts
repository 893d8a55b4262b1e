import { percentileOfSorted, type PercentileMethod } from './percentile';

export interface LatencySummary {
  count: number;
  min: number;
  mean: number;
  p50: number;
  p90: number;
  p95: number;
  p99: number;
  max: number;
}

/** Latency distribution of per-claim durations (any unit); percentiles by nearest rank unless told otherwise. */
export function latencySummary(durations: readonly number[], method: PercentileMethod = 'nearest-rank'): LatencySummary {
  const sorted = [...durations].sort((a, b) => a - b);
  const at = (p: number): number => (sorted.length === 0 ? Number.NaN : percentileOfSorted(sorted, p, method));
  return {
    count: sorted.length,
    min: sorted[0] ?? Number.NaN,
    mean: sorted.length === 0 ? Number.NaN : sorted.reduce((sum, d) => sum + d, 0) / sorted.length,
    p50: at(50),
    p90: at(90),
    p95: at(95),
    p99: at(99),
    max: sorted[sorted.length - 1] ?? Number.NaN,
  };
}
