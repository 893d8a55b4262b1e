import { isPresentClass, perClassMetrics, ratio } from './classification';
import { totalCount, type ConfusionMatrix } from './confusion-matrix';
import { pythonRound } from './python-round';

export interface RoundedClassMetrics {
  label: string;
  precision: number;
  recall: number;
  f1: number;
}

export interface PaperReport {
  perClass: RoundedClassMetrics[];
  macroF1: number;
  weightedF1: number;
}

/**
 * EMULATE's eval.ipynb rounding (emulate.md §5.3, §7 item 15): P and R rounded; F1 from the
 * unrounded P and R, then rounded; macro and weighted F1 from the *rounded* class F1s, rounded again.
 */
export function paperRoundedReport(matrix: ConfusionMatrix, digits = 2): PaperReport {
  const round = (x: number): number => pythonRound(x, digits);
  const classes = perClassMetrics(matrix);
  const perClass = classes.map((c) => ({ label: c.label, precision: round(c.precision), recall: round(c.recall), f1: round(c.f1) }));
  const present = perClass.filter((_, i) => isPresentClass(matrix, i));
  const macro = ratio(present.reduce((sum, c) => sum + c.f1, 0), present.length);
  const weighted = ratio(perClass.reduce((sum, c, i) => sum + c.f1 * (classes[i]?.support ?? 0), 0), totalCount(matrix));
  return { perClass, macroF1: round(macro), weightedF1: round(weighted) };
}
