import { percentileOfSorted } from '../../metrics';
import type { BoxStats } from '../../report/render/charts/box-chart';

/** Min, quartiles (linear interpolation, as numpy), max and mean of a sample; null when it is empty. */
export function boxStats(values: readonly number[]): BoxStats | null {
  const finite = values.filter((value) => Number.isFinite(value));
  if (finite.length === 0) return null;
  const sorted = [...finite].sort((a, b) => a - b);
  const at = (p: number) => percentileOfSorted(sorted, p, 'linear');
  return {
    n: sorted.length,
    min: sorted[0] as number,
    q1: at(25),
    median: at(50),
    q3: at(75),
    max: sorted[sorted.length - 1] as number,
    mean: sorted.reduce((sum, value) => sum + value, 0) / sorted.length,
  };
}
