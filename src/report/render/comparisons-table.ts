import type { ComparedFactor, ComparedSide, PairedComparison, RunComparisons, SideAnswer } from '../paired-comparisons';
import { fixed, signed } from './format';
import type { Table } from './report-tables';

/** A side as a table shows it: method · model, with its run when runs are compared. */
export function sideLabel(side: ComparedSide, varies: ComparedFactor): string {
  return varies === 'run' ? `${side.runId} · ${side.method} · ${side.model}` : `${side.method} · ${side.model}`;
}

/** A p-value: four decimals, or scientific notation below 0.0001. */
export function pValue(p: number): string {
  return p >= 1e-4 ? p.toFixed(4) : p.toExponential(1);
}

export function differenceText(c: PairedComparison): string {
  if (!c.difference) return '–';
  return `${signed(c.difference.estimate)} [${signed(c.difference.lower)}, ${signed(c.difference.upper)}]`;
}

/** One row per comparison: who against whom, on how many claims, the accuracies, Δ with its interval, McNemar. */
export function comparisonsTable(comparisons: RunComparisons): Table {
  return {
    header: ['dataset', 'A (baseline)', 'B', 'paired claims (n)', 'repeats (k)', 'accuracy A', 'accuracy B', 'Δ B − A [95% CI]', 'only A right', 'only B right', 'McNemar p'],
    rows: comparisons.comparisons.map((c) => [
      c.dataset,
      sideLabel(c.a, c.varies),
      sideLabel(c.b, c.varies),
      String(c.claims),
      String(c.repeats),
      fixed(c.accuracyA),
      fixed(c.accuracyB),
      differenceText(c),
      c.mcnemar ? String(c.mcnemar.onlyA) : '–',
      c.mcnemar ? String(c.mcnemar.onlyB) : '–',
      c.mcnemar ? pValue(c.mcnemar.pValue) : '–',
    ]),
  };
}

/** A side's answers to a claim: its label, or its labels over the repeats (✓ where right). */
export function answerText(answer: SideAnswer): string {
  return answer.predicted.map((label, i) => `${label || '(empty)'}${answer.correct[i] ? ' ✓' : ' ✗'}`).join(', ');
}

/** Sentences that qualify the comparisons: partial or missing pairings, and datasets with nothing to compare. */
export function comparisonNotes(comparisons: RunComparisons): string[] {
  return [
    ...comparisons.comparisons.flatMap((c) => (c.note ? [`${c.dataset} · ${sideLabel(c.a, c.varies)} vs ${sideLabel(c.b, c.varies)}: ${c.note}`] : [])),
    ...comparisons.notes,
  ];
}
