import { cell, correctCount, goldCount, invalidCount, predictedCount, totalCount, type ConfusionMatrix } from './confusion-matrix';

export interface ClassMetrics {
  label: string;
  precision: number;
  recall: number;
  f1: number;
  /** Gold count of the class. */
  support: number;
}

export interface ClassificationReport {
  total: number;
  invalid: number;
  accuracy: number;
  perClass: ClassMetrics[];
  macroF1: number;
  weightedF1: number;
}

/** A zero denominator gives 0, as in EMULATE (emulate.md §5.3) and MERMAID (mermaid.md §7.3). */
export function ratio(numerator: number, denominator: number): number {
  return denominator === 0 ? 0 : numerator / denominator;
}

export function f1Score(precision: number, recall: number): number {
  return ratio(2 * precision * recall, precision + recall);
}

/** Share of all claims predicted correctly; invalid predictions count as wrong. */
export function accuracy(matrix: ConfusionMatrix): number {
  return ratio(correctCount(matrix), totalCount(matrix));
}

export function perClassMetrics(matrix: ConfusionMatrix): ClassMetrics[] {
  return matrix.labels.map((label, i) => {
    const precision = ratio(cell(matrix, i, i), predictedCount(matrix, i));
    const recall = ratio(cell(matrix, i, i), goldCount(matrix, i));
    return { label, precision, recall, f1: f1Score(precision, recall), support: goldCount(matrix, i) };
  });
}

/**
 * Whether a class enters the averages: it has gold claims or predictions. A class with neither
 * (NEI on a run without NEI claims) has no F1 to speak of, and sklearn, which the papers' scripts
 * call, leaves it out of its label set too.
 */
export function isPresentClass(matrix: ConfusionMatrix, label: number): boolean {
  return goldCount(matrix, label) + predictedCount(matrix, label) > 0;
}

/**
 * The classes macro-F1 averages: on a binary label set always both, so a sample without REFUTED
 * claims or predictions cannot score 1.0 (issue 37 §2.5); on a larger one the classes present.
 * A bootstrap fixes them from the whole sample, so no resample drops a class.
 */
export function averagedClasses(matrix: ConfusionMatrix): number[] {
  const all = matrix.labels.map((_, i) => i);
  return matrix.labels.length <= 2 ? all : all.filter((i) => isPresentClass(matrix, i));
}

/** Unweighted mean of the class F1s over `classes` (indexes into the label set; averagedClasses by default). */
export function macroF1(matrix: ConfusionMatrix, perClass = perClassMetrics(matrix), classes: readonly number[] = averagedClasses(matrix)): number {
  return ratio(classes.reduce((sum, i) => sum + (perClass[i]?.f1 ?? 0), 0), classes.length);
}

/** Class F1s weighted by gold support. */
export function weightedF1(matrix: ConfusionMatrix, perClass = perClassMetrics(matrix)): number {
  return ratio(perClass.reduce((sum, c) => sum + c.f1 * c.support, 0), totalCount(matrix));
}

export function classificationReport(matrix: ConfusionMatrix): ClassificationReport {
  const perClass = perClassMetrics(matrix);
  return {
    total: totalCount(matrix),
    invalid: invalidCount(matrix),
    accuracy: accuracy(matrix),
    perClass,
    macroF1: macroF1(matrix, perClass),
    weightedF1: weightedF1(matrix, perClass),
  };
}
