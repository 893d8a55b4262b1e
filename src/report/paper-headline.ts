import { accuracy, macroF1, paperRoundedReport, pythonRound, type ConfusionMatrix, type RepeatMetrics } from '../metrics';

/** The one number a method's paper reports per dataset, computed and rounded as that paper does (`protocol: paper`). */
export interface PaperHeadline {
  metric: string;
  value: number;
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

/**
 * Tool-MAD (Table III): exact-match accuracy in %, one decimal. ToE (§IV): the median accuracy of its
 * trials (the sweep's repeats; one trial without repeats). MERMAID (mermaid.md §7.3): the mean of
 * both class F1s, two decimals. EMULATE and FIRE: eval.ipynb's macro-F1 rounding (emulate.md §5.3).
 */
export function paperHeadline(method: string, matrix: ConfusionMatrix, repeats: RepeatMetrics | null): PaperHeadline {
  switch (method) {
    case 'tool-mad':
      return { metric: 'EM accuracy % (Tool-MAD)', value: pythonRound(accuracy(matrix) * 100, 1) };
    case 'toe': {
      const trials = repeats?.accuracy.values ?? [accuracy(matrix)];
      return { metric: `median accuracy of ${trials.length} trial(s) (ToE)`, value: median(trials) };
    }
    case 'mermaid':
      return { metric: 'macro-F1 of both classes (MERMAID)', value: pythonRound(macroF1(matrix), 2) };
    default:
      return { metric: 'macro-F1 (EMULATE eval.ipynb rounding)', value: paperRoundedReport(matrix).macroF1 };
  }
}
