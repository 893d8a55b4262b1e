import { accuracy, macroF1 } from './classification';
import { confusionMatrix, type LabelPair } from './confusion-matrix';

/** A metric over k repeats: its value per repeat, their mean, sample sd and a 95% t-interval of the mean. */
export interface SpreadAcrossRepeats {
  values: number[];
  mean: number;
  /** Sample standard deviation (n − 1); 0 for one repeat. */
  sd: number;
  /** mean ± t(0.975, k − 1) · sd / √k; the mean itself for one repeat. */
  lower: number;
  upper: number;
}

/** One verification of a claim in one repeat: its gold label and prediction (null: failed or unparsable). */
export interface RepeatTrial<L extends string> extends LabelPair<L> {
  claimId: string;
  repeat: number;
}

export interface RepeatMetrics {
  /** Repeats with at least one scored verification. */
  k: number;
  accuracy: SpreadAcrossRepeats;
  macroF1: SpreadAcrossRepeats;
  /** Accuracy of each claim's most frequent prediction over its repeats (a tie or no prediction: wrong). */
  majorityVoteAccuracy: number;
  /** Share of claims whose every repeat (k of them) is correct: pass^k with k trials per claim. */
  passHatK: number;
}

/** Two-sided 95% quantiles of Student's t for 1…30 degrees of freedom. */
const T_975 = [
  12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228, 2.201, 2.179, 2.16, 2.145, 2.131, 2.12, 2.11, 2.101, 2.093, 2.086, 2.08, 2.074,
  2.069, 2.064, 2.06, 2.056, 2.052, 2.048, 2.045, 2.042,
];

/** t(0.975, df): the table up to 30, then the Cornish–Fisher expansion around z = 1.95996 (within 0.001 of the exact value there). */
export function tQuantile975(df: number): number {
  if (df < 1) return Number.NaN;
  if (df <= T_975.length) return T_975[df - 1] as number;
  const z = 1.959964;
  return z + (z ** 3 + z) / (4 * df) + (5 * z ** 5 + 16 * z ** 3 + 3 * z) / (96 * df ** 2);
}

export function spreadAcrossRepeats(values: readonly number[]): SpreadAcrossRepeats {
  const k = values.length;
  const mean = k === 0 ? Number.NaN : values.reduce((sum, value) => sum + value, 0) / k;
  const sd = k < 2 ? 0 : Math.sqrt(values.reduce((sum, value) => sum + (value - mean) ** 2, 0) / (k - 1));
  const half = k < 2 ? 0 : (tQuantile975(k - 1) * sd) / Math.sqrt(k);
  return { values: [...values], mean, sd, lower: mean - half, upper: mean + half };
}

/** The most frequent non-null prediction, or null on a tie or when there is none. */
function majorityOf<L extends string>(predictions: readonly (L | null)[]): L | null {
  const votes = new Map<L, number>();
  for (const label of predictions) if (label !== null) votes.set(label, (votes.get(label) ?? 0) + 1);
  const ranked = [...votes.entries()].sort((a, b) => b[1] - a[1]);
  if (ranked.length === 0 || (ranked.length > 1 && ranked[0]![1] === ranked[1]![1])) return null;
  return ranked[0]![0];
}

/**
 * Metrics across the repeats of a group: accuracy and macro-F1 per repeat (each over that repeat's
 * scored verifications) with their mean, sd and 95% interval, majority-vote accuracy and pass^k per claim.
 */
export function repeatMetrics<L extends string>(trials: readonly RepeatTrial<L>[], labels: readonly L[]): RepeatMetrics {
  const byRepeat = new Map<number, RepeatTrial<L>[]>();
  const byClaim = new Map<string, RepeatTrial<L>[]>();
  const add = <K>(map: Map<K, RepeatTrial<L>[]>, key: K, trial: RepeatTrial<L>) => {
    const list = map.get(key);
    if (list) list.push(trial);
    else map.set(key, [trial]);
  };
  for (const trial of trials) {
    add(byRepeat, trial.repeat, trial);
    add(byClaim, trial.claimId, trial);
  }
  const repeats = [...byRepeat.keys()].sort((a, b) => a - b).map((repeat) => confusionMatrix(byRepeat.get(repeat) ?? [], labels));
  const k = repeats.length;
  const claims = [...byClaim.values()];
  const majorityRight = claims.filter((own) => majorityOf(own.map((trial) => trial.predicted)) === own[0]!.gold).length;
  const allRight = claims.filter((own) => own.length >= k && own.every((trial) => trial.predicted === trial.gold)).length;
  return {
    k,
    accuracy: spreadAcrossRepeats(repeats.map((matrix) => accuracy(matrix))),
    macroF1: spreadAcrossRepeats(repeats.map((matrix) => macroF1(matrix))),
    majorityVoteAccuracy: claims.length === 0 ? Number.NaN : majorityRight / claims.length,
    passHatK: claims.length === 0 ? Number.NaN : allRight / claims.length,
  };
}
