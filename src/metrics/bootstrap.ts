import { mulberry32, randomIndex } from '../datasets/prng';
import { accuracy, averagedClasses, macroF1, perClassMetrics } from './classification';
import { confusionMatrix, type LabelPair } from './confusion-matrix';
import { percentileOfSorted } from './percentile';

export interface BootstrapOptions {
  /** Default 1000. */
  resamples?: number;
  /** Default 0. */
  seed?: number;
  /** Default 0.95. */
  confidence?: number;
}

export interface ConfidenceInterval {
  estimate: number;
  lower: number;
  upper: number;
  confidence: number;
  resamples: number;
}

/** Percentile-method bootstrap CI of a statistic over items resampled with replacement; seeded, so reproducible. */
export function bootstrapCI<T>(items: readonly T[], statistic: (sample: readonly T[]) => number, options: BootstrapOptions = {}): ConfidenceInterval {
  const { resamples = 1000, seed = 0, confidence = 0.95 } = options;
  const estimate = statistic(items);
  if (items.length === 0) return { estimate, lower: estimate, upper: estimate, confidence, resamples: 0 };
  const random = mulberry32(seed);
  const values: number[] = [];
  for (let r = 0; r < resamples; r += 1) {
    values.push(statistic(Array.from({ length: items.length }, () => items[randomIndex(random, items.length)] as T)));
  }
  values.sort((a, b) => a - b);
  const tail = ((1 - confidence) / 2) * 100;
  return {
    estimate,
    lower: percentileOfSorted(values, tail, 'linear'),
    upper: percentileOfSorted(values, 100 - tail, 'linear'),
    confidence,
    resamples,
  };
}

/** Accuracy CI; `clusters` (pairs grouped by claim, repeats together) resamples claims, not verifications. */
export function accuracyCI<L extends string>(pairs: readonly LabelPair<L>[], labels: readonly L[], options?: BootstrapOptions, clusters: readonly (readonly LabelPair<L>[])[] = pairs.map((pair) => [pair])): ConfidenceInterval {
  return clusterBootstrapCI(clusters, (sample) => accuracy(confusionMatrix(sample, labels)), options);
}

/** Macro-F1 CI, over `clusters` as accuracyCI. */
export function macroF1CI<L extends string>(pairs: readonly LabelPair<L>[], labels: readonly L[], options?: BootstrapOptions, clusters: readonly (readonly LabelPair<L>[])[] = pairs.map((pair) => [pair])): ConfidenceInterval {
  const classes = averagedClasses(confusionMatrix(pairs, labels));
  return clusterBootstrapCI(clusters, (sample) => {
    const matrix = confusionMatrix(sample, labels);
    return macroF1(matrix, perClassMetrics(matrix), classes);
  }, options);
}

/**
 * Bootstrap CI over clusters (a claim with all its repeats): clusters are resampled with
 * replacement, the statistic sees their items pooled. k identical repeats of n claims then give the
 * interval of n claims, not of k × n independent ones (issue 37 §2.4). With one item per cluster it
 * is bootstrapCI over the items, draw for draw.
 */
export function clusterBootstrapCI<T>(clusters: readonly (readonly T[])[], statistic: (sample: readonly T[]) => number, options: BootstrapOptions = {}): ConfidenceInterval {
  return bootstrapCI(clusters, (sample) => statistic(sample.flat() as T[]), options);
}

/** Items grouped by their cluster key, in first-seen order. */
export function clustersBy<T>(items: readonly T[], keyOf: (item: T) => string): T[][] {
  const clusters = new Map<string, T[]>();
  for (const item of items) {
    const key = keyOf(item);
    const cluster = clusters.get(key);
    if (cluster) cluster.push(item);
    else clusters.set(key, [item]);
  }
  return [...clusters.values()];
}
