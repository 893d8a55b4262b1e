/** Gold × predicted counts over a label set, with unparseable predictions kept apart. */
export interface ConfusionMatrix<L extends string = string> {
  labels: readonly L[];
  /** counts[gold][predicted], indexed like `labels`. */
  counts: number[][];
  /** Per gold label: predictions that were invalid (null or outside the label set). They count as errors. */
  invalid: number[];
}

export interface LabelPair<L extends string = string> {
  gold: L;
  /** null = the method's answer could not be parsed into a label. */
  predicted: L | null;
}

function emptyMatrix<L extends string>(labels: readonly L[]): ConfusionMatrix<L> {
  return { labels, counts: labels.map(() => labels.map(() => 0)), invalid: labels.map(() => 0) };
}

function increment(row: number[] | undefined, column: number): void {
  if (row) row[column] = (row[column] ?? 0) + 1;
}

export function confusionMatrix<L extends string>(pairs: Iterable<LabelPair<L>>, labels: readonly L[]): ConfusionMatrix<L> {
  const matrix = emptyMatrix(labels);
  for (const { gold, predicted } of pairs) {
    const g = labels.indexOf(gold);
    if (g < 0) throw new Error(`gold label ${JSON.stringify(gold)} is not in the label set [${labels.join(', ')}]`);
    const p = predicted === null ? -1 : labels.indexOf(predicted);
    if (p < 0) increment(matrix.invalid, g);
    else increment(matrix.counts[g], p);
  }
  return matrix;
}

/** A binary matrix from TP/FN/TN/FP counts, positive label first (for published tables). */
export function binaryConfusionMatrix<L extends string>(
  { tp, fn, tn, fp }: { tp: number; fn: number; tn: number; fp: number },
  labels: readonly [L, L],
): ConfusionMatrix<L> {
  return { labels, counts: [[tp, fn], [fp, tn]], invalid: [0, 0] };
}

const sum = (values: readonly number[]): number => values.reduce((total, value) => total + value, 0);

export function cell(matrix: ConfusionMatrix, gold: number, predicted: number): number {
  return matrix.counts[gold]?.[predicted] ?? 0;
}

/** Gold count of a class, invalid predictions included. */
export function goldCount(matrix: ConfusionMatrix, label: number): number {
  return sum(matrix.counts[label] ?? []) + (matrix.invalid[label] ?? 0);
}

export function predictedCount(matrix: ConfusionMatrix, label: number): number {
  return sum(matrix.counts.map((row) => row[label] ?? 0));
}

export function totalCount(matrix: ConfusionMatrix): number {
  return sum(matrix.labels.map((_, i) => goldCount(matrix, i)));
}

export function invalidCount(matrix: ConfusionMatrix): number {
  return sum(matrix.invalid);
}

export function correctCount(matrix: ConfusionMatrix): number {
  return sum(matrix.labels.map((_, i) => cell(matrix, i, i)));
}
